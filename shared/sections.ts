// The financial data sections of an account, as the 0.0.1 document describes them (its "Data
// sections" and "Collection sections of an account" tables): one descriptor per section, read by
// the pull, the push and the forms, so that no code needs a switch over section kinds. It mirrors
// the document, not the sandbox platform (which the app never imports).

export type Frequency = 'one-time' | 'monthly' | 'yearly';
export type MemberRole = 'client' | 'coclient';
export const MEMBER_ROLES: readonly MemberRole[] = ['client', 'coclient'];

export type FieldSpec =
  | { kind: 'string' | 'integer' | 'float' | 'boolean' | 'date' | 'address' | 'file' | 'target' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'currency'; frequency: Frequency }
  | { kind: 'relation' };

export interface SectionDescriptor {
  /** Name of the resource in relation types and `/define` (`Asset`, `FamilyMember` …). */
  entity: string;
  /** Path segment below the account, or below `/{client}` for per-member sections. */
  path: string;
  perMember: boolean;
  /** A single record per account (or member) rather than a collection of items. */
  single: boolean;
  fields: Readonly<Record<string, FieldSpec>>;
  /** Fields the validation messages require (`current_value` is written `current-value` there). */
  required: readonly string[];
}

const S: FieldSpec = { kind: 'string' };
const I: FieldSpec = { kind: 'integer' };
const F: FieldSpec = { kind: 'float' };
const D: FieldSpec = { kind: 'date' };
const REL: FieldSpec = { kind: 'relation' };
const FILE: FieldSpec = { kind: 'file' };
const cur = (frequency: Frequency = 'one-time'): FieldSpec => ({ kind: 'currency', frequency });
const en = (...values: string[]): FieldSpec => ({ kind: 'enum', values });
const currencies = (names: readonly string[], frequency: Frequency): Record<string, FieldSpec> =>
  Object.fromEntries(names.map((name) => [name, cur(frequency)]));

const FIXED_EXPENSES = [
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
];
const VARIABLE_EXPENSES = [
  'groceries',
  'supplies',
  'gas-electric',
  'water-trash',
  'cable-internet',
  'phone-mobile',
  'domestic-help',
  'clothing',
  'laundry-dry-cleaning',
  'property-improvements',
  'home-furnishings',
  'pet-expenses',
  'school-expenses',
  'lunch-money',
  'special-events',
  'babysitting-day-care',
  'gas-oil',
  'repair-maintenance',
  'parking-tolls',
  'public-transport',
  'personal-care',
  'medica-dental',
  'gym-membership',
  'eating-out',
  'entertainment',
  'books-subscriptions',
  'hobbies',
  'vacations',
  'gifts',
  'charity',
  'other',
];
const INSURANCE_TYPES = [
  'term',
  'whole',
  'universal',
  'variable',
  'variable-universal',
  'employer-term',
  'health',
  'disability',
  'employer-disability',
  'long-term-care',
  'homeowner',
  'auto',
  'umbrella',
  'eo-malpractice',
  'other',
];
const GOAL_TYPES = [
  'travel',
  'wedding',
  'celebration',
  'college',
  'private-school',
  'business',
  'home',
  'home-improvement',
  'purchase',
  'care',
  'donation',
  'bequest',
  'other',
];

const collection = (
  entity: string,
  path: string,
  fields: Record<string, FieldSpec>,
  required: readonly string[],
  perMember = false,
): SectionDescriptor => ({ entity, path, perMember, single: false, fields, required });
const single = (
  entity: string,
  path: string,
  fields: Record<string, FieldSpec>,
  perMember = false,
): SectionDescriptor => ({ entity, path, perMember, single: true, fields, required: [] });

export const SECTIONS: readonly SectionDescriptor[] = [
  collection(
    'Annuity',
    'annuities',
    {
      name: S,
      owner: REL,
      provider: S,
      primary_beneficiary: REL,
      secondary_beneficiary: REL,
      type: en('fixed', 'variable', 'indexed', 'pension'),
      contribution_value: cur('monthly'),
      current_value: cur(),
      distribution_type: en('series-of-distributions', 'lump-sum'),
      distribution_value: cur(),
    },
    ['type', 'name', 'owner', 'current_value'],
  ),
  collection(
    'Asset',
    'assets',
    {
      name: S,
      type: en('primary-residence', 'secondary-residence', 'vehicle', 'collectible', 'other'),
      owner: REL,
      current_value: cur(),
      original_value: cur(),
    },
    ['type', 'name', 'owner', 'current_value'],
  ),
  collection(
    'Cash',
    'cash',
    {
      name: S,
      type: en('cash', 'checking', 'savings', 'money-market', 'cd', 'other'),
      provider: S,
      owner: REL,
      current_value: cur(),
      interest: F,
      end_date: D,
    },
    ['type', 'name', 'owner', 'current_value'],
  ),
  collection(
    'Contact',
    'contacts',
    {
      type: en('accountant', 'attorney', 'broker', 'insurance-agent', 'tax-preparer', 'other'),
      first_name: S,
      last_name: S,
      email: S,
      phone: S,
      company: S,
    },
    ['first_name', 'last_name', 'type'],
  ),
  collection('Document', 'documents', { file: FILE, relation: REL }, ['file']),
  collection(
    'Employment',
    'employment',
    {
      employer: S,
      position: S,
      duration: I,
      address: { kind: 'address' },
      salary: cur('yearly'),
      comissions: I,
      document: FILE,
    },
    ['employer'],
    true,
  ),
  single('ExpenseFixed', 'expenses-fixed', currencies(FIXED_EXPENSES, 'monthly')),
  single(
    'ExpenseTax',
    'expenses-tax',
    currencies(['federal_income', 'state_income', 'fica', 'real_estate', 'other'], 'one-time'),
  ),
  collection('ExpenseVariable', 'expenses-variable', { value: cur(), type: en(...VARIABLE_EXPENSES) }, [
    'type',
    'value',
  ]),
  collection(
    'FamilyMember',
    'family',
    {
      relationship: en('child', 'grandchild', 'other'),
      first_name: S,
      middle_initial: S,
      last_name: S,
      gender: en('male', 'female'),
      birth_date: D,
      dependent: { kind: 'boolean' },
      email: S,
      phone: S,
      college_type: en('public', 'private'),
      college_start: I,
      college_end: I,
    },
    ['first_name', 'last_name', 'relationship'],
  ),
  collection(
    'Goal',
    'goals',
    {
      type: en(...GOAL_TYPES),
      name: S,
      owner: REL,
      beneficiary: REL,
      priority: en('low', 'medium', 'high'),
      frequency: en('one-time', 'monthly', 'quarterly', 'annually'),
      target: { kind: 'target' },
    },
    ['name', 'owner', 'type', 'target'],
  ),
  single(
    'Income',
    'income',
    {
      ...currencies(
        ['employment', 'self_employment', 'annuities', 'social_security', 'dividends', 'interest', 'other'],
        'one-time',
      ),
      comments: S,
    },
    true,
  ),
  collection(
    'Insurance',
    'insurance',
    {
      type: en(...INSURANCE_TYPES),
      name: S,
      provider: S,
      owner: REL,
      insured: REL,
      primary_beneficiary: REL,
      secondary_beneficiary: REL,
      premium_value: cur(),
      coverage_value: cur(),
      cash_value: cur(),
    },
    ['type', 'name', 'owner'],
  ),
  collection(
    'Liability',
    'liabilities',
    {
      name: S,
      owner: REL,
      provider: S,
      type: en(
        'arm',
        'fixed',
        'int-only',
        'auto',
        'business',
        'credit-line',
        'personal',
        'school',
        'credit-card',
        'other',
      ),
      start_date: D,
      end_date: D,
      interest: F,
      original_value: cur(),
      current_value: cur(),
      cost_value: cur('monthly'),
    },
    ['type', 'name', 'owner', 'current_value'],
  ),
  collection(
    'Plan',
    'plans',
    {
      name: S,
      type: en(
        '401k',
        'roth401k',
        '403b',
        '457b',
        'ira',
        'roth-ira',
        'simple-ira',
        'sep-ira',
        'college',
        'other',
      ),
      owner: REL,
      provider: S,
      // The document gives the plan's contributions no frequency (only the annuity's is monthly).
      contribution_value: cur(),
      employer_contribution_value: cur(),
      current_value: cur(),
      primary_beneficiary: REL,
      secondary_beneficiary: REL,
    },
    ['type', 'name', 'owner', 'current_value'],
  ),
  collection(
    'Taxable',
    'taxable',
    { name: S, provider: S, owner: REL, cost_value: cur(), current_value: cur() },
    ['name', 'owner', 'current_value'],
  ),
];

export const COLLECTION_SECTIONS = SECTIONS.filter((s) => !s.single);
export const SINGLE_SECTIONS = SECTIONS.filter((s) => s.single);

/** Relation types that point at an item of a section (the rest name people: client, joint, children …). */
export const RELATION_SECTION: Readonly<Record<string, string>> = {
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
  // The document's relation list spells it so.
  ExenseVariable: 'expenses-variable',
  Goal: 'goals',
  Contact: 'contacts',
  Document: 'documents',
};

/** Where a section's record(s) are stored locally: the path, with the member for per-member sections. */
export function sectionKey(section: SectionDescriptor, member?: MemberRole): string {
  return section.perMember ? `${section.path}:${member ?? 'client'}` : section.path;
}

/** The 0.0.1 path of a section of an account (collection or single record). */
export function sectionPath(
  section: SectionDescriptor,
  accountServerId: number,
  member?: MemberRole,
): string {
  return section.perMember
    ? `/accounts/${accountServerId}/${member ?? 'client'}/${section.path}`
    : `/accounts/${accountServerId}/${section.path}`;
}

/** Descriptor and member of a storage key (`employment:coclient` → Employment, coclient). */
export function sectionOfKey(key: string): { section: SectionDescriptor; member?: MemberRole } | undefined {
  const [path, member] = key.split(':');
  const section = SECTIONS.find((s) => s.path === path);
  if (!section || section.perMember !== (member !== undefined)) return undefined;
  if (member !== undefined && member !== 'client' && member !== 'coclient') return undefined;
  return member ? { section, member } : { section };
}

/** The field names of a section that hold relations, and those that hold File objects. */
export function fieldsOfKind(section: SectionDescriptor, kind: FieldSpec['kind']): string[] {
  return Object.entries(section.fields)
    .filter(([, spec]) => spec.kind === kind)
    .map(([name]) => name);
}
