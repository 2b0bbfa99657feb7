// Net worth and monthly cash flow of an account, computed locally from its financial sections, so
// that the overview is right offline and the moment an item is typed. Amounts are summed in whole
// cents, so that a long list of items cannot drift by floating-point error.
//
// A Currency is `{value, frequency}` (or a plain number at the field's default frequency, as the
// interface's examples show). The monthly cash flow counts recurring amounts only: monthly ones as
// they are and yearly ones divided by twelve. One-time amounts are not a monthly flow, and an
// amount at a frequency the platform allows but the app does not know cannot be converted; both
// are listed apart so the screens and exports can say what was left out rather than hide it or
// count it wrong.

import { SECTIONS, sectionOfKey, type Frequency, type SectionDescriptor } from './sections.ts';

/** A frequency as stored: one of the document's (`Frequency`), or another the platform allows. */
export type StoredFrequency = Frequency | (string & {});

export interface Money {
  value: number;
  /** As stored, never replaced: `quarterly` stays `quarterly`, so nothing counts it as monthly. */
  frequency: StoredFrequency;
}

/**
 * A Currency field's value, or null when it holds none. A plain number, or an object without a
 * frequency (the document makes it optional), is at the field's default frequency; a frequency the
 * app does not know is kept as it is (as the forms keep and show it), never replaced by the default.
 */
export function readMoney(raw: unknown, fallback: Frequency): Money | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? { value: raw, frequency: fallback } : null;
  if (typeof raw !== 'object' || raw === null) return null;
  const { value, frequency } = raw as { value?: unknown; frequency?: unknown };
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  // As the forms read it (household/values.ts `toDraft`): a non-empty text as is, else the default.
  return { value, frequency: typeof frequency === 'string' && frequency !== '' ? frequency : fallback };
}

const cents = (value: number): number => Math.round(value * 100);

/**
 * Cents per month of a recurring amount; null for a one-time amount and for a frequency the app
 * does not know (`isOneTime` tells the two apart).
 *
 * Only the document's frequencies are converted. Frequencies such as `weekly` or `quarterly` read
 * as unambiguous, but they are the platform's words, not the document's: the app cannot know how
 * the platform (and its own reports) turns them into a month (a week is 52/12 or 52.18/12 of a
 * month), nor which spelling means what (`biannual` is twice a year or every two years,
 * `biweekly` twice a week or every two weeks), and the forms show them raw for the same reason. A
 * figure the advisor cannot check would then stand in a client's summary; an amount listed apart,
 * with its frequency as stored, is visibly left out and the advisor can convert it.
 */
export function monthlyCents(money: Money): number | null {
  switch (money.frequency) {
    case 'monthly':
      return cents(money.value);
    case 'yearly':
      return Math.round(cents(money.value) / 12);
    default:
      return null;
  }
}

/** Whether an amount is one-time: no monthly flow, though the app knows its frequency. */
export const isOneTime = (money: Money): boolean => money.frequency === 'one-time';

// ---- net worth ---------------------------------------------------------------------------------

/** What counts toward net worth, per section: the field holding the item's worth today. */
const WORTH_FIELDS: Readonly<Record<string, { field: string; sign: 1 | -1 }>> = {
  assets: { field: 'current_value', sign: 1 },
  cash: { field: 'current_value', sign: 1 },
  taxable: { field: 'current_value', sign: 1 },
  plans: { field: 'current_value', sign: 1 },
  annuities: { field: 'current_value', sign: 1 },
  insurance: { field: 'cash_value', sign: 1 },
  liabilities: { field: 'current_value', sign: -1 },
};

/** The parts of net worth as the overview and the exports name them, by section path. */
export const WORTH_PART_LABELS: Readonly<Record<string, string>> = {
  assets: 'Assets',
  cash: 'Cash',
  taxable: 'Taxable accounts',
  plans: 'Retirement & college',
  annuities: 'Annuities',
  insurance: 'Insurance cash value',
  liabilities: 'Liabilities',
};

/** The field a section's total sums: an item's worth for net worth, a variable expense's amount. */
export function summedField(path: string): string | undefined {
  return path === 'expenses-variable' ? 'value' : WORTH_FIELDS[path]?.field;
}

export interface ItemLike {
  /** Storage key of the item's section (`assets`, `employment:client`). */
  section: string;
  fields: Readonly<Record<string, unknown>>;
}

export interface Part {
  /** Section path. */
  section: string;
  /** Sum in cents, positive; `sign` says whether it adds or subtracts. */
  cents: number;
  sign: 1 | -1;
  items: number;
}

export interface NetWorth {
  /** In cents. */
  total: number;
  /** One part per section that counts, in the order of WORTH_FIELDS, empty ones included. */
  parts: Part[];
}

const descriptor = (path: string): SectionDescriptor | undefined => SECTIONS.find((s) => s.path === path);

function fallbackOf(path: string, field: string): Frequency {
  const spec = descriptor(path)?.fields[field];
  return spec?.kind === 'currency' ? spec.frequency : 'one-time';
}

export function netWorth(items: readonly ItemLike[]): NetWorth {
  const parts: Part[] = Object.entries(WORTH_FIELDS).map(([section, { sign }]) => ({
    section,
    cents: 0,
    sign,
    items: 0,
  }));
  for (const item of items) {
    const part = parts.find((p) => p.section === item.section);
    const field = WORTH_FIELDS[item.section]?.field;
    if (!part || !field) continue;
    const money = readMoney(item.fields[field], fallbackOf(item.section, field));
    part.items += 1;
    if (money) part.cents += cents(money.value);
  }
  return { total: parts.reduce((sum, p) => sum + p.sign * p.cents, 0), parts };
}

// ---- monthly cash flow ------------------------------------------------------------------------

export type FlowGroup = 'income' | 'fixed' | 'tax' | 'variable';

export interface FlowLine {
  group: FlowGroup;
  /** Storage key the amount comes from (`income:client`, `expenses-fixed`, `expenses-variable`). */
  source: string;
  /** Field name (`mortgage`) or, for a variable expense, its type. */
  name: string;
  money: Money;
}

export interface CashFlow {
  /** Cents per month, by group, and income minus the three kinds of expenses. */
  income: number;
  fixed: number;
  tax: number;
  variable: number;
  net: number;
  /** Non-zero one-time amounts, not part of the monthly figures. */
  oneTime: FlowLine[];
  /** Non-zero amounts at a frequency the app cannot convert to a month (`quarterly` …), not counted. */
  uncounted: FlowLine[];
}

const SINGLE_GROUPS: Readonly<Record<string, FlowGroup>> = {
  income: 'income',
  'expenses-fixed': 'fixed',
  'expenses-tax': 'tax',
};

/** Whether the amounts of a section (its path) are part of the monthly cash flow. */
export const countsInCashFlow = (path: string): boolean =>
  path in SINGLE_GROUPS || path === 'expenses-variable';

/** Every non-zero amount of the cash-flow sections: single records by key, variable expenses as items. */
export function flowLines(
  singles: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  items: readonly ItemLike[],
): FlowLine[] {
  const lines: FlowLine[] = [];
  for (const [key, fields] of Object.entries(singles)) {
    const found = sectionOfKey(key);
    const group = found && SINGLE_GROUPS[found.section.path];
    if (!found || !group) continue;
    for (const [name, spec] of Object.entries(found.section.fields)) {
      if (spec.kind !== 'currency') continue;
      const money = readMoney(fields[name], spec.frequency);
      if (money && money.value !== 0) lines.push({ group, source: key, name, money });
    }
  }
  for (const item of items) {
    if (item.section !== 'expenses-variable') continue;
    const money = readMoney(item.fields.value, fallbackOf('expenses-variable', 'value'));
    const name = typeof item.fields.type === 'string' ? item.fields.type : 'other';
    if (money && money.value !== 0) lines.push({ group: 'variable', source: item.section, name, money });
  }
  return lines;
}

/** What the screens and exports say above the amounts of `CashFlow.uncounted`. */
export const UNCOUNTED_TITLE = 'Not in the monthly figures (the app cannot convert their frequency)';

export function cashFlow(
  singles: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  items: readonly ItemLike[],
): CashFlow {
  const flow: CashFlow = { income: 0, fixed: 0, tax: 0, variable: 0, net: 0, oneTime: [], uncounted: [] };
  for (const line of flowLines(singles, items)) {
    const monthly = monthlyCents(line.money);
    if (monthly !== null) flow[line.group] += monthly;
    else if (isOneTime(line.money)) flow.oneTime.push(line);
    else flow.uncounted.push(line);
  }
  flow.net = flow.income - flow.fixed - flow.tax - flow.variable;
  return flow;
}
