// Server payloads → local rows. The shapes of both interfaces stop here: a version 2 account
// becomes the flat fields of ACCOUNT_FIELDS plus read-only meta; a 0.0.1 section item keeps its
// top-level fields, with relations pointing at LOCAL ids (DESIGN.md §3).

import { RELATION_SECTION, fieldsOfKind, type SectionDescriptor } from '../../../shared/sections.ts';
import { ACCOUNT_FIELDS, emptyMeta } from './accounts.ts';
import type { AdvisorDb } from './db.ts';
import type { AccountMeta, AccountRow, Fields, SectionItemRow, SingleRow } from './model.ts';
import { flatten } from './view.ts';

/** A new permanent local id. */
export const newLocalId = (): string => crypto.randomUUID();

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const integer = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

// ---- accounts (version 2) ------------------------------------------------------------------

export interface AccountSnapshot {
  serverId: number;
  /** Every path of ACCOUNT_FIELDS. */
  fields: Fields;
  meta: AccountMeta;
}

const MEMBER_PATHS = ['first_name', 'last_name', 'email', 'phone.code', 'phone.number', 'phone.country'];

/** Version 2 sends an absent co-client as an object of nulls (or empty texts): it is no member. */
function isMember(member: unknown): member is Record<string, unknown> {
  if (!isObject(member)) return false;
  const flat = flatten(member);
  return (
    integer(member.id) !== null ||
    MEMBER_PATHS.some((p) => flat[p] !== null && flat[p] !== undefined && flat[p] !== '')
  );
}

function pipelineOf(v: unknown): AccountMeta['pipeline'] {
  if (!isObject(v) || typeof v.id !== 'string') return null;
  return {
    id: v.id,
    icon: text(v.icon) ?? '',
    title: text(v.title) ?? '',
    description: text(v.description) ?? '',
  };
}

function qualityOf(v: unknown): AccountMeta['quality'] {
  if (!isObject(v) || typeof v.score !== 'number') return null;
  const rules = Array.isArray(v.rules) ? v.rules.filter(isObject) : [];
  return {
    score: v.score,
    rules: rules.map((r) => ({ message: text(r.message) ?? '', valid: r.valid === true })),
  };
}

/** A version 2 Account as a snapshot, or null when the payload is not an account. */
export function accountSnapshot(payload: unknown): AccountSnapshot | null {
  if (!isObject(payload) || integer(payload.id) === null) return null;
  const client = isObject(payload.client) ? payload.client : {};
  const coclient = isMember(payload.coclient) ? payload.coclient : null;
  const flat = flatten({ ...payload, client, coclient: coclient ?? {} });
  const fields: Fields = {};
  for (const path of ACCOUNT_FIELDS) fields[path] = flat[path] ?? null;
  fields['pipeline.id'] = pipelineOf(payload.pipeline)?.id ?? null;
  return {
    serverId: payload.id as number,
    fields,
    meta: {
      ...emptyMeta(),
      clientId: integer(client.id),
      coclientId: coclient ? integer(coclient.id) : null,
      clientStatus: text(client.status),
      coclientStatus: coclient ? text(coclient.status) : null,
      quality: qualityOf(payload.quality),
      pipeline: pipelineOf(payload.pipeline),
      created_at: text(payload.created_at),
      updated_at: text(payload.updated_at),
    },
  };
}

/** A row for an account seen for the first time; `applySnapshots` fills fields and index columns. */
export function newAccountRow(snapshot: AccountSnapshot): AccountRow {
  return {
    id: newLocalId(),
    serverId: snapshot.serverId,
    fields: snapshot.fields,
    server: null,
    status: 'synced',
    changedAt: 0,
    type: 'CLIENT',
    archived: 0,
    favorited: 0,
    pipelineId: '',
    createdAt: '',
    updatedAt: '',
    search: [],
    meta: snapshot.meta,
    availableOffline: 0,
    openedAt: null,
    pulledAt: null,
  };
}

// ---- section items, singles and member details (version 0.0.1) -----------------------------

export interface Relation {
  type: string;
  id: string | null;
}

/** Relation types whose id names an item of a section (the others name people). */
export const isItemRelation = (type: string): boolean => type in RELATION_SECTION;

/**
 * A relation as stored locally: `{type, id}` with the LOCAL id of the item it points at; the
 * label is dropped (it is derived from the item). A plain string (`"client"`) is a relation
 * without id. Ids of relation types without a section (`Note`) are kept as the server gave them.
 */
export function localRelation(value: unknown, localIdOf: (serverItemId: string) => string): Relation | null {
  if (typeof value === 'string') return value === '' ? null : { type: value, id: null };
  if (!isObject(value) || typeof value.type !== 'string') return null;
  const id = text(value.id) || null;
  return { type: value.type, id: id !== null && isItemRelation(value.type) ? localIdOf(id) : id };
}

/** Server ids of the items a section payload's relations point at. */
export function relationTargets(section: SectionDescriptor, item: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const field of fieldsOfKind(section, 'relation')) {
    const v = item[field];
    if (isObject(v) && typeof v.type === 'string' && isItemRelation(v.type) && text(v.id))
      out.push(v.id as string);
  }
  return out;
}

/**
 * The local fields of a section item: every top-level field as the interface returns it (File
 * objects whole), the server `id` left out (it is the row's serverId), relations to local ids.
 */
export function sectionItemFields(
  section: SectionDescriptor,
  item: Record<string, unknown>,
  localIdOf: (serverItemId: string) => string,
): Fields {
  const { id: _id, ...fields } = item;
  for (const field of fieldsOfKind(section, 'relation'))
    if (field in fields) fields[field] = localRelation(fields[field], localIdOf);
  return fields;
}

/** A single-record section (`expenses-fixed`, `income` …): its fields as returned. */
export function singleFields(payload: unknown): Fields {
  if (!isObject(payload)) return {};
  const { id: _id, ...fields } = payload;
  return fields;
}

/**
 * Full member details, flattened (`address.city`, `drivers_license.jurisdiction.state` …) so that
 * edits, merges and conflicts work field by field; the two File objects stay whole values under
 * `photo` and `drivers_license.document`, since a file changes as a whole. `unflatten` restores
 * the interface's shape.
 */
export function detailsFields(payload: unknown): Fields {
  if (!isObject(payload)) return {};
  const { photo, drivers_license: license, ...rest } = payload;
  const { document, ...licenseRest } = isObject(license) ? license : {};
  return {
    ...flatten(rest),
    photo: photo ?? null,
    ...flatten(licenseRest, 'drivers_license'),
    'drivers_license.document': document ?? null,
  };
}

export const singleRowId = (accountId: string, key: string): string => `${accountId}:${key}`;

export function newSingleRow(accountId: string, key: string): SingleRow {
  const id = singleRowId(accountId, key);
  return { id, serverId: id, accountId, key, fields: {}, server: null, status: 'synced', changedAt: 0 };
}

export function newSectionItemRow(
  id: string,
  serverId: string,
  accountId: string,
  section: string,
): SectionItemRow {
  return { id, serverId, accountId, section, fields: {}, server: null, status: 'synced', changedAt: 0 };
}

// ---- local ids of section items ------------------------------------------------------------

/**
 * Where the local ids live that relations point at before their item has arrived: per account,
 * server item id → local id. The item adopts that id when it arrives (see `itemLocalIds`).
 */
export const relationTargetsKey = (accountId: string): string => `relationTargets:${accountId}`;

/**
 * The local id of every given server item id of an account: the row's id when the item is known,
 * else the id reserved earlier, else a new one, reserved at once in `meta`. So a relation to an
 * item that has not arrived yet (or arrives in a later pull) resolves to the id the item will
 * get, whatever the order. Call inside a transaction over `sectionItems` and `meta`, and call
 * `releaseLocalIds` once the arriving items have rows.
 */
export async function itemLocalIds(
  db: AdvisorDb,
  accountId: string,
  serverIds: Iterable<string>,
): Promise<Map<string, string>> {
  const wanted = [...new Set(serverIds)];
  const ids = new Map<string, string>();
  if (wanted.length === 0) return ids;
  const rows = await db.sectionItems.where('serverId').anyOf(wanted).toArray();
  for (const row of rows) if (row.accountId === accountId) ids.set(String(row.serverId), row.id);
  const key = relationTargetsKey(accountId);
  const reserved = await reservedIds(db, accountId);
  const missing = wanted.filter((serverId) => !ids.has(serverId));
  for (const serverId of missing) ids.set(serverId, (reserved[serverId] ??= newLocalId()));
  if (missing.length > 0) await db.meta.put({ key, value: reserved });
  return ids;
}

/** Forgets reserved ids whose items now have rows (the reservation is only needed until then). */
export async function releaseLocalIds(
  db: AdvisorDb,
  accountId: string,
  arrived: Iterable<string>,
): Promise<void> {
  const reserved = await reservedIds(db, accountId);
  const known = [...arrived].filter((serverId) => serverId in reserved);
  for (const serverId of known) delete reserved[serverId];
  if (known.length > 0) await db.meta.put({ key: relationTargetsKey(accountId), value: reserved });
}

/**
 * Section items leaving this machine (deleted, discarded, gone from the server): their server ids
 * stay bound to their local ids as reservations. The platform keeps relations to a deleted item,
 * and those must go on naming the same local id here: a new one would read as a change made on
 * the server (a conflict with any edit of the relation). Call inside a transaction over `meta`.
 */
export async function keepLocalIds(db: AdvisorDb, rows: readonly SectionItemRow[]): Promise<void> {
  const byAccount = new Map<string, SectionItemRow[]>();
  for (const row of rows)
    if (row.serverId !== null) byAccount.set(row.accountId, [...(byAccount.get(row.accountId) ?? []), row]);
  for (const [accountId, items] of byAccount) {
    const reserved = await reservedIds(db, accountId);
    for (const row of items) reserved[String(row.serverId)] = row.id;
    await db.meta.put({ key: relationTargetsKey(accountId), value: reserved });
  }
}

async function reservedIds(db: AdvisorDb, accountId: string): Promise<Record<string, string>> {
  const value = (await db.meta.get(relationTargetsKey(accountId)))?.value;
  return isObject(value) ? ({ ...value } as Record<string, string>) : {};
}

/**
 * One server item in local form, relations resolved through the store (targets not there yet
 * get reserved ids): the same mapping the pull uses, for answers the push receives, so that a
 * base and a fresh server version compare field by field. Inside a transaction over
 * `sectionItems` and `meta`.
 */
export async function localSectionItem(
  db: AdvisorDb,
  accountId: string,
  section: SectionDescriptor,
  item: Record<string, unknown>,
): Promise<{ serverId: string | null; fields: Fields }> {
  const ids = await itemLocalIds(db, accountId, relationTargets(section, item));
  return {
    serverId: typeof item.id === 'string' ? item.id : null,
    fields: sectionItemFields(section, item, (target) => ids.get(target) ?? target),
  };
}

/** The server id of a local item id for requests: its row's, or the server id it was reserved for. */
export async function itemServerId(
  db: AdvisorDb,
  accountId: string,
  localId: string,
): Promise<string | null> {
  const row = await db.sectionItems.get(localId);
  if (row) return row.serverId === null ? null : String(row.serverId);
  const reserved = Object.entries(await reservedIds(db, accountId)).find(([, id]) => id === localId);
  return reserved?.[0] ?? null;
}
