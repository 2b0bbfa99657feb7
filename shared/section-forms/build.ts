// One form schema per financial section, built from the section descriptors (sections.ts) so that
// a form can never offer a field, value or requirement the interface does not know. It adds what
// a screen needs on top: readable labels, the input to use, the relation choices that make sense
// for each field, and the name a validation message gives the field (`current-value`), so that the
// server's messages land on the right input. A contract test compares it with `/define`.

import { countsInCashFlow } from '../finance.ts';
import { FREQUENCIES } from '../wire/v0/values.ts';
import {
  SECTIONS,
  type FieldSpec,
  type Frequency,
  type MemberRole,
  type SectionDescriptor,
} from '../sections.ts';

export type InputKind =
  | 'text'
  | 'textarea'
  | 'email'
  | 'phone'
  | 'integer'
  | 'year'
  | 'number'
  | 'percent'
  | 'date'
  | 'boolean'
  | 'select'
  | 'currency'
  /** Money written as a plain number (not a Currency), in whole units: `unit` says for what period. */
  | 'money'
  | 'relation'
  | 'address'
  | 'target'
  | 'file'
  /** An ISO 3166-1 alpha-2 code, chosen from the countries by name. */
  | 'country'
  /** A US state code, chosen by name where the country (`countryField`) is the US; free text elsewhere. */
  | 'us-state';

export type Unit = '%' | 'years' | 'count' | 'per year';

export interface Option {
  value: string;
  label: string;
}

/** What a relation picker offers: the members and people of the account, or any of its items. */
export type RelationChoice = 'owners' | 'people' | 'items';

export interface FormField {
  /** Field name in the local record (top level of a section item). */
  name: string;
  label: string;
  input: InputKind;
  required: boolean;
  /** Enum values with their labels, in the interface's order. */
  options?: readonly Option[];
  /** Currencies: the frequency the interface assumes when none is given (the document's default). */
  frequency?: Frequency;
  /**
   * Currencies: the frequency a new amount starts at, what an advisor means by an amount of this
   * field (Social Security by the month, a salary by the year, a balance once).
   */
  usualFrequency?: Frequency;
  /**
   * Currencies: how often the amount may come, as the platform defines it (`/define`); the
   * document's three (`FREQUENCY_OPTIONS`) when not given.
   */
  frequencies?: readonly Option[];
  /** Currencies counted in the monthly cash flow (shared/finance.ts): a one-time amount is left out. */
  cashFlow?: boolean;
  /** The unit of a plain number: a rate in `%`, a duration in `years`, money `per year`, a `count`. */
  unit?: Unit;
  relation?: RelationChoice;
  /** How validation messages name the field (`current-value is required.`). */
  messageName: string;
  hint?: string;
  /** `us-state`: the field of the same form holding the country that decides the list. */
  countryField?: string;
  /** The value a new record starts with (a goal is one-time unless said otherwise). */
  initial?: unknown;
}

export interface SectionForm {
  /** Section path (`assets`, `expenses-fixed`, `employment`). */
  path: string;
  entity: string;
  /** Plural title of the section (`Assets`), and the name of one item (`asset`). */
  title: string;
  item: string;
  perMember: boolean;
  single: boolean;
  fields: readonly FormField[];
  /** Fields shown as table columns, in order. */
  columns: readonly string[];
  /** How an item is named in lists, relation pickers and messages. */
  describe: (fields: Readonly<Record<string, unknown>>) => string;
}

// ---- labels ------------------------------------------------------------------------------------

const SECTION_TITLES: Readonly<Record<string, [title: string, item: string]>> = {
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

/** `snake_case` or `kebab-case` in words, first letter upper case. */
export function words(name: string): string {
  const text = name.replace(/[_-]+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The label of a field of a section (`section`: its path), or of a field of that name anywhere. */
export const fieldLabel = (name: string, section?: string): string =>
  (section ? SECTION_FIELD_LABELS[section]?.[name] : undefined) ?? FIELD_LABELS[name] ?? words(name);
export const valueLabel = (value: string): string => VALUE_LABELS[value] ?? words(value);

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

// ---- inputs ------------------------------------------------------------------------------------

/**
 * Fields whose plain type says less than their meaning, by the type they are declared with: a
 * float named `interest` is a rate (cash, liabilities), while income's `interest` is a Currency
 * and stays an amount; `comissions` is an integer of money, the year's bonuses and commissions.
 */
const SPECIAL_INPUTS: Readonly<Record<string, { kind: FieldSpec['kind']; input: InputKind; unit?: Unit }>> = {
  email: { kind: 'string', input: 'email' },
  phone: { kind: 'string', input: 'phone' },
  interest: { kind: 'float', input: 'percent', unit: '%' },
  college_start: { kind: 'integer', input: 'year' },
  college_end: { kind: 'integer', input: 'year' },
  comments: { kind: 'string', input: 'textarea' },
  duration: { kind: 'integer', input: 'integer', unit: 'years' },
  comissions: { kind: 'integer', input: 'money', unit: 'per year' },
};

function specialOf(name: string, spec: FieldSpec) {
  const special = SPECIAL_INPUTS[name];
  return special && special.kind === spec.kind ? special : undefined;
}

function inputOf(name: string, spec: FieldSpec): InputKind {
  const special = specialOf(name, spec);
  if (special) return special.input;
  switch (spec.kind) {
    case 'string':
      return 'text';
    case 'float':
      return 'number';
    case 'enum':
      return 'select';
    default:
      return spec.kind;
  }
}

/** Owners are the members (or both), and the family; beneficiaries and the insured are people; a document relates to anything. */
function relationChoice(section: SectionDescriptor, name: string): RelationChoice {
  if (section.entity === 'Document') return 'items';
  return name === 'owner' ? 'owners' : 'people';
}

/**
 * The frequency a new amount of a section starts at, where it is not the document's: income,
 * premiums, variable expenses, contributions and distributions by the month; taxes by the year
 * (a return, a property tax bill). The rest keep the document's: fixed expenses, a liability's
 * payment and an annuity's contribution monthly, a salary yearly, balances and values once.
 */
const USUAL_FREQUENCIES: Readonly<Record<string, Readonly<Record<string, Frequency>>>> = {
  income: { '*': 'monthly' },
  'expenses-tax': { '*': 'yearly' },
  'expenses-variable': { value: 'monthly' },
  insurance: { premium_value: 'monthly' },
  plans: { contribution_value: 'monthly', employer_contribution_value: 'monthly' },
  annuities: { distribution_value: 'monthly' },
};

function usualFrequency(section: SectionDescriptor, name: string, documented: Frequency): Frequency {
  const usual = USUAL_FREQUENCIES[section.path];
  return usual?.[name] ?? usual?.['*'] ?? documented;
}

function formField(section: SectionDescriptor, name: string, spec: FieldSpec): FormField {
  const field: FormField = {
    name,
    label: fieldLabel(name, section.path),
    input: inputOf(name, spec),
    required: section.required.includes(name),
    // The messages write `current-value` for `current_value`; other names are written as they are.
    messageName: name.endsWith('_value') ? name.replace(/_/g, '-') : name,
  };
  if (spec.kind === 'enum') field.options = spec.values.map((value) => ({ value, label: valueLabel(value) }));
  if (spec.kind === 'currency') {
    field.frequency = spec.frequency;
    field.usualFrequency = usualFrequency(section, name, spec.frequency);
    field.cashFlow = countsInCashFlow(section.path);
  }
  const unit = specialOf(name, spec)?.unit;
  if (unit) field.unit = unit;
  if (section.path === 'income' && name === 'interest') field.hint = 'The amount received, not a rate.';
  if (spec.kind === 'relation') field.relation = relationChoice(section, name);
  // A goal happens once unless the advisor says it repeats: "How often" starts at "One time".
  if (section.entity === 'Goal' && name === 'frequency') {
    field.label = 'How often';
    field.initial = 'one-time';
  }
  return field;
}

/** Required fields first, then the rest in the document's order. */
function ordered(fields: FormField[]): FormField[] {
  return [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)];
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

function describer(section: SectionDescriptor): SectionForm['describe'] {
  if ('first_name' in section.fields)
    return (f) =>
      `${text(f.first_name)} ${text(f.last_name)}`.trim() ||
      `Unnamed ${SECTION_TITLES[section.path]?.[1] ?? 'item'}`;
  const key = ['name', 'employer', 'type'].find((k) => k in section.fields);
  return (f) => {
    if (key === 'type' && typeof f.type === 'string') return valueLabel(f.type);
    const file = f.file as { filename?: unknown } | null | undefined;
    return (
      text(key ? f[key] : undefined) ||
      text(file?.filename) ||
      `Unnamed ${SECTION_TITLES[section.path]?.[1] ?? 'item'}`
    );
  };
}

function columnsOf(section: SectionDescriptor, fields: readonly FormField[]): string[] {
  const names = fields.map((f) => f.name);
  const preferred = [
    'name',
    'first_name',
    'last_name',
    'employer',
    'position',
    'relationship',
    'type',
    'owner',
    'beneficiary',
    'provider',
    'current_value',
    'cost_value',
    'value',
    'salary',
    'coverage_value',
    // A policy's worth today, which its section total sums (shared/finance.ts).
    'cash_value',
    'target',
    'file',
    'relation',
  ].filter((n) => names.includes(n));
  return section.single ? names : preferred.slice(0, 6);
}

function buildForm(section: SectionDescriptor): SectionForm {
  const fields = ordered(
    Object.entries(section.fields).map(([name, spec]) => formField(section, name, spec)),
  );
  const [title, item] = SECTION_TITLES[section.path] ?? [words(section.path), words(section.entity)];
  return {
    path: section.path,
    entity: section.entity,
    title,
    item,
    perMember: section.perMember,
    single: section.single,
    fields,
    columns: columnsOf(section, fields),
    describe: describer(section),
  };
}

export const SECTION_FORMS: readonly SectionForm[] = SECTIONS.map(buildForm);

export function sectionForm(path: string): SectionForm | undefined {
  return SECTION_FORMS.find((f) => f.path === path);
}

/** The form of a storage key (`employment:coclient`), with its member. */
export function formOfKey(key: string): { form: SectionForm; member?: MemberRole } | undefined {
  const [path, member] = key.split(':');
  const form = SECTION_FORMS.find((f) => f.path === path);
  if (!form || form.perMember !== (member !== undefined)) return undefined;
  if (member === undefined) return { form };
  return member === 'client' || member === 'coclient' ? { form, member } : undefined;
}

// ---- validation, as the server words it ------------------------------------------------------

const isBlank = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Whether a composite value carries what the interface requires of it. */
function present(field: FormField, v: unknown): boolean {
  if (isBlank(v)) return false;
  const o = v as Record<string, unknown>;
  switch (field.input) {
    case 'relation':
      return typeof o === 'string' || !isBlank(o.type);
    case 'currency':
      return typeof o === 'number' || (typeof o === 'object' && typeof o.value === 'number');
    case 'file':
      return typeof o === 'object';
    default:
      return true;
  }
}

/**
 * The messages the server would give for these fields, by field name, in its wording
 * (`current-value is required.`), checked as the user types. A goal's target needs both parts.
 */
export function validateSection(
  form: SectionForm,
  fields: Readonly<Record<string, unknown>>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const field of form.fields) {
    if (!field.required) continue;
    const v = fields[field.name];
    if (!present(field, v)) out[field.name] = [`${field.messageName} is required.`];
    else if (field.input === 'target') {
      const t = v as { value?: unknown; date?: unknown };
      const missing = [
        typeof t.value === 'number' ? null : `${field.messageName}.value is required.`,
        isBlank(t.date) ? `${field.messageName}.date is required.` : null,
      ].filter((m): m is string => m !== null);
      if (missing.length) out[field.name] = missing;
    }
  }
  return out;
}

/**
 * The server's field messages (keyed as the messages name fields: `current-value`,
 * `target.value`) moved onto the form's field names; messages naming no field of the form are
 * kept under `''` so that the form can still show them.
 */
export function messagesByField(
  form: SectionForm,
  messages: Readonly<Record<string, readonly string[]>>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, list] of Object.entries(messages)) {
    const root = key.split('.')[0] ?? key;
    const field = form.fields.find((f) => f.messageName === root || f.name === root);
    const name = field?.name ?? '';
    (out[name] ??= []).push(...list);
  }
  return out;
}

// ---- full member details -------------------------------------------------------------------------

/** A field of the full member details, by its flat path (`address.city`, `drivers_license.number`). */
const member = (
  name: string,
  label: string,
  input: InputKind,
  extra: Partial<FormField> = {},
): FormField => ({
  name,
  label,
  input,
  required: false,
  messageName: name,
  ...extra,
});

const options = (...values: string[]): Option[] =>
  values.map((value) => ({ value, label: valueLabel(value) }));

/** The member details' entity, as `/define` names it (0.0.1, "Account Full Member"). */
export const MEMBER_ENTITY = 'FullMember';

/** Groups of the member details form, in the order an advisor asks for them. */
export const MEMBER_FORM: readonly { title: string; fields: readonly FormField[] }[] = [
  {
    title: 'Identity',
    fields: [
      member('first_name', 'First name', 'text', { required: true }),
      member('middle_initial', 'Middle initial', 'text'),
      member('last_name', 'Last name', 'text'),
      member('gender', 'Gender', 'select', { options: options('male', 'female') }),
      member('birth_date', 'Date of birth', 'date'),
      member('marital_status', 'Marital status', 'select', {
        options: options('single', 'married', 'divorced', 'widowed', 'other', 'partner'),
      }),
      member('previous_marriages', 'Previous marriages', 'integer', { unit: 'count' }),
      member('citizenship.country', 'Citizenship', 'country'),
    ],
  },
  {
    title: 'Contact',
    fields: [
      member('email', 'E-mail', 'email', { required: true }),
      member('phone', 'Mobile phone', 'phone', { hint: 'With the country code, e.g. +1 555 010 0199.' }),
      member('home_phone', 'Home phone', 'phone'),
      member('work_phone', 'Work phone', 'phone'),
      member('address.line1', 'Address line 1', 'text'),
      member('address.line2', 'Address line 2', 'text'),
      member('address.city', 'City', 'text'),
      member('address.state', 'State', 'us-state', { countryField: 'address.country' }),
      member('address.zip', 'ZIP code', 'text'),
      member('address.country', 'Country', 'country'),
    ],
  },
  {
    title: 'Driver’s license',
    fields: [
      member('drivers_license.number', 'License number', 'text'),
      member('drivers_license.issue_date', 'Issued', 'date'),
      member('drivers_license.expire_date', 'Expires', 'date'),
      member('drivers_license.jurisdiction.state', 'Issuing state', 'us-state', {
        countryField: 'drivers_license.jurisdiction.country',
      }),
      member('drivers_license.jurisdiction.country', 'Issuing country', 'country'),
      member('drivers_license.document', 'License document', 'file'),
    ],
  },
  {
    title: 'Planning',
    fields: [
      member('risk_score', 'Risk score', 'number'),
      member('comments', 'Comments', 'textarea'),
      member('photo', 'Photo', 'file'),
    ],
  },
];

export const MEMBER_FIELDS: readonly FormField[] = MEMBER_FORM.flatMap((g) => g.fields);

/** The server's rules for full member details, in its wording. */
export function validateMember(fields: Readonly<Record<string, unknown>>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of MEMBER_FIELDS)
    if (f.required && isBlank(fields[f.name])) out[f.name] = [`${f.messageName} is required.`];
  return out;
}

// ---- messages in the advisor's words -------------------------------------------------------------

/** Parts of composite values, named where a message names the part rather than a field. */
const PART_LABELS: Readonly<Record<string, string>> = {
  address: 'Address',
  citizenship: 'Citizenship',
  drivers_license: 'Driver’s license',
  'drivers_license.jurisdiction': 'Issuing state and country',
  'target.value': 'Target amount',
  'target.date': 'Target date',
  body: 'This record',
  client: 'Client',
  coclient: 'Co-client',
};

let knownFields: Map<string, FormField> | null = null;

/** Every field a message may name when its form is not known (the sync panel): members first. */
function anyField(key: string): FormField | undefined {
  if (!knownFields) {
    knownFields = new Map();
    for (const f of [...MEMBER_FIELDS, ...SECTION_FORMS.flatMap((s) => s.fields)])
      for (const k of [f.messageName, f.name]) if (!knownFields.has(k)) knownFields.set(k, f);
  }
  return knownFields.get(key);
}

/** The field a message's key names (`current-value`, `target.date`, `address`), and its label. */
function namedField(key: string, fields?: readonly FormField[]): { field?: FormField; label: string } {
  const exact = fields
    ? fields.find((f) => f.messageName === key || f.name === key)
    : PART_LABELS[key]
      ? undefined
      : anyField(key);
  if (exact) return { field: exact, label: exact.label };
  const root = key.split('.')[0] ?? key;
  const whole = fields?.find((f) => f.messageName === root || f.name === root) ?? anyField(root);
  const part = PART_LABELS[key];
  if (part) return { field: whole, label: part };
  // An account's member field: `coclient.email` is the co-client's e-mail.
  const [who, ...rest] = key.split('.');
  if ((who === 'client' || who === 'coclient') && rest.length) {
    const inner = anyField(rest.join('.'));
    const what = (inner?.label ?? words(rest.join(' '))).toLowerCase();
    return { field: inner, label: `${PART_LABELS[who]} ${what}` };
  }
  return { field: whole, label: words(key.replace(/\./g, ' ')) };
}

/** What the advisor does about a missing value. */
function whatIsMissing(field: FormField | undefined, key: string): string {
  if (key === 'target.value') return 'enter the amount to reach';
  if (key === 'target.date') return 'pick the date to reach it by';
  switch (field?.input) {
    case 'select':
    case 'relation':
    case 'country':
    case 'us-state':
      return 'required, choose one from the list';
    case 'date':
      return 'required, pick a date';
    case 'currency':
    case 'money':
    case 'number':
    case 'integer':
    case 'percent':
    case 'year':
      return 'required, enter an amount';
    case 'target':
      return 'required, enter an amount and a date';
    case 'file':
      return 'required, attach a file';
    default:
      return 'required, fill it in';
  }
}

/** What the advisor does about a value the platform does not accept. */
function whatIsWrong(field: FormField | undefined, key: string): string {
  if (key === 'address' || key.endsWith('jurisdiction'))
    return 'choose the country from the list, and for the US a state from the list';
  switch (field?.input) {
    case 'country':
      return 'choose a country from the list';
    case 'us-state':
      return 'choose a US state from the list';
    case 'date':
      return field.name === 'birth_date' ? 'pick a date in the past' : 'pick a date from the calendar';
    case 'email':
      return 'enter an e-mail address such as name@example.com';
    case 'phone':
      return 'enter the number with its country code, such as +1 555 010 0199';
    case 'integer':
    case 'year':
      return 'enter a whole number';
    case 'number':
    case 'percent':
      return field.name === 'risk_score' ? 'enter a number from 0 to 100' : 'enter a number';
    case 'currency':
    case 'money':
      return 'enter an amount';
    case 'target':
      return 'enter an amount of zero or more and a date';
    case 'select':
      return 'choose one of the values in the list';
    case 'relation':
      return 'choose again from the list (the one chosen may no longer exist)';
    case 'file':
      return 'attach the file again';
    default:
      return 'check the value (it may be too long)';
  }
}

const SERVER_MESSAGE = /^([A-Za-z0-9_.-]+) is (required|invalid)(?::\s*([\s\S]+?))?\.?$/;

/**
 * Version 2's wording (Laravel's): `The client.email field must be a valid email address.`, or
 * without "field" (older versions) when the key cannot be a word: it has a dot or an underscore
 * (`The client.email must be…`; `The one-time payment…` is a sentence).
 */
const V2_FIELD_MESSAGE = /^The (?:([A-Za-z0-9_.-]+) field\b|([a-z0-9]+(?:[._][a-z0-9]+)+)(?= ))\s*([\s\S]*)$/;
/** Version 2's wording of a value outside a list: `The selected type is invalid.` */
const V2_SELECTED = /^The selected ([A-Za-z0-9_.-]+) is invalid\.?$/;
/** Another field named inside a message: a key with a dot or an underscore (`client.email`). */
const KEY_IN_TEXT = /(?<![\w.-])[a-z][a-z0-9]*(?:[._][a-z0-9]+)+(?![\w-])/g;

/** A label inside a sentence: `Client e-mail` → `client e-mail` (an acronym such as `ZIP code` kept). */
const inSentence = (label: string) =>
  /^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;

/**
 * A message of the platform (`citizenship.country is invalid.`) in the advisor's words, with the
 * field's label and what to do (`Citizenship: choose a country from the list.`). What the platform
 * adds after its verdict (`…is invalid: it must come after issue_date.`) is kept, in its words.
 * Version 2's messages name the field by its key (`The client.email field must be a valid email
 * address.`): the label takes its place (`Client e-mail must be a valid email address.`).
 * `fields`: the form the message is about; without it, any form's field of that name is used.
 * Messages of another form are returned as they are.
 */
export function readableMessage(message: string, fields?: readonly FormField[]): string {
  const v2 = V2_FIELD_MESSAGE.exec(message.trim());
  if (v2) {
    const [, named, bare, rest = ''] = v2;
    const key = named ?? bare ?? '';
    const others = rest.replace(KEY_IN_TEXT, (k) => inSentence(namedField(k, fields).label));
    return `${namedField(key, fields).label} ${others}`.trim();
  }
  const selected = V2_SELECTED.exec(message.trim());
  if (selected) {
    const [, key = ''] = selected;
    const { field, label } = namedField(key, fields);
    return `${label}: ${whatIsWrong(field, key)}.`;
  }
  const m = SERVER_MESSAGE.exec(message.trim());
  if (!m) return message;
  const [, key = '', verdict, detail] = m;
  const { field, label } = namedField(key, fields);
  const todo = verdict === 'required' ? whatIsMissing(field, key) : whatIsWrong(field, key);
  return `${label}: ${todo}${detail ? ` (the platform says: ${detail})` : ''}.`;
}

/** Several messages in the advisor's words, each once. */
export function readableMessages(messages: readonly string[], fields?: readonly FormField[]): string[] {
  return [...new Set(messages.map((m) => readableMessage(m, fields)))];
}
