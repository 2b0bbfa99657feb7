// Every field of every section and member form, written by hand from the two API documents
// (../shared/seeds/001_* is the 0.0.1 document, 000_* the version 2 one), never from the code:
// its documented type, the label an advisor reads, its unit and, for amounts, the frequency the
// document gives (`documented`: the interface's default, one-time where the document names none)
// and the one a new amount starts at (`usual`: what an advisor means, monthly for income,
// premiums, expenses, contributions and payments; one-time only for a value held at one moment).
// field-audit.test.ts walks the app's descriptor tables against this list.

import { documentedValues, FULL_MEMBER_ENUMS } from '../../support/documented-enums.ts';

export type Frequency = 'one-time' | 'monthly' | 'yearly';

export type Documented =
  | { type: 'text' }
  /** Free text that may run to several lines (comments). */
  | { type: 'long-text' }
  | { type: 'email' }
  /** A phone number written with its country code. */
  | { type: 'phone' }
  /**
   * A Currency: `{value, frequency}` in the account's currency. `cashFlow`: part of the monthly
   * cash flow (income, fixed, tax and variable expenses), so a one-time amount is said to be left out.
   */
  | { type: 'amount'; documented: Frequency; usual: Frequency; cashFlow: boolean }
  /** Money written as a plain number (declared integer), for a stated period. */
  | { type: 'money'; unit: 'per year' }
  /** A rate, in percent. */
  | { type: 'rate'; unit: '%' }
  | { type: 'whole-number'; unit: 'years' | 'count' }
  /** A calendar year (1998). */
  | { type: 'year' }
  /** A plain number without a unit (a score). */
  | { type: 'number' }
  | { type: 'date' }
  | { type: 'boolean' }
  | { type: 'choice'; values: readonly string[] }
  /** A Relation: a member, both, a person or an item of the account. */
  | { type: 'relation' }
  | { type: 'address' }
  /** A goal's target: an amount and the date to reach it by. */
  | { type: 'target' }
  | { type: 'file' }
  /** ISO 3166-1 alpha-2. */
  | { type: 'country' }
  /** A US state code for US addresses, free text elsewhere. */
  | { type: 'us-state' };

export type Entry = Documented & { field: string; label: string };

export interface DocumentedForm {
  /** Where in the documents the form's fields are described. */
  source: string;
  fields: readonly Entry[];
}

const text = (field: string, label: string): Entry => ({ field, label, type: 'text' });
const choice = (field: string, label: string, ...values: readonly string[]): Entry => ({
  field,
  label,
  type: 'choice',
  values,
});
const relation = (field: string, label: string): Entry => ({ field, label, type: 'relation' });
/** A value held at one moment (a balance, a price, a coverage): no flow, one-time. */
const balance = (field: string, label: string): Entry => ({
  field,
  label,
  type: 'amount',
  documented: 'one-time',
  usual: 'one-time',
  cashFlow: false,
});
const flow = (
  field: string,
  label: string,
  documented: Frequency,
  usual: Frequency,
  cashFlow = false,
): Entry => ({ field, label, type: 'amount', documented, usual, cashFlow });

const SECTIONS_TABLE = '0.0.1 §2 "Data sections"';

/** By section path (`employment` is kept per member; the form is the same for both). */
export const DOCUMENTED_SECTIONS: Readonly<Record<string, DocumentedForm>> = {
  // Annuity: name string; owner Relation; provider string; primary_beneficiary Relation;
  // secondary_beneficiary Relation; type fixed, variable, indexed, pension; contribution_value
  // Currency (monthly); current_value Currency; distribution_type series-of-distributions,
  // lump-sum; distribution_value Currency.
  annuities: {
    source: `${SECTIONS_TABLE}, Annuity`,
    fields: [
      text('name', 'Name'),
      relation('owner', 'Owner'),
      text('provider', 'Provider'),
      relation('primary_beneficiary', 'Primary beneficiary'),
      relation('secondary_beneficiary', 'Secondary beneficiary'),
      choice('type', 'Type', ...documentedValues('Annuity', 'type')),
      flow('contribution_value', 'Contribution', 'monthly', 'monthly'),
      balance('current_value', 'Current value'),
      choice('distribution_type', 'Distribution', ...documentedValues('Annuity', 'distribution_type')),
      // No frequency in the document: a series of distributions is paid out monthly as a rule.
      flow('distribution_value', 'Distribution amount', 'one-time', 'monthly'),
    ],
  },
  // Asset: name string; type primary-residence, secondary-residence, vehicle, collectible, other;
  // owner Relation; current_value Currency; original_value Currency.
  assets: {
    source: `${SECTIONS_TABLE}, Asset`,
    fields: [
      text('name', 'Name'),
      choice('type', 'Type', ...documentedValues('Asset', 'type')),
      relation('owner', 'Owner'),
      balance('current_value', 'Current value'),
      balance('original_value', 'Original value'),
    ],
  },
  // Cash: name string; type cash, checking, savings, money-market, cd, other; provider string;
  // owner Relation; current_value Currency; interest float; end_date string (maturity date).
  cash: {
    source: `${SECTIONS_TABLE}, Cash`,
    fields: [
      text('name', 'Name'),
      choice('type', 'Type', ...documentedValues('Cash', 'type')),
      text('provider', 'Provider'),
      relation('owner', 'Owner'),
      balance('current_value', 'Current value'),
      // A float beside a balance: the account's interest rate.
      { field: 'interest', label: 'Interest rate (%)', type: 'rate', unit: '%' },
      { field: 'end_date', label: 'Maturity date', type: 'date' },
    ],
  },
  // Contact: type accountant, attorney, broker, insurance-agent, tax-preparer, other; first_name;
  // last_name; email; phone; company (strings).
  contacts: {
    source: `${SECTIONS_TABLE}, Contact`,
    fields: [
      choice('type', 'Type', ...documentedValues('Contact', 'type')),
      text('first_name', 'First name'),
      text('last_name', 'Last name'),
      { field: 'email', label: 'Email', type: 'email' },
      { field: 'phone', label: 'Phone', type: 'phone' },
      text('company', 'Company'),
    ],
  },
  // Document: file File; relation Relation.
  documents: {
    source: `${SECTIONS_TABLE}, Document`,
    fields: [{ field: 'file', label: 'File', type: 'file' }, relation('relation', 'Related to')],
  },
  // Employment: employer string; position string; duration integer (years); address Address;
  // salary Currency (annual); comissions integer (annual bonuses and commissions, spelled so);
  // document File.
  employment: {
    source: `${SECTIONS_TABLE}, Employment`,
    fields: [
      text('employer', 'Employer'),
      text('position', 'Position'),
      { field: 'duration', label: 'Years employed', type: 'whole-number', unit: 'years' },
      { field: 'address', label: 'Address', type: 'address' },
      flow('salary', 'Salary', 'yearly', 'yearly'),
      { field: 'comissions', label: 'Bonuses and commissions', type: 'money', unit: 'per year' },
      { field: 'document', label: 'Document', type: 'file' },
    ],
  },
  // Expense - Fixed: Currency fields, all monthly.
  'expenses-fixed': {
    source: `${SECTIONS_TABLE}, Expense - Fixed`,
    fields: [
      flow('rent', 'Rent', 'monthly', 'monthly', true),
      flow('alimony', 'Alimony', 'monthly', 'monthly', true),
      flow('child_support', 'Child support', 'monthly', 'monthly', true),
      flow('college', 'College', 'monthly', 'monthly', true),
      flow('other_insurance', 'Other insurance', 'monthly', 'monthly', true),
      flow('life_insurance', 'Life insurance', 'monthly', 'monthly', true),
      flow('health_insurance', 'Health insurance', 'monthly', 'monthly', true),
      flow('disability_insurance', 'Disability insurance', 'monthly', 'monthly', true),
      flow('long_term_care_insurance', 'Long-term care insurance', 'monthly', 'monthly', true),
      flow('homeowner_insurance', 'Homeowner insurance', 'monthly', 'monthly', true),
      flow('auto_insurance', 'Auto insurance', 'monthly', 'monthly', true),
      flow('umbrella_insurance', 'Umbrella insurance', 'monthly', 'monthly', true),
      flow('eo_malpractice_insurance', 'E&O / malpractice insurance', 'monthly', 'monthly', true),
      flow('college_plan', 'College plan', 'monthly', 'monthly', true),
      flow('annuity', 'Annuity', 'monthly', 'monthly', true),
      flow('retirement_plan', 'Retirement plan', 'monthly', 'monthly', true),
      flow('credit_card', 'Credit card', 'monthly', 'monthly', true),
      flow('mortgage', 'Mortgage', 'monthly', 'monthly', true),
      flow('loan', 'Loan', 'monthly', 'monthly', true),
      flow('other', 'Other', 'monthly', 'monthly', true),
    ],
  },
  // Expense - Tax: Currency fields: federal_income, state_income, fica, real_estate, other. No
  // frequency in the document; taxes are known by the year (a return, a property tax bill).
  'expenses-tax': {
    source: `${SECTIONS_TABLE}, Expense - Tax`,
    fields: [
      flow('federal_income', 'Federal income tax', 'one-time', 'yearly', true),
      flow('state_income', 'State income tax', 'one-time', 'yearly', true),
      flow('fica', 'FICA', 'one-time', 'yearly', true),
      flow('real_estate', 'Real estate tax', 'one-time', 'yearly', true),
      flow('other', 'Other', 'one-time', 'yearly', true),
    ],
  },
  // Expense - Variable: value Currency; type one of groceries … other (31 values).
  'expenses-variable': {
    source: `${SECTIONS_TABLE}, Expense - Variable`,
    fields: [
      flow('value', 'Amount', 'one-time', 'monthly', true),
      choice('type', 'Type', ...documentedValues('ExpenseVariable', 'type')),
    ],
  },
  // Family Member: relationship child, grandchild, other; first_name; middle_initial; last_name;
  // gender male, female; birth_date; dependent boolean; email; phone; college_type public,
  // private; college_start integer (year); college_end integer (year).
  family: {
    source: `${SECTIONS_TABLE}, Family Member`,
    fields: [
      choice('relationship', 'Relationship', ...documentedValues('FamilyMember', 'relationship')),
      text('first_name', 'First name'),
      text('middle_initial', 'Middle initial'),
      text('last_name', 'Last name'),
      choice('gender', 'Gender', ...documentedValues('FamilyMember', 'gender')),
      { field: 'birth_date', label: 'Date of birth', type: 'date' },
      { field: 'dependent', label: 'Dependent', type: 'boolean' },
      { field: 'email', label: 'Email', type: 'email' },
      { field: 'phone', label: 'Phone', type: 'phone' },
      choice('college_type', 'College type', ...documentedValues('FamilyMember', 'college_type')),
      { field: 'college_start', label: 'College start (year)', type: 'year' },
      { field: 'college_end', label: 'College end (year)', type: 'year' },
    ],
  },
  // Goal: type travel … other; name; owner Relation; beneficiary Relation; priority low, medium,
  // high; frequency one-time, monthly, quarterly, annually; target (declared Target).
  goals: {
    source: `${SECTIONS_TABLE}, Goal`,
    fields: [
      choice('type', 'Type', ...documentedValues('Goal', 'type')),
      text('name', 'Name'),
      relation('owner', 'Owner'),
      relation('beneficiary', 'Beneficiary'),
      choice('priority', 'Priority', ...documentedValues('Goal', 'priority')),
      choice('frequency', 'How often', ...documentedValues('Goal', 'frequency')),
      { field: 'target', label: 'Target', type: 'target' },
    ],
  },
  // Income: Currency fields: employment, self_employment, annuities, social_security, dividends,
  // interest, other; comments string. No frequency in the document; income is counted by the
  // month. `interest` here is an amount received (Currency), not a rate.
  income: {
    source: `${SECTIONS_TABLE}, Income`,
    fields: [
      flow('employment', 'Employment', 'one-time', 'monthly', true),
      flow('self_employment', 'Self-employment', 'one-time', 'monthly', true),
      flow('annuities', 'Annuities', 'one-time', 'monthly', true),
      flow('social_security', 'Social Security', 'one-time', 'monthly', true),
      flow('dividends', 'Dividends', 'one-time', 'monthly', true),
      flow('interest', 'Interest', 'one-time', 'monthly', true),
      flow('other', 'Other', 'one-time', 'monthly', true),
      { field: 'comments', label: 'Comments', type: 'long-text' },
    ],
  },
  // Insurance: type term … other; name; provider; owner Relation; insured Relation;
  // primary_beneficiary Relation; secondary_beneficiary Relation; premium_value, coverage_value,
  // cash_value Currency.
  insurance: {
    source: `${SECTIONS_TABLE}, Insurance`,
    fields: [
      choice('type', 'Type', ...documentedValues('Insurance', 'type')),
      text('name', 'Name'),
      text('provider', 'Provider'),
      relation('owner', 'Owner'),
      relation('insured', 'Insured'),
      relation('primary_beneficiary', 'Primary beneficiary'),
      relation('secondary_beneficiary', 'Secondary beneficiary'),
      // A premium is paid by the month unless said otherwise; coverage and cash value are sums held.
      flow('premium_value', 'Premium', 'one-time', 'monthly'),
      balance('coverage_value', 'Coverage'),
      balance('cash_value', 'Cash value'),
    ],
  },
  // Liability: name; owner Relation; provider; type arm … other; start_date, end_date strings;
  // interest float; original_value, current_value Currency; cost_value Currency (monthly payment).
  liabilities: {
    source: `${SECTIONS_TABLE}, Liability`,
    fields: [
      text('name', 'Name'),
      relation('owner', 'Owner'),
      text('provider', 'Provider'),
      choice('type', 'Type', ...documentedValues('Liability', 'type')),
      { field: 'start_date', label: 'Start date', type: 'date' },
      { field: 'end_date', label: 'End date', type: 'date' },
      // A float on a loan: its interest rate.
      { field: 'interest', label: 'Interest rate (%)', type: 'rate', unit: '%' },
      balance('original_value', 'Original value'),
      balance('current_value', 'Current value'),
      flow('cost_value', 'Payment', 'monthly', 'monthly'),
    ],
  },
  // Plan: name; type 401k … other; owner; provider; contribution_value,
  // employer_contribution_value, current_value Currency; primary_beneficiary,
  // secondary_beneficiary Relation. No frequency for the contributions in the document; they
  // come out of each pay, counted by the month.
  plans: {
    source: `${SECTIONS_TABLE}, Plan`,
    fields: [
      text('name', 'Name'),
      choice('type', 'Type', ...documentedValues('Plan', 'type')),
      relation('owner', 'Owner'),
      text('provider', 'Provider'),
      flow('contribution_value', 'Contribution', 'one-time', 'monthly'),
      flow('employer_contribution_value', 'Employer contribution', 'one-time', 'monthly'),
      balance('current_value', 'Current value'),
      relation('primary_beneficiary', 'Primary beneficiary'),
      relation('secondary_beneficiary', 'Secondary beneficiary'),
    ],
  },
  // Taxable: name; provider; owner; cost_value Currency (original value); current_value Currency.
  taxable: {
    source: `${SECTIONS_TABLE}, Taxable`,
    fields: [
      text('name', 'Name'),
      text('provider', 'Provider'),
      relation('owner', 'Owner'),
      // What was paid for the holdings: their cost basis.
      balance('cost_value', 'Cost basis'),
      balance('current_value', 'Current value'),
    ],
  },
};

/**
 * The member details form (0.0.1 §2 "Account Full Member", with Address and Driver's License from
 * "Shared value types"), its composite values by their flat paths.
 */
export const DOCUMENTED_MEMBER: DocumentedForm = {
  source: '0.0.1 §2 "Account Full Member", "Shared value types" (Address, File, Driver\'s License)',
  fields: [
    // first_name, middle_initial, last_name: string
    text('first_name', 'First name'),
    text('middle_initial', 'Middle initial'),
    text('last_name', 'Last name'),
    // gender: male, female
    choice('gender', 'Gender', ...FULL_MEMBER_ENUMS.gender),
    // birth_date: string, timestamp form
    { field: 'birth_date', label: 'Date of birth', type: 'date' },
    // marital_status: single, married, divorced, widowed, other, partner
    choice('marital_status', 'Marital status', ...FULL_MEMBER_ENUMS.marital_status),
    // previous_marriages: integer
    { field: 'previous_marriages', label: 'Previous marriages', type: 'whole-number', unit: 'count' },
    // citizenship: Address, only country is used (ISO alpha-2)
    { field: 'citizenship.country', label: 'Citizenship', type: 'country' },
    // email: unique per account
    { field: 'email', label: 'E-mail', type: 'email' },
    // phone, home_phone, work_phone: include country code (the summary: phone is the mobile)
    { field: 'phone', label: 'Mobile phone', type: 'phone' },
    { field: 'home_phone', label: 'Home phone', type: 'phone' },
    { field: 'work_phone', label: 'Work phone', type: 'phone' },
    // address: Address (line1, line2, city, state: US state code for US states, zip, country ISO alpha-2)
    text('address.line1', 'Address line 1'),
    text('address.line2', 'Address line 2'),
    text('address.city', 'City'),
    { field: 'address.state', label: 'State', type: 'us-state' },
    text('address.zip', 'ZIP code'),
    { field: 'address.country', label: 'Country', type: 'country' },
    // drivers_license: number (string), issue_date, expire_date (timestamp strings), jurisdiction
    // (Address: state, country), document (File)
    text('drivers_license.number', 'License number'),
    { field: 'drivers_license.issue_date', label: 'Issued', type: 'date' },
    { field: 'drivers_license.expire_date', label: 'Expires', type: 'date' },
    { field: 'drivers_license.jurisdiction.state', label: 'Issuing state', type: 'us-state' },
    { field: 'drivers_license.jurisdiction.country', label: 'Issuing country', type: 'country' },
    { field: 'drivers_license.document', label: 'License document', type: 'file' },
    // risk_score: number (declared integer; a fractional value appears in examples)
    { field: 'risk_score', label: 'Risk score', type: 'number' },
    // comments: string
    { field: 'comments', label: 'Comments', type: 'long-text' },
    // photo: File
    { field: 'photo', label: 'Photo', type: 'file' },
  ],
};

/**
 * The members of a version 2 account as the account dialog edits them (v2 §4 "Account create /
 * update body"): client.* and coclient.* take the same keys.
 */
export const DOCUMENTED_ACCOUNT_MEMBER: readonly string[] = [
  'first_name',
  'last_name',
  'email',
  'phone.code',
  'phone.number',
  'phone.country',
];
