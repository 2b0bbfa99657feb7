// The values the 0.0.1 document (../shared/seeds/001_*) lists for its enumerated fields ("Data
// sections", "Account Full Member"), written by hand from the document and never from the app's
// code: the one copy that the sandbox platform serves, the contract tests expect and the field
// audit holds the app's forms to.

/** An entity's enumerated fields and their values, in the document's order. */
export type EnumeratedFields = Readonly<Record<string, readonly string[]>>;

/** By the document's entity name; a section without enumerated fields is left out. */
export const SECTION_ENUMS: Readonly<Record<string, EnumeratedFields>> = {
  Annuity: {
    type: ['fixed', 'variable', 'indexed', 'pension'],
    distribution_type: ['series-of-distributions', 'lump-sum'],
  },
  Asset: {
    type: ['primary-residence', 'secondary-residence', 'vehicle', 'collectible', 'other'],
  },
  Cash: {
    type: ['cash', 'checking', 'savings', 'money-market', 'cd', 'other'],
  },
  Contact: {
    type: ['accountant', 'attorney', 'broker', 'insurance-agent', 'tax-preparer', 'other'],
  },
  ExpenseVariable: {
    type: [
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
    ],
  },
  FamilyMember: {
    relationship: ['child', 'grandchild', 'other'],
    gender: ['male', 'female'],
    college_type: ['public', 'private'],
  },
  Goal: {
    type: [
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
    ],
    priority: ['low', 'medium', 'high'],
    frequency: ['one-time', 'monthly', 'quarterly', 'annually'],
  },
  Insurance: {
    type: [
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
    ],
  },
  Liability: {
    type: [
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
    ],
  },
  Plan: {
    type: [
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
    ],
  },
};

/** The enumerated fields of the full member details ("Account Full Member"). */
export const FULL_MEMBER_ENUMS = {
  gender: ['male', 'female'],
  marital_status: ['single', 'married', 'divorced', 'widowed', 'other', 'partner'],
} as const satisfies EnumeratedFields;

/** The enumerated fields of `entity` (none: an empty record). */
export const enumsOf = (entity: string): EnumeratedFields => SECTION_ENUMS[entity] ?? {};

/** The values the document gives `entity`'s field `field`; a field it does not list is an error. */
export function documentedValues(entity: string, field: string): readonly string[] {
  const values = enumsOf(entity)[field];
  if (!values) throw new Error(`The 0.0.1 document lists no values for ${entity}.${field}`);
  return values;
}
