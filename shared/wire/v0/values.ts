// The shared value types of the 0.0.1 interface (document 001, "Shared value types"): File,
// Address, Currency, Relation, and the Target of a goal.

import { z } from 'zod';
import { soft, wireObject } from '../parse.ts';
import { count, maybeText, text } from '../values.ts';

/** A stored file; its url lies below `{base_url_v0}/files/`, its size in KB. */
export const FileObject = wireObject('File', {
  /** image or document. */
  type: text,
  url: text,
  /** MIME type. */
  filetype: text,
  filesize: count,
  /** The original name. */
  filename: text,
});
export type FileObject = z.infer<typeof FileObject>;
export const FILE_TYPES = ['image', 'document'] as const;

/** A File, or null when there is none. */
export const maybeFile = soft(FileObject.nullable(), null);

/** All parts optional; `state` a US state code for US states, `country` ISO alpha-2. */
export const Address = wireObject('Address', {
  line1: soft(z.string().nullish(), null),
  line2: soft(z.string().nullish(), null),
  city: soft(z.string().nullish(), null),
  state: soft(z.string().nullish(), null),
  zip: soft(z.string().nullish(), null),
  country: soft(z.string().nullish(), null),
});
export type Address = z.infer<typeof Address>;

export const FREQUENCIES = ['one-time', 'monthly', 'yearly'] as const;

/** The declared shape of a currency field (`frequency` optional, default one-time). */
export const CurrencyObject = wireObject('Currency', {
  value: soft(z.number(), 0),
  frequency: soft(z.string().optional(), undefined),
});
/** A currency field: the declared object, or the plain number the examples show. */
export const Currency = z.union([CurrencyObject, z.number()]).nullable();
export type Currency = z.infer<typeof Currency>;

/** Relation types of the document's list (ExenseVariable spelled so there; ExpenseVariable by /define). */
export const RELATION_TYPES = [
  'client',
  'coclient',
  'joint',
  'FamilyMember',
  'Employment',
  'Insurance',
  'Plan',
  'Cash',
  'Taxable',
  'Annuity',
  'Asset',
  'Liability',
  'ExenseVariable',
  'ExpenseVariable',
  'Goal',
  'Contact',
  'Document',
  'Note',
] as const;

export const RelationObject = wireObject('Relation', {
  /** Open (`RELATION_TYPES`). */
  type: z.string(),
  id: soft(z.string().nullish(), null),
  /** Read-only. */
  label: soft(z.string().nullish(), undefined),
});
/** A relation: the declared object, or the plain string (`"client"`) the examples show for owners. */
export const Relation = z.union([RelationObject, z.string()]).nullable();
export type Relation = z.infer<typeof Relation>;

/** The Target of a goal: its fields are not shown beyond the name; the app sends value and date. */
export const Target = wireObject('Target', {
  value: soft(z.number().nullish(), null),
  date: maybeText,
});
export type Target = z.infer<typeof Target>;
