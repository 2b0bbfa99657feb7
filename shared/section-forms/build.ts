// One form schema per financial section, built from the section descriptors (sections.ts) so that
// a form can never offer a field, value or requirement the interface does not know. It adds what
// a screen needs on top: readable labels (labels.ts), the input to use, the relation choices that make sense
// for each field, and the name a validation message gives the field (`current-value`), so that the
// server's messages land on the right input. A contract test compares it with `/define`.

import { countsInCashFlow } from '../finance.ts';
import {
  SECTIONS,
  type FieldSpec,
  type Frequency,
  type MemberRole,
  type SectionDescriptor,
} from '../sections.ts';
import type { FormField, InputKind, RelationChoice, SectionForm, Unit } from './form.ts';
import { SECTION_TITLES, fieldLabel, valueLabel, words } from './labels.ts';

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

/**
 * Currencies that are amounts at one point in time, by name: what an item is worth now or was
 * worth when acquired, what a policy pays out or is worth, a taxable account's cost basis (the
 * 0.0.1 document: "cost_value Currency (original value)"). The document's Currency allows a
 * frequency on every field; for these it means nothing, so the form does not offer one.
 */
const BALANCES: Readonly<Record<string, readonly string[]>> = {
  '*': ['current_value', 'original_value', 'coverage_value', 'cash_value'],
  taxable: ['cost_value'],
};

const isBalance = (section: SectionDescriptor, name: string): boolean =>
  (BALANCES['*'] ?? []).includes(name) || (BALANCES[section.path] ?? []).includes(name);

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
  if (spec.kind === 'enum')
    field.options = spec.values.map((value) => ({ value, label: valueLabel(value, section.path) }));
  if (spec.kind === 'currency') {
    field.frequency = spec.frequency;
    field.usualFrequency = usualFrequency(section, name, spec.frequency);
    field.cashFlow = countsInCashFlow(section.path);
    if (isBalance(section, name)) field.balance = true;
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
    if (key === 'type' && typeof f.type === 'string') return valueLabel(f.type, section.path);
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
