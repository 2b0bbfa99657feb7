// What a section edit form is made of (build.ts makes one per financial section): its fields, the
// input each uses, the unit of a plain number and the choices of a relation picker.

import type { Frequency } from '../sections.ts';

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
  /**
   * Currencies that are a balance, an amount at one point in time (a current value, a coverage):
   * the form offers no frequency, and one stored all the same is shown as stored, never as a flow.
   */
  balance?: boolean;
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
