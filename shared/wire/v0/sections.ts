// The financial data sections of an account (0.0.1): one item schema per section, made from the
// section's descriptor in shared/sections.ts (which mirrors the document's tables), so the field
// lists exist once. Items are synced records: a value that breaks its documented type is kept as
// received (`kept`) and reported; only the item id is held strictly.

import { z } from 'zod';
import { SECTIONS, type FieldSpec, type SectionDescriptor } from '../../sections.ts';
import { parseArray } from '../lists.ts';
import { kept, parseWire, wireObject, type WireResult } from '../parse.ts';
import { Address, Currency, FileObject, Relation, Target } from './values.ts';

/** Two uuids joined by a vertical bar, assigned by the service: held as text, the form not checked. */
export const ItemId = z.string().min(1);

const BY_KIND: Record<FieldSpec['kind'], z.ZodType> = {
  string: z.string(),
  enum: z.string(),
  integer: z.int(),
  float: z.number(),
  boolean: z.boolean(),
  date: z.string(),
  address: Address,
  file: FileObject,
  target: Target,
  currency: Currency,
  relation: Relation,
};

/** A field's value as the document declares it: null when unset, absent allowed (kept as absent). */
const fieldSchema = (spec: FieldSpec) => kept(BY_KIND[spec.kind].nullish());

/** The fields of a section, read as the document declares them. */
function fieldsShape(section: SectionDescriptor): Record<string, z.ZodType> {
  return Object.fromEntries(Object.entries(section.fields).map(([name, spec]) => [name, fieldSchema(spec)]));
}

/** A section item: the fields of its section by name (unknown ones kept) and its id. */
export type SectionItem = { id: string } & Record<string, unknown>;
/** A single-record section (Expense - Fixed, Expense - Tax, Income). */
export type SingleRecord = Record<string, unknown>;

const items = new Map<string, z.ZodType<SectionItem>>();
const updated = new Map<string, z.ZodType<Partial<SectionItem>>>();
const singles = new Map<string, z.ZodType<SingleRecord>>();
for (const section of SECTIONS) {
  const shape = fieldsShape(section);
  if (section.single) {
    singles.set(section.path, wireObject(section.entity, shape));
  } else {
    items.set(section.path, wireObject(section.entity, { ...shape, id: ItemId }));
    // The answer to an update may omit the id (the document says so).
    updated.set(section.path, wireObject(section.entity, { ...shape, id: ItemId.optional() }));
  }
}

const schemaOf = <T>(map: Map<string, T>, section: SectionDescriptor): T => {
  const schema = map.get(section.path);
  if (!schema) throw new Error(`No schema for the section "${section.path}".`);
  return schema;
};

/** The item schema of a collection section (listed, created, read). */
export const sectionItemSchema = (section: SectionDescriptor): z.ZodType<SectionItem> =>
  schemaOf(items, section);

/** An item as an update answers it: its id may be missing. */
export const updatedItemSchema = (section: SectionDescriptor): z.ZodType<Partial<SectionItem>> =>
  schemaOf(updated, section);

/** The schema of a single-record section. */
export const singleRecordSchema = (section: SectionDescriptor): z.ZodType<SingleRecord> =>
  schemaOf(singles, section);

/** One item of a collection section. */
export const parseSectionItem = (section: SectionDescriptor, body: unknown): WireResult<SectionItem> =>
  parseWire(sectionItemSchema(section), body, `${section.entity} item`);

/** A single-record section. */
export const parseSingleRecord = (section: SectionDescriptor, body: unknown): WireResult<SingleRecord> =>
  parseWire(singleRecordSchema(section), body, section.entity);

/** A collection as GET answers it: an array; items without a valid id are left out (and reported). */
export const parseSectionList = (section: SectionDescriptor, body: unknown): WireResult<SectionItem[]> =>
  parseArray(body, sectionItemSchema(section), section.entity);
