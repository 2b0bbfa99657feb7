// Local ids and server ids of section items inside relation fields. Queued operations keep local
// ids (DESIGN.md §3); they are translated here when a request is built, and back (with the pull's
// own mapping, so both sides store the same thing) when an answer is stored.

import { RELATION_SECTION, fieldsOfKind, sectionOfKey } from '@shared/sections.ts';
import type { AdvisorDb } from '../data/db.ts';
import { itemServerId, localSectionItem } from '../data/mappers.ts';
import type { Fields, SectionItemRow } from '../data/model.ts';

interface ItemRelation {
  type: string;
  id: string;
}

function isItemRelation(value: unknown): value is ItemRelation {
  if (typeof value !== 'object' || value === null) return false;
  const { type, id } = value as Record<string, unknown>;
  return typeof type === 'string' && type in RELATION_SECTION && typeof id === 'string' && id !== '';
}

/** The item relations among some fields of a section item, by field. */
function itemRelations(row: SectionItemRow, fields: Fields): [string, ItemRelation][] {
  const found = sectionOfKey(row.section);
  if (!found) return [];
  return fieldsOfKind(found.section, 'relation')
    .map((field): [string, unknown] => [field, fields[field]])
    .filter((entry): entry is [string, ItemRelation] => isItemRelation(entry[1]));
}

/** Local ids of the items some fields of a section item relate to (for reading them all at once). */
export function relationTargetIds(row: SectionItemRow, fields: Fields): string[] {
  return itemRelations(row, fields).map(([, relation]) => relation.id);
}

/** The first related local item that is not on the server yet, or null when none holds the request back. */
export async function unsentRelation(
  db: AdvisorDb,
  row: SectionItemRow,
  fields: Fields,
): Promise<string | null> {
  for (const [, relation] of itemRelations(row, fields)) {
    const target = await db.sectionItems.get(relation.id);
    if (target && target.serverId === null) return target.id;
  }
  return null;
}

/**
 * Fields with every item relation pointing at the server id of its target; null while a target
 * is not on the server yet (the request waits, as for a parent). An id that names nothing known
 * here is sent as it is: the platform refuses a dangling relation with a message for the user.
 */
export async function relationsToServer(
  db: AdvisorDb,
  row: SectionItemRow,
  fields: Fields,
): Promise<Fields | null> {
  const out: Fields = { ...fields };
  for (const [field, relation] of itemRelations(row, fields)) {
    if (await unsentRelation(db, row, { [field]: relation })) return null;
    const serverId = await itemServerId(db, row.accountId, relation.id);
    out[field] = { type: relation.type, id: serverId ?? relation.id };
  }
  return out;
}

/** A section item the platform answered, in local form (relations to local ids, no `id`), as the pull stores it. */
export function relationsToLocal(db: AdvisorDb, row: SectionItemRow, fields: Fields): Promise<Fields> {
  const found = sectionOfKey(row.section);
  if (!found) return Promise.resolve(fields);
  // The mapping may reserve local ids for targets not pulled yet, in `meta`.
  return db.transaction('rw', [db.sectionItems, db.meta], async () => {
    const local = await localSectionItem(db, row.accountId, found.section, fields);
    return local.fields;
  });
}

/** Whether a server id is already bound to a local record other than `self` (adopting it would merge two records). */
export async function boundElsewhere(
  db: AdvisorDb,
  table: 'accounts' | 'sectionItems',
  serverId: number | string,
  self: string,
): Promise<boolean> {
  const rows = await db.table<{ id: string }>(table).where('serverId').equals(serverId).toArray();
  return rows.some((row) => row.id !== self);
}
