// The words a section edit form shows: titles of the sections, labels of fields and of enum
// values where the name alone does not read well (the rest are the name in words), frequencies
// and relation types.

import { FREQUENCIES } from '../wire/v0/values.ts';
import type { Option } from './form.ts';

/** Each section's plural title (`Assets`) and the name of one item (`asset`). */
export const SECTION_TITLES: Readonly<Record<string, [title: string, item: string]>> = {
  annuities: ['Annuities', 'annuity'],
  assets: ['Assets', 'asset'],
  cash: ['Cash', 'cash account'],
  contacts: ['Contacts', 'contact'],
  documents: ['Documents', 'document'],
  employment: ['Employment', 'employment'],
  'expenses-fixed': ['Fixed expenses', 'fixed expenses'],
  'expenses-tax': ['Taxes', 'taxes'],
  'expenses-variable': ['Variable expenses', 'variable expense'],
  family: ['Family', 'family member'],
  goals: ['Goals', 'goal'],
  income: ['Income', 'income'],
  insurance: ['Insurance', 'policy'],
  liabilities: ['Liabilities', 'liability'],
  plans: ['Retirement and college plans', 'plan'],
  taxable: ['Taxable accounts', 'taxable account'],
};

/** Field labels where the name alone does not read well; the rest are the name in words. */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  current_value: 'Current value',
  original_value: 'Original value',
  contribution_value: 'Contribution',
  employer_contribution_value: 'Employer contribution',
  distribution_type: 'Distribution',
  distribution_value: 'Distribution amount',
  primary_beneficiary: 'Primary beneficiary',
  secondary_beneficiary: 'Secondary beneficiary',
  premium_value: 'Premium',
  coverage_value: 'Coverage',
  cash_value: 'Cash value',
  end_date: 'End date',
  start_date: 'Start date',
  birth_date: 'Date of birth',
  middle_initial: 'Middle initial',
  first_name: 'First name',
  last_name: 'Last name',
  college_type: 'College type',
  college_start: 'College start (year)',
  college_end: 'College end (year)',
  duration: 'Years employed',
  comissions: 'Bonuses and commissions',
  salary: 'Salary',
  relation: 'Related to',
  target: 'Target',
  value: 'Amount',
  eo_malpractice_insurance: 'E&O / malpractice insurance',
  long_term_care_insurance: 'Long-term care insurance',
  college_plan: 'College plan',
  retirement_plan: 'Retirement plan',
  credit_card: 'Credit card',
  federal_income: 'Federal income tax',
  state_income: 'State income tax',
  fica: 'FICA',
  real_estate: 'Real estate tax',
  self_employment: 'Self-employment',
  social_security: 'Social Security',
};

/**
 * Labels of fields whose meaning differs by section: `interest` is an amount received in income
 * and a rate in cash and liabilities; `cost_value` is a liability's payment and a taxable
 * account's cost basis.
 */
const SECTION_FIELD_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  cash: { interest: 'Interest rate (%)', end_date: 'Maturity date' },
  liabilities: { interest: 'Interest rate (%)', cost_value: 'Payment' },
  taxable: { cost_value: 'Cost basis' },
  income: { interest: 'Interest' },
};

/** Enum value labels where the value alone does not read well. */
const VALUE_LABELS: Readonly<Record<string, string>> = {
  cd: 'CD',
  '401k': '401(k)',
  roth401k: 'Roth 401(k)',
  '403b': '403(b)',
  '457b': '457(b)',
  ira: 'IRA',
  'roth-ira': 'Roth IRA',
  'simple-ira': 'SIMPLE IRA',
  'sep-ira': 'SEP IRA',
  arm: 'Adjustable-rate mortgage',
  fixed: 'Fixed',
  'int-only': 'Interest-only',
  'credit-line': 'Line of credit',
  'eo-malpractice': 'E&O / malpractice',
  'employer-term': 'Employer term life',
  'employer-disability': 'Employer disability',
  'long-term-care': 'Long-term care',
  term: 'Term life',
  whole: 'Whole life',
  universal: 'Universal life',
  variable: 'Variable',
  'variable-universal': 'Variable universal life',
  'series-of-distributions': 'Series of distributions',
  'lump-sum': 'Lump sum',
  'gas-electric': 'Gas and electric',
  'water-trash': 'Water and trash',
  'cable-internet': 'Cable and internet',
  'phone-mobile': 'Phone and mobile',
  'laundry-dry-cleaning': 'Laundry and dry cleaning',
  'medica-dental': 'Medical and dental',
  'babysitting-day-care': 'Babysitting and day care',
  'gas-oil': 'Gas and oil',
  'repair-maintenance': 'Repairs and maintenance',
  'parking-tolls': 'Parking and tolls',
  'books-subscriptions': 'Books and subscriptions',
  'tax-preparer': 'Tax preparer',
  'insurance-agent': 'Insurance agent',
  'one-time': 'One time',
};

/**
 * Enum value labels where a section gives the value its meaning: the 0.0.1 document's liability
 * types are kinds of loan (`arm`, `fixed` and `int-only` the three kinds of mortgage, named so
 * that "Fixed" is not read as a fixed-rate car loan), while `fixed` is also a kind of annuity.
 */
const SECTION_VALUE_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  liabilities: {
    arm: 'Mortgage, adjustable rate (ARM)',
    fixed: 'Mortgage, fixed rate',
    'int-only': 'Mortgage, interest only',
    auto: 'Auto loan',
    business: 'Business loan',
    'credit-line': 'Line of credit',
    personal: 'Personal loan',
    school: 'Student loan',
    'credit-card': 'Credit card',
  },
};

/** `snake_case` or `kebab-case` in words, first letter upper case. */
export function words(name: string): string {
  const text = name.replace(/[_-]+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The label of a field of a section (`section`: its path), or of a field of that name anywhere. */
export const fieldLabel = (name: string, section?: string): string =>
  (section ? SECTION_FIELD_LABELS[section]?.[name] : undefined) ?? FIELD_LABELS[name] ?? words(name);
/** The label of an enum value, in a section (`section`: its path) where it means something of its own. */
export const valueLabel = (value: string, section?: string): string =>
  (section ? SECTION_VALUE_LABELS[section]?.[value] : undefined) ?? VALUE_LABELS[value] ?? words(value);

/** How often an amount comes, as the document defines a Currency's frequency, in words. */
export const FREQUENCY_OPTIONS: readonly Option[] = FREQUENCIES.map((value) => ({
  value,
  label: valueLabel(value),
}));

/** Labels of relation types, for pickers and summaries. */
export const RELATION_TYPE_LABELS: Readonly<Record<string, string>> = {
  client: 'Client',
  coclient: 'Co-client',
  joint: 'Joint',
  children: 'Children',
  grandchildren: 'Grandchildren',
  FamilyMember: 'Family member',
  Contact: 'Contact',
};
