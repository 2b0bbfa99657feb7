// One descriptor per financial section of the 0.0.1 interface. Validation, normalization, the
// relation labels and `/define` all read this table, so they cannot disagree.

import { documentedValues } from '../support/documented-enums.ts';

export type Frequency = 'one-time' | 'monthly' | 'yearly';
export const FREQUENCIES: readonly Frequency[] = ['one-time', 'monthly', 'yearly'];

export type FieldSpec =
  | { kind: 'string' | 'float' | 'integer' | 'date' | 'boolean' | 'address' | 'file' | 'target' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'currency'; frequency: Frequency }
  | { kind: 'relation'; types: readonly string[] };

export interface SectionSpec {
  /** Entity name, as `/define` and relation types know it. */
  entity: string;
  /** Path segment below the account (or below the member for per-member sections). */
  path: string;
  perMember: boolean;
  single: boolean;
  fields: Record<string, FieldSpec>;
  /** Fields named by the `<field> is required.` messages, in the document's order. */
  required: readonly string[];
  /** The field that names an item in relation labels. */
  labelField?: string;
}

/** Relation types of the documents (the Relation type list and the /define owner list together). */
export const RELATION_TYPES = [
  'client',
  'coclient',
  'joint',
  'children',
  'grandchildren',
  'FamilyMember',
  'Employment',
  'Insurance',
  'Plan',
  'Cash',
  'Taxable',
  'Annuity',
  'Asset',
  'Liability',
  'ExpenseVariable',
  'ExenseVariable',
  'Goal',
  'Contact',
  'Document',
  'Note',
] as const;
/** Owner relations take every type the document says `/define` lists for the owner (section 2). */
const OWNERS = RELATION_TYPES;
const PEOPLE = [
  'client',
  'coclient',
  'joint',
  'children',
  'grandchildren',
  'FamilyMember',
  'Contact',
] as const;

const cur = (frequency: Frequency = 'one-time'): FieldSpec => ({ kind: 'currency', frequency });
const en = (...values: string[]): FieldSpec => ({ kind: 'enum', values });
/** The document's `values` with `extra` ones the platform allows beyond it, placed before `before`. */
export function beyondTheDocument(values: readonly string[], before: string, ...extra: string[]): string[] {
  const at = values.indexOf(before);
  return [...values.slice(0, at), ...extra, ...values.slice(at)];
}
/** A field with the values the document lists (test/support/documented-enums.ts). */
const documented = (entity: string, field: string): FieldSpec => en(...documentedValues(entity, field));
const rel = (types: readonly string[]): FieldSpec => ({ kind: 'relation', types });
const S: FieldSpec = { kind: 'string' };
const currencies = (names: string[], frequency: Frequency) =>
  Object.fromEntries(names.map((n) => [n, cur(frequency)])) as Record<string, FieldSpec>;

export const SECTIONS: readonly SectionSpec[] = [
  {
    entity: 'Annuity',
    path: 'annuities',
    perMember: false,
    single: false,
    labelField: 'name',
    fields: {
      name: S,
      owner: rel(OWNERS),
      provider: S,
      primary_beneficiary: rel(PEOPLE),
      secondary_beneficiary: rel(PEOPLE),
      type: documented('Annuity', 'type'),
      contribution_value: cur('monthly'),
      current_value: cur(),
      distribution_type: documented('Annuity', 'distribution_type'),
      distribution_value: cur(),
    },
    required: ['type', 'name', 'owner', 'current_value'],
  },
  {
    entity: 'Asset',
    path: 'assets',
    perMember: false,
    single: false,
    labelField: 'name',
    fields: {
      name: S,
      type: documented('Asset', 'type'),
      owner: rel(OWNERS),
      current_value: cur(),
      original_value: cur(),
    },
    required: ['type', 'name', 'owner', 'current_value'],
  },
  {
    entity: 'Cash',
    path: 'cash',
    perMember: false,
    single: false,
    labelField: 'name',
    fields: {
      name: S,
      type: documented('Cash', 'type'),
      provider: S,
      owner: rel(OWNERS),
      current_value: cur(),
      interest: { kind: 'float' },
      end_date: { kind: 'date' },
    },
    required: ['type', 'name', 'owner', 'current_value'],
  },
  {
    entity: 'Contact',
    path: 'contacts',
    perMember: false,
    single: false,
    labelField: 'last_name',
    fields: {
      type: documented('Contact', 'type'),
      first_name: S,
      last_name: S,
      email: S,
      phone: S,
      company: S,
    },
    required: ['first_name', 'last_name', 'type'],
  },
  {
    entity: 'Document',
    path: 'documents',
    perMember: false,
    single: false,
    fields: { file: { kind: 'file' }, relation: rel(RELATION_TYPES) },
    required: ['file'],
  },
  {
    entity: 'Employment',
    path: 'employment',
    perMember: true,
    single: false,
    labelField: 'employer',
    fields: {
      employer: S,
      position: S,
      duration: { kind: 'integer' },
      address: { kind: 'address' },
      salary: cur('yearly'),
      comissions: { kind: 'integer' },
      document: { kind: 'file' },
    },
    required: ['employer'],
  },
  {
    entity: 'ExpenseFixed',
    path: 'expenses-fixed',
    perMember: false,
    single: true,
    fields: currencies(
      [
        'rent',
        'alimony',
        'child_support',
        'college',
        'other_insurance',
        'life_insurance',
        'health_insurance',
        'disability_insurance',
        'long_term_care_insurance',
        'homeowner_insurance',
        'auto_insurance',
        'umbrella_insurance',
        'eo_malpractice_insurance',
        'college_plan',
        'annuity',
        'retirement_plan',
        'credit_card',
        'mortgage',
        'loan',
        'other',
      ],
      'monthly',
    ),
    required: [],
  },
  {
    entity: 'ExpenseTax',
    path: 'expenses-tax',
    perMember: false,
    single: true,
    fields: currencies(['federal_income', 'state_income', 'fica', 'real_estate', 'other'], 'one-time'),
    required: [],
  },
  {
    entity: 'ExpenseVariable',
    path: 'expenses-variable',
    perMember: false,
    single: false,
    labelField: 'type',
    fields: {
      value: cur(),
      type: documented('ExpenseVariable', 'type'),
    },
    required: ['type', 'value'],
  },
  {
    entity: 'FamilyMember',
    path: 'family',
    perMember: false,
    single: false,
    labelField: 'first_name',
    fields: {
      relationship: documented('FamilyMember', 'relationship'),
      first_name: S,
      middle_initial: S,
      last_name: S,
      gender: documented('FamilyMember', 'gender'),
      birth_date: { kind: 'date' },
      dependent: { kind: 'boolean' },
      email: S,
      phone: S,
      college_type: documented('FamilyMember', 'college_type'),
      college_start: { kind: 'integer' },
      college_end: { kind: 'integer' },
    },
    required: ['first_name', 'last_name', 'relationship'],
  },
  {
    entity: 'Goal',
    path: 'goals',
    perMember: false,
    single: false,
    labelField: 'name',
    fields: {
      type: documented('Goal', 'type'),
      name: S,
      owner: rel(OWNERS),
      beneficiary: rel(PEOPLE),
      priority: documented('Goal', 'priority'),
      frequency: documented('Goal', 'frequency'),
      target: { kind: 'target' },
    },
    required: ['name', 'owner', 'type', 'target'],
  },
  {
    entity: 'Income',
    path: 'income',
    perMember: true,
    single: true,
    fields: {
      ...currencies(
        ['employment', 'self_employment', 'annuities', 'social_security', 'dividends', 'interest', 'other'],
        'one-time',
      ),
      comments: S,
    },
    required: [],
  },
  {
    entity: 'Insurance',
    path: 'insurance',
    perMember: false,
    single: false,
    labelField: 'name',
    fields: {
      type: documented('Insurance', 'type'),
      name: S,
      provider: S,
      owner: rel(OWNERS),
      insured: rel(PEOPLE),
      primary_beneficiary: rel(PEOPLE),
      secondary_beneficiary: rel(PEOPLE),
      premium_value: cur(),
      coverage_value: cur(),
      cash_value: cur(),
    },
    required: ['type', 'name', 'owner'],
  },
  {
    entity: 'Liability',
    path: 'liabilities',
    perMember: false,
    single: false,
    labelField: 'name',
    fields: {
      name: S,
      owner: rel(OWNERS),
      provider: S,
      type: documented('Liability', 'type'),
      start_date: { kind: 'date' },
      end_date: { kind: 'date' },
      interest: { kind: 'float' },
      original_value: cur(),
      current_value: cur(),
      cost_value: cur('monthly'),
    },
    required: ['type', 'name', 'owner', 'current_value'],
  },
  {
    entity: 'Plan',
    path: 'plans',
    perMember: false,
    single: false,
    labelField: 'name',
    fields: {
      name: S,
      // Beyond the document: a type the platform allows and the app's table does not know (a
      // health savings account), so that tests can show such a value offered and kept.
      type: en(...beyondTheDocument(documentedValues('Plan', 'type'), 'other', 'hsa')),
      owner: rel(OWNERS),
      provider: S,
      // The document gives plans' contributions no frequency (only the annuity's is monthly): a
      // plain number is one-time, the Currency default.
      contribution_value: cur(),
      employer_contribution_value: cur(),
      current_value: cur(),
      primary_beneficiary: rel(PEOPLE),
      secondary_beneficiary: rel(PEOPLE),
    },
    required: ['type', 'name', 'owner', 'current_value'],
  },
  {
    entity: 'Taxable',
    path: 'taxable',
    perMember: false,
    single: false,
    labelField: 'name',
    fields: { name: S, provider: S, owner: rel(OWNERS), cost_value: cur(), current_value: cur() },
    required: ['name', 'owner', 'current_value'],
  },
];

export const COLLECTIONS = SECTIONS.filter((s) => !s.single);
export const SINGLES = SECTIONS.filter((s) => s.single);

/** Section holding the items a relation of this type points at (`ExenseVariable` is the document's spelling). */
export const RELATION_SECTION: Record<string, string> = {
  FamilyMember: 'family',
  Employment: 'employment',
  Insurance: 'insurance',
  Plan: 'plans',
  Cash: 'cash',
  Taxable: 'taxable',
  Annuity: 'annuities',
  Asset: 'assets',
  Liability: 'liabilities',
  ExpenseVariable: 'expenses-variable',
  ExenseVariable: 'expenses-variable',
  Goal: 'goals',
  Contact: 'contacts',
  Document: 'documents',
};

/** The name a validation message uses for a field: currency fields are written with a hyphen. */
export function messageName(spec: SectionSpec, field: string): string {
  return spec.fields[field]?.kind === 'currency' ? field.replace(/_/g, '-') : field;
}

export function sectionByPath(path: string): SectionSpec | undefined {
  return SECTIONS.find((s) => s.path === path);
}

export function sectionByEntity(name: string): SectionSpec | undefined {
  const wanted = name.toLowerCase().replace(/[-_\s]/g, '');
  return SECTIONS.find((s) => s.entity.toLowerCase() === wanted || s.path.replace(/-/g, '') === wanted);
}
