// The household's data as the tables of its export, in the order an advisor walks through it:
// a summary (the household, the last sync, unsent changes, net worth, monthly cash flow and the
// payments entered with items beside the budget), each member's details (field and value), then
// one table per section as the workspace lists them, one row per item and one column per field.
// A part not on this computer is a table that says so.

import { formOfKey } from '@shared/section-forms/build.ts';
import type { FormField } from '@shared/section-forms/form.ts';
import { MEMBER_FORM } from '@shared/section-forms/member-form.ts';
import {
  BUDGET_RULE,
  budgetLineLabel,
  budgetShown,
  differenceWords,
  paymentLabel,
  paymentSectionsIn,
  paymentsBesideBudget,
} from '@shared/budget-payments.ts';
import { UNCOUNTED_TITLE, WORTH_PART_LABELS } from '@shared/finance.ts';
import type { Fields } from '../data/model.ts';
import { listed } from '../household/coverage.ts';
import { flowLineLabel, money as displayMoney } from '../household/values.ts';
import { relationLabel, sectionEntries } from '../household/workspace.ts';
import { accountLabel } from '../data/labels.ts';
import { hasFinancialData, type Household } from './household.ts';
import { fieldCell, fieldColumns, frequencyCell, type RelationNamer } from './field-cells.ts';
import { notDownloaded, text, type Cell, type Table } from './table.ts';

export interface TableOptions {
  /** When the export is made (local ms). */
  now: number;
  /** The user's currency (ISO code): the workbook's format of amounts. USD when not given. */
  currency?: string;
}

const money = (cents: number): Cell => ({ kind: 'currency', value: cents / 100 });
const row = (label: string, value: Cell): Cell[] => [text(label), value];

function summary(household: Household, options: TableOptions): Table {
  const { account, coverage, netWorth, cashFlow } = household;
  const missing = new Set(coverage.missing);
  const memberNames = Object.fromEntries(household.members.map((m) => [m.role, m.name]));
  const rows: Cell[][] = [
    row('Household', text(accountLabel(account))),
    ...household.members.map((m) => row(m.role === 'client' ? 'Client' : 'Co-client', text(m.name))),
    row(
      'As of the last sync',
      household.pulledAt !== null
        ? { kind: 'moment', value: household.pulledAt }
        : text(typeof account.serverId === 'number' ? 'Never synced' : 'Made on this computer, not sent yet'),
    ),
    row('Exported', { kind: 'moment', value: options.now }),
    row('Changes not sent yet', { kind: 'number', value: household.unsent }),
  ];
  if (coverage.state === 'none') {
    rows.push(row('Financial data', text('Not downloaded yet')));
    return { title: 'Summary', columns: ['Item', 'Value'], rows };
  }
  if (!hasFinancialData(household) && coverage.state === 'complete') {
    rows.push(row('Financial data', text('None entered yet: no items and no amounts in any section.')));
    return { title: 'Summary', columns: ['Item', 'Value'], rows };
  }
  const worthMissing = netWorth.parts.filter((p) => missing.has(p.section));
  rows.push(
    row(
      'Net worth',
      worthMissing.length === 0
        ? money(netWorth.total)
        : text(worthMissing.length === netWorth.parts.length ? 'Not downloaded yet' : 'Incomplete'),
    ),
    ...netWorth.parts.map((p) =>
      row(
        `  ${WORTH_PART_LABELS[p.section] ?? p.section}`,
        missing.has(p.section) ? text('Not downloaded yet') : money(p.sign * p.cents),
      ),
    ),
  );
  // A flow whose section is not here is unknown, not zero: income is incomplete when one member's is missing.
  const incomeMissing = coverage.missing.filter((key) => key.startsWith('income:')).length;
  const flowRow = (label: string, key: string | null, cents: number): Cell[] => {
    const unknown = key === null ? incomeMissing > 0 : missing.has(key);
    const partly = key === null && incomeMissing < household.members.length;
    return row(label, unknown ? text(partly ? 'Incomplete' : 'Not downloaded yet') : money(cents));
  };
  const flowMissing =
    incomeMissing > 0 || ['expenses-fixed', 'expenses-tax', 'expenses-variable'].some((k) => missing.has(k));
  rows.push(
    row('Net monthly cash flow', flowMissing ? text('Incomplete') : money(cashFlow.net)),
    flowRow('  Income', null, cashFlow.income),
    flowRow('  Fixed expenses', 'expenses-fixed', -cashFlow.fixed),
    flowRow('  Taxes', 'expenses-tax', -cashFlow.tax),
    flowRow('  Variable expenses', 'expenses-variable', -cashFlow.variable),
  );
  if (cashFlow.oneTime.length) {
    rows.push(row('One-time amounts (not in the monthly cash flow)', null));
    for (const line of cashFlow.oneTime)
      rows.push(row(`  ${flowLineLabel(line, memberNames)}`, { kind: 'currency', value: line.money.value }));
  }
  // The amount stays a number; the frequency the app cannot convert is named as stored.
  if (cashFlow.uncounted.length) {
    rows.push(row(UNCOUNTED_TITLE, null));
    for (const line of cashFlow.uncounted)
      rows.push(
        row(`  ${flowLineLabel(line, memberNames)}, ${line.money.frequency}`, {
          kind: 'currency',
          value: line.money.value,
        }),
      );
  }
  rows.push(...budgetRows(household, flowMissing ? null : cashFlow.net, options.currency ?? 'USD'));
  return { title: 'Summary', columns: ['Item', 'Value'], rows };
}

/**
 * The cash flow's rule, and the payments entered with items beside their budget line
 * (shared/budget-payments.ts), as the overview and the financial summary show them. `net`: the
 * net monthly cash flow in cents, null when it is not known here.
 */
function budgetRows(household: Household, net: number | null, currency: string): Cell[][] {
  const fixed = household.singles['expenses-fixed'] ?? {};
  const beside = paymentsBesideBudget(fixed, household.items);
  const words = (cents: number) => displayMoney(cents / 100, currency);
  const rows: Cell[][] = [row('How the cash flow is counted', text(BUDGET_RULE))];
  const missingSections = paymentSectionsIn(household.coverage.missing);
  if (missingSections.length)
    rows.push(row('Payments not downloaded yet, not compared', text(listed(missingSections))));
  if (beside.checks.length && household.coverage.missing.includes('expenses-fixed'))
    rows.push(row('Payments entered with the items', text('Not compared: the fixed expenses are not here')));
  else if (beside.checks.length) {
    rows.push(row('Payments entered with the items, beside the budget (per month)', null));
    for (const c of beside.checks) {
      const line = budgetLineLabel(c.line);
      rows.push(
        row(
          `  ${line}: budget`,
          c.budget === null || c.budget === 0 ? text(budgetShown(c, words)) : money(c.budget),
        ),
        row(`  ${line}: with the items (${c.payments.map(paymentLabel).join(', ')})`, money(c.paid)),
        row(`  ${line}: difference`, text(differenceWords(c, words))),
      );
    }
    if (beside.notInBudget > 0) {
      rows.push(row('Payments not in the budget', money(beside.notInBudget)));
      if (net !== null)
        rows.push(row('Net if they are paid on top of the budget', money(net - beside.notInBudget)));
    }
  }
  if (beside.notMonthly.length) {
    rows.push(row('Payments that are no monthly amount, not compared', null));
    for (const p of beside.notMonthly)
      rows.push(
        row(`  ${paymentLabel(p)}, ${p.money.frequency}`, { kind: 'currency', value: p.money.value }),
      );
  }
  return rows;
}

function details(household: Household, nameOf: RelationNamer, currency: string): Table[] {
  return household.members.map(({ role, name }) => {
    const key = `details:${role}`;
    const title = `Details · ${name}`;
    if (household.coverage.missing.includes(key)) return notDownloaded(title);
    const fields = household.singles[key] ?? {};
    const rows = MEMBER_FORM.flatMap((group) =>
      group.fields.map((f) => [
        text(group.title),
        text(f.label),
        fieldCell(f, fields[f.name], nameOf, currency),
      ]),
    );
    return { title, columns: ['Group', 'Field', 'Value'], rows };
  });
}

/** A single record (fixed expenses, taxes, a member's income) as lines: field, amount, how often. */
function singleTable(
  title: string,
  fields: readonly FormField[],
  record: Readonly<Fields>,
  nameOf: RelationNamer,
  currency: string,
): Table {
  const rows = fields.map((f) => [
    text(f.label),
    fieldCell(f, record[f.name], nameOf, currency),
    f.input === 'currency' ? frequencyCell(f, record[f.name]) : null,
  ]);
  return { title, columns: ['Item', 'Amount', 'How often'], rows };
}

function sections(household: Household, nameOf: RelationNamer, currency: string): Table[] {
  return sectionEntries(household.account).flatMap((entry) => {
    const found = formOfKey(entry.key);
    if (!found) return [];
    const { form } = found;
    if (household.coverage.missing.includes(entry.key)) return [notDownloaded(entry.title)];
    if (form.single)
      return [singleTable(entry.title, form.fields, household.singles[entry.key] ?? {}, nameOf, currency)];
    const records = household.items.filter((i) => i.section === entry.key).map((i) => i.fields);
    const columns = form.fields.flatMap((f) => fieldColumns(f, records, nameOf, currency));
    return [
      {
        title: entry.title,
        columns: columns.map((c) => c.label),
        rows: records.map((r) => columns.map((c) => c.cell(r))),
      },
    ];
  });
}

/** Every table of the household's data export, summary first. */
export function householdTables(household: Household, options: TableOptions): Table[] {
  const currency = options.currency ?? 'USD';
  const nameOf: RelationNamer = (r) => relationLabel(r, household.account, household.items);
  return [
    summary(household, options),
    ...details(household, nameOf, currency),
    ...sections(household, nameOf, currency),
  ];
}
