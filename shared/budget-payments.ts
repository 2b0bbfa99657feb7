// The budget and the payments entered elsewhere: the rule the monthly cash flow follows, in the
// overview, the financial summary (PDF) and the household data (XLSX, CSV).
//
// The expense sections are the budget: the net is income less fixed expenses, taxes and variable
// expenses, nothing else. A household also enters payments with its items: a liability's monthly
// payment (`cost_value`, "monthly payment" in the 0.0.1 document), an insurance premium
// (`premium_value`), a contribution to a plan or an annuity (`contribution_value`). Each belongs to
// one line of the fixed expenses (a mortgage to `mortgage`, a term policy to `life_insurance`, a
// 401(k) to `retirement_plan` …). Adding them to the budget would count the same mortgage twice
// where it is entered in both; leaving them out silently hides a car loan entered only as a
// liability. So they are set beside their budget line, and the difference is named: the budget
// is higher (its line holds more, or other payments), lower (payments not in the budget), or the
// same. An employer's contribution to a plan is no payment of the household and is not counted.
//
// An amount the app cannot turn into a month (one-time, or a frequency it does not know) is listed
// apart, as the cash flow lists its own (shared/finance.ts, `monthlyCents`).

import { monthlyCents, readMoney, type Money } from './finance.ts';
import { SECTIONS, type Frequency } from './sections.ts';
import { SECTION_TITLES, fieldLabel } from './section-forms/labels.ts';
import type { ItemLike } from './finance.ts';

/** What the screens and exports say of the rule, once, beside the cash flow. */
export const BUDGET_RULE =
  'The expense sections are the budget: the net is income less fixed expenses, taxes and ' +
  'variable expenses. Payments entered with liabilities, insurance, plans and annuities are ' +
  'not added again: each is set beside its line of the fixed expenses, and any difference is named.';

/** The sections whose items carry a payment, and the field that holds it. */
export const PAYMENT_FIELDS: Readonly<Record<string, string>> = {
  liabilities: 'cost_value',
  insurance: 'premium_value',
  plans: 'contribution_value',
  annuities: 'contribution_value',
};

const LIFE = ['term', 'whole', 'universal', 'variable', 'variable-universal', 'employer-term'];
const INSURANCE_LINES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(LIFE.map((type) => [type, 'life_insurance'])),
  health: 'health_insurance',
  disability: 'disability_insurance',
  'employer-disability': 'disability_insurance',
  'long-term-care': 'long_term_care_insurance',
  homeowner: 'homeowner_insurance',
  auto: 'auto_insurance',
  umbrella: 'umbrella_insurance',
  'eo-malpractice': 'eo_malpractice_insurance',
};

/**
 * The fixed-expense field a payment of an item belongs to, by its section and type: the three
 * kinds of mortgage (`arm`, `fixed`, `int-only`) to `mortgage`, a credit card to `credit_card`,
 * every other debt to `loan`; a policy by its kind, `other_insurance` when none fits; a college
 * plan to `college_plan`, every other plan to `retirement_plan`; an annuity to `annuity`.
 */
export function budgetLineOf(section: string, type: unknown): string | null {
  switch (section) {
    case 'liabilities':
      if (type === 'arm' || type === 'fixed' || type === 'int-only') return 'mortgage';
      return type === 'credit-card' ? 'credit_card' : 'loan';
    case 'insurance':
      return (typeof type === 'string' && INSURANCE_LINES[type]) || 'other_insurance';
    case 'plans':
      return type === 'college' ? 'college_plan' : 'retirement_plan';
    case 'annuities':
      return 'annuity';
    default:
      return null;
  }
}

export interface ItemPayment {
  /** Section path of the item (`liabilities`). */
  section: string;
  /** The item's name as entered ('' when it has none). */
  name: string;
  /** The fixed-expense field it belongs to (`mortgage`). */
  line: string;
  money: Money;
}

export interface BudgetCheck {
  /** The fixed-expense field (`mortgage`). */
  line: string;
  /**
   * Cents per month in the fixed expenses for this line (0 when empty); null when it is entered
   * at a frequency the app cannot convert (the cash flow lists it apart), so nothing is compared.
   */
  budget: number | null;
  /** The payments entered with items for this line, each convertible to a month. */
  payments: ItemPayment[];
  /** Cents per month of those payments. */
  paid: number;
  /** `budget − paid`: above 0 the budget holds more, below 0 payments are not in the budget. */
  difference: number | null;
}

export interface PaymentsBesideBudget {
  /** One per fixed-expense line that has payments entered with items, in the fixed expenses' order. */
  checks: BudgetCheck[];
  /** Cents per month of payments the budget does not hold: the sum of the shortfalls. */
  notInBudget: number;
  /** Payments that are no monthly amount (one-time, or a frequency the app cannot convert). */
  notMonthly: ItemPayment[];
}

const FIXED = SECTIONS.find((s) => s.path === 'expenses-fixed')!;
const FIXED_LINES = Object.keys(FIXED.fields);

function frequencyOf(section: string, field: string): Frequency {
  const spec = SECTIONS.find((s) => s.path === section)?.fields[field];
  return spec?.kind === 'currency' ? spec.frequency : 'one-time';
}

/** Every non-zero payment entered with an item, with the budget line it belongs to. */
export function itemPayments(items: readonly ItemLike[]): ItemPayment[] {
  const out: ItemPayment[] = [];
  for (const item of items) {
    const field = PAYMENT_FIELDS[item.section];
    const line = budgetLineOf(item.section, item.fields.type);
    if (!field || !line) continue;
    const money = readMoney(item.fields[field], frequencyOf(item.section, field));
    if (!money || money.value === 0) continue;
    const name = typeof item.fields.name === 'string' ? item.fields.name.trim() : '';
    out.push({ section: item.section, name, line, money });
  }
  return out;
}

/**
 * The payments entered with `items` set beside the fixed expenses (`fixed`, the record's fields),
 * line by line. Lines without such payments are not listed: the budget alone speaks for them.
 */
export function paymentsBesideBudget(
  fixed: Readonly<Record<string, unknown>>,
  items: readonly ItemLike[],
): PaymentsBesideBudget {
  const byLine = new Map<string, ItemPayment[]>();
  const notMonthly: ItemPayment[] = [];
  for (const payment of itemPayments(items)) {
    if (monthlyCents(payment.money) === null) notMonthly.push(payment);
    else byLine.set(payment.line, [...(byLine.get(payment.line) ?? []), payment]);
  }
  const checks = FIXED_LINES.filter((line) => byLine.has(line)).map((line): BudgetCheck => {
    const payments = byLine.get(line)!;
    const entered = readMoney(fixed[line], 'monthly');
    const budget = entered ? monthlyCents(entered) : 0;
    const paid = payments.reduce((sum, p) => sum + (monthlyCents(p.money) ?? 0), 0);
    return { line, budget, payments, paid, difference: budget === null ? null : budget - paid };
  });
  const notInBudget = checks.reduce((sum, c) => sum + Math.max(0, -(c.difference ?? 0)), 0);
  return { checks, notInBudget, notMonthly };
}

/** A check's difference in words, with `amount` formatting cents: what an advisor reads beside it. */
export function differenceWords(check: BudgetCheck, amount: (cents: number) => string): string {
  if (check.difference === null) return 'Not compared: the budget line is not monthly';
  if (check.difference === 0) return 'Same as the budget';
  if (check.budget === 0) return `Not in the budget: ${amount(check.paid)}`;
  return check.difference > 0
    ? `Budget ${amount(check.difference)} higher`
    : `Budget ${amount(-check.difference)} lower`;
}

/**
 * A check's budget as a table shows it: the amount, "none" for an empty line (nothing budgeted is
 * no figure of $0 the household entered), "not monthly" for one the app cannot convert.
 */
export const budgetShown = (check: BudgetCheck, amount: (cents: number) => string): string =>
  check.budget === null ? 'not monthly' : check.budget === 0 ? 'none' : amount(check.budget);

/** A budget line in the advisor's words ("Mortgage", "Life insurance"). */
export const budgetLineLabel = (line: string): string => fieldLabel(line, 'expenses-fixed');

/** A payment's item in the advisor's words: its name and what it is ("Car loan (liability)"). */
export function paymentLabel(payment: ItemPayment): string {
  return payment.name ? `${payment.name} (${paymentKind(payment)})` : paymentKind(payment, 'many');
}

/** What kind of item a payment is of, in one word ("liability") or, for `many`, its section's title. */
export function paymentKind(payment: Pick<ItemPayment, 'section'>, count: 'one' | 'many' = 'one'): string {
  const [title, one] = SECTION_TITLES[payment.section] ?? [payment.section, payment.section];
  return count === 'one' ? one : title;
}

/** The sections of payments that are not on this computer, by title ("Liabilities and Insurance"). */
export const paymentSectionsIn = (keys: readonly string[]): string[] =>
  Object.keys(PAYMENT_FIELDS)
    .filter((section) => keys.includes(section))
    .map((section) => SECTION_TITLES[section]?.[0] ?? section);
