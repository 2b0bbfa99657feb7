// Monthly cash flow: income against fixed, tax and variable expenses, each amount converted to a
// month as the app converts it (shared/finance.ts: yearly ÷ 12), one-time amounts listed apart
// because they are no monthly flow, amounts at a frequency the app cannot convert listed apart with
// that frequency as stored, and a bar of income against the three kinds of expenses.
// A source not on this computer (a member's income, the taxes …) is named instead of counted.
// Beneath, the rule and the payments entered with other sections beside the budget
// (budget-payments.ts).

import type { Content } from 'pdfmake/interfaces';
import {
  UNCOUNTED_TITLE,
  cashFlow,
  flowLines,
  monthlyCents,
  type FlowGroup,
  type FlowLine,
} from '@shared/finance.ts';
import { itemPayments } from '@shared/budget-payments.ts';
import { fieldLabel, valueLabel } from '@shared/section-forms/labels.ts';
import { listed } from '../../household/coverage.ts';
import { budgetPaymentsPart } from './budget-payments.ts';
import { barChart, COLORS } from './charts.ts';
import { amount, memberNameOf, signedAmount, type SummaryContext } from './context.ts';
import { heading, notDownloaded, sentence, subheading, table, type Column } from './layout.ts';

const GROUPS: readonly { group: FlowGroup; label: string; sign: 1 | -1 }[] = [
  { group: 'income', label: 'Income', sign: 1 },
  { group: 'fixed', label: 'Fixed expenses', sign: -1 },
  { group: 'tax', label: 'Taxes', sign: -1 },
  { group: 'variable', label: 'Variable expenses', sign: -1 },
];

/** The storage keys each group's amounts come from. */
function sourcesOf(ctx: SummaryContext, group: FlowGroup): string[] {
  if (group === 'income') return ctx.members.map((m) => `income:${m}`);
  return [group === 'fixed' ? 'expenses-fixed' : group === 'tax' ? 'expenses-tax' : 'expenses-variable'];
}

function sourceLabel(ctx: SummaryContext, key: string): string {
  const [path, member] = key.split(':');
  if (path === 'income' && (member === 'client' || member === 'coclient'))
    return `Income of ${memberNameOf(ctx, member)}`;
  return GROUPS.find((g) => sourcesOf(ctx, g.group).includes(key))?.label ?? key;
}

function lineLabel(ctx: SummaryContext, line: FlowLine): string {
  const [path = '', member] = line.source.split(':');
  const name = line.group === 'variable' ? valueLabel(line.name) : fieldLabel(line.name, path);
  return member === 'client' || member === 'coclient' ? `${name} · ${memberNameOf(ctx, member)}` : name;
}

/** A flow line's kind, item and amount as entered (`amountLabel` heads that column). */
const lineColumns = (ctx: SummaryContext, amountLabel: string): Column<FlowLine>[] => [
  { label: 'Kind', width: 90, cell: (l) => GROUPS.find((g) => g.group === l.group)?.label ?? '' },
  { label: 'Item', cell: (l) => lineLabel(ctx, l) },
  { label: amountLabel, width: 90, amount: true, cell: (l) => amount(ctx, Math.round(l.money.value * 100)) },
];

const FREQUENCY: Record<string, string> = { monthly: 'Monthly', yearly: 'Yearly', 'one-time': 'One time' };

export function cashFlowPart(ctx: SummaryContext): Content[] {
  const out: Content[] = [heading('Monthly cash flow')];
  const allSources = GROUPS.flatMap((g) => sourcesOf(ctx, g.group));
  const missing = allSources.filter((k) => ctx.missing.includes(k));
  if (missing.length === allSources.length) return [...out, notDownloaded('Income and expenses')];
  const singles = Object.fromEntries(Object.entries(ctx.singles).map(([k, r]) => [k, r.fields]));
  const items = ctx.items.map((i) => ({ section: i.section, fields: i.fields }));
  const lines = flowLines(singles, items);
  if (lines.length === 0 && missing.length === 0)
    return [
      ...out,
      sentence('No income or expenses are recorded.'),
      ...(itemPayments(items).length ? budgetPaymentsPart(ctx, null) : []),
    ];
  const flow = cashFlow(singles, items);
  const groupMissing = (g: FlowGroup) => sourcesOf(ctx, g).some((k) => missing.includes(k));
  out.push(
    table(
      [
        { label: 'Per month', cell: (g: (typeof GROUPS)[number]) => g.label },
        {
          label: 'Amount',
          width: 110,
          amount: true,
          cell: (g) =>
            groupMissing(g.group) ? 'Not downloaded yet' : signedAmount(ctx, g.sign * flow[g.group]),
        },
      ],
      GROUPS,
      [['Net monthly cash flow', missing.length ? 'Incomplete' : signedAmount(ctx, flow.net)]],
    ),
  );
  if (missing.length)
    out.push(sentence(`Not on this computer yet: ${listed(missing.map((k) => sourceLabel(ctx, k)))}.`));
  else {
    const expenses = [
      { label: 'Fixed', cents: flow.fixed, color: COLORS.fixed },
      { label: 'Taxes', cents: flow.tax, color: COLORS.tax },
      { label: 'Variable', cents: flow.variable, color: COLORS.variable },
    ];
    out.push(
      barChart(
        [
          {
            label: 'Income',
            segments: [{ label: 'Income', cents: flow.income, color: COLORS.income }],
            shown: amount(ctx, flow.income),
          },
          {
            label: 'Expenses',
            segments: expenses,
            shown: amount(ctx, flow.fixed + flow.tax + flow.variable),
          },
        ],
        expenses,
      ),
    );
  }
  out.push(...budgetPaymentsPart(ctx, missing.length ? null : flow.net));
  const recurring = lines.filter((l) => monthlyCents(l.money) !== null);
  if (recurring.length) {
    out.push(
      subheading('Recurring amounts'),
      table(
        [
          ...lineColumns(ctx, 'As entered'),
          { label: 'How often', width: 60, cell: (l) => FREQUENCY[l.money.frequency] ?? '' },
          {
            label: 'Per month',
            width: 80,
            amount: true,
            cell: (l) => amount(ctx, monthlyCents(l.money) ?? 0),
          },
        ],
        recurring,
      ),
    );
  }
  if (flow.oneTime.length) {
    out.push(
      subheading('One-time amounts (not part of the monthly figures)'),
      table(lineColumns(ctx, 'Amount'), flow.oneTime),
    );
  }
  if (flow.uncounted.length) {
    out.push(
      subheading(UNCOUNTED_TITLE),
      table(
        [...lineColumns(ctx, 'Amount'), { label: 'How often', width: 80, cell: (l) => l.money.frequency }],
        flow.uncounted,
      ),
    );
  }
  return out;
}
