// The shared value types of the 0.0.1 interface (document 001, "Shared value types"): File,
// Address, Currency, Relation, and the Target of a goal. They are values of synced records
// (sections, member details), so their parts are `kept`: a value that breaks its documented type
// is carried as received and reported (parse.ts).

import { z } from 'zod';
import { kept, oneOf, soft, wireObject } from '../parse.ts';

/** A stored file; its url lies below `{base_url_v0}/files/`, its size in KB. */
export const FileObject = wireObject('File', {
  /** image or document (`FILE_TYPES`). */
  type: kept(z.string()),
  url: z.string(),
  /** MIME type. */
  filetype: kept(z.string()),
  filesize: kept(z.number()),
  /** The original name. */
  filename: kept(z.string()),
});
export type FileObject = z.infer<typeof FileObject>;
export const FILE_TYPES = ['image', 'document'] as const;

/** A File, or null when there is none (or what came is no File: a file needs its url). */
export const maybeFile = soft(FileObject.nullable(), null);

const part = kept(z.string().nullish());

/** All parts optional; `state` a US state code for US states, `country` ISO alpha-2. */
export const Address = wireObject('Address', {
  line1: part,
  line2: part,
  city: part,
  state: part,
  zip: part,
  country: part,
});
export type Address = z.infer<typeof Address>;

export const FREQUENCIES = ['one-time', 'monthly', 'yearly'] as const;

/** The declared shape of a currency field: value (default 0), frequency (optional, default one-time). */
export const CurrencyObject = wireObject('Currency', {
  value: kept(z.number().optional()),
  /** Open (`FREQUENCIES`). */
  frequency: kept(z.string().optional()),
});
export type CurrencyObject = z.infer<typeof CurrencyObject>;
/** A currency field: the declared object, or the plain number the examples show. */
export const Currency = oneOf([CurrencyObject, z.number()]);
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
  /** Optional; null for people (client, joint …). */
  id: kept(z.string().nullish()),
  /** Read-only. */
  label: kept(z.string().nullish()),
});
export type RelationObject = z.infer<typeof RelationObject>;
/** A relation: the declared object, or the plain string (`"client"`) the examples show for owners. */
export const Relation = oneOf([RelationObject, z.string()]);
export type Relation = z.infer<typeof Relation>;

/** The Target of a goal: its fields are not shown beyond the name; the app sends value and date. */
export const Target = wireObject('Target', {
  value: kept(z.number().nullish()),
  date: kept(z.string().nullish()),
});
export type Target = z.infer<typeof Target>;
