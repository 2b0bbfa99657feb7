// Server payloads → local rows. The shapes of both interfaces stop here: a version 2 account
// becomes the flat fields of ACCOUNT_FIELDS plus read-only meta; a 0.0.1 section item keeps its
// top-level fields, with relations pointing at LOCAL ids (DESIGN.md §3).

import { z } from 'zod';
import { isPlainObject } from '@shared/is-plain-object.ts';
import { RELATION_SECTION, fieldsOfKind, type SectionDescriptor } from '@shared/sections.ts';
import { parseListPageWith, type ListPage } from '@shared/wire/lists.ts';
import { parseWire, readWire, type WireResult } from '@shared/wire/parse.ts';
import { Account, type Member } from '@shared/wire/v2/account.ts';
import { MemberDetails } from '@shared/wire/v0/member.ts';
import {
  parseSectionList,
  parseSingleRecord,
  updatedItemSchema,
  type SectionItem,
} from '@shared/wire/v0/sections.ts';
import { RelationObject } from '@shared/wire/v0/values.ts';
import { ACCOUNT_FIELDS, emptyMeta } from './accounts.ts';
import type { AdvisorDb } from './db.ts';
import type { AccountMeta, AccountRow, Fields, SectionItemRow, SingleRow } from './model.ts';
import { flatten } from './view.ts';

/** A new permanent local id. */
export const newLocalId = (): string => crypto.randomUUID();

// ---- accounts (version 2) ------------------------------------------------------------------

export interface AccountSnapshot {
  serverId: number;
  /** Every path of ACCOUNT_FIELDS. */
  fields: Fields;
  meta: AccountMeta;
}

/** Version 2 sends an absent co-client as an object of nulls (or empty texts): it is no member. */
function isMember(member: Member): boolean {
  const given = (v: string | null) => v !== null && v !== '';
  const { phone } = member;
  return (
    member.id !== null ||
    [member.first_name, member.last_name, member.email, phone.code, phone.number, phone.country].some(given)
  );
}

/** A version 2 Account as a snapshot, or the path and problem of the field that makes it none. */
export function parseAccountSnapshot(payload: unknown): WireResult<AccountSnapshot> {
  const read = parseWire(Account, payload, 'account');
  if (!read.ok) return read;
  const account = read.value;
  const { client } = account;
  const coclient = isMember(account.coclient) ? account.coclient : null;
  const member = (role: 'client' | 'coclient', m: Member | null): Fields =>
    flatten(
      { first_name: m?.first_name, last_name: m?.last_name, email: m?.email, phone: m?.phone ?? {} },
      role,
    );
  const flat: Fields = {
    type: account.type,
    ...member('client', client),
    ...member('coclient', coclient),
    archived: account.archived,
    favorited: account.favorited,
  };
  const fields: Fields = {};
  for (const path of ACCOUNT_FIELDS) fields[path] = flat[path] ?? null;
  fields['pipeline.id'] = account.pipeline?.id ?? null;
  const snapshot: AccountSnapshot = {
    serverId: account.id,
    fields,
    meta: {
      ...emptyMeta(),
      clientId: client.id,
      coclientId: coclient ? coclient.id : null,
      clientStatus: client.status,
      coclientStatus: coclient ? coclient.status : null,
      quality: account.quality && {
        score: account.quality.score,
        rules: account.quality.rules.map((r) => ({ message: r.message, valid: r.valid })),
      },
      pipeline: account.pipeline && {
        id: account.pipeline.id,
        icon: account.pipeline.icon,
        title: account.pipeline.title,
        description: account.pipeline.description,
      },
      // '' when the platform gave none: no time, as for a record not on the server yet.
      created_at: account.created_at || null,
      updated_at: account.updated_at || null,
    },
  };
  return { ok: true, value: snapshot, repairs: read.repairs };
}

/** A version 2 Account as a snapshot, or null when the payload is not an account. */
export function accountSnapshot(payload: unknown): AccountSnapshot | null {
  const read = parseAccountSnapshot(payload);
  return read.ok ? read.value : null;
}

/** A page of the version 2 account list as snapshots; accounts without a valid id are left out. */
export const parseAccountPage = (body: unknown): WireResult<ListPage<AccountSnapshot>> =>
  parseListPageWith(body, parseAccountSnapshot, 'Account');

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
  const relation = readWire(RelationObject, value);
  if (!relation) return null;
  const id = (typeof relation.id === 'string' && relation.id) || null;
  return { type: relation.type, id: id !== null && isItemRelation(relation.type) ? localIdOf(id) : id };
}

/** Server ids of the items a section payload's relations point at. */
export function relationTargets(section: SectionDescriptor, item: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const field of fieldsOfKind(section, 'relation')) {
    const relation = readWire(RelationObject, item[field]);
    if (relation && isItemRelation(relation.type) && typeof relation.id === 'string' && relation.id)
      out.push(relation.id);
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

/** Any single record: an object of fields (`singleSnapshot` reads one of a known section). */
const SingleRecord = z.record(z.string(), z.unknown());

/** A single-record section (`expenses-fixed`, `income` …): its fields as returned. */
export function singleFields(payload: unknown): Fields {
  const record = readWire(SingleRecord, payload);
  if (!record) return {};
  const { id: _id, ...fields } = record;
  return fields;
}

/**
 * Full member details, flattened (`address.city`, `drivers_license.jurisdiction.state` …) so that
 * edits, merges and conflicts work field by field; the two File objects stay whole values under
 * `photo` and `drivers_license.document`, since a file changes as a whole. `unflatten` restores
 * the interface's shape.
 */
export function detailsFields(payload: unknown): Fields {
  const details = readWire(MemberDetails, payload);
  if (!details) return {};
  const { photo, drivers_license: license, ...rest } = details;
  const { document, ...licenseRest } = isPlainObject(license) ? license : {};
  return {
    ...flatten(rest),
    photo: photo ?? null,
    ...flatten(licenseRest, 'drivers_license'),
    'drivers_license.document': document ?? null,
  };
}

/** A collection as the pull reads it: its items (each with its server id), or why it is no list. */
export const parseSectionItems = (section: SectionDescriptor, body: unknown): WireResult<SectionItem[]> =>
  parseSectionList(section, body);

/**
 * An item as a create, read or update answers it, in server form (relations with server ids): its
 * server id when the answer gives one (an update's may not), and its fields without the id.
 */
export function parseItemSnapshot(
  section: SectionDescriptor,
  body: unknown,
): WireResult<{ serverId?: string; fields: Fields }> {
  const read = parseWire(updatedItemSchema(section), body, `${section.entity} item`);
  if (!read.ok) return read;
  const { id, ...fields } = read.value;
  return { ok: true, value: id === undefined ? { fields } : { serverId: id, fields }, repairs: read.repairs };
}

/** A single-record section's answer as its fields. */
export function parseSingleSnapshot(section: SectionDescriptor, body: unknown): WireResult<Fields> {
  const read = parseSingleRecord(section, body);
  return read.ok ? { ok: true, value: singleFields(read.value), repairs: read.repairs } : read;
}

/** A member's details as their flat fields (`detailsFields`). */
export function parseDetailsSnapshot(body: unknown): WireResult<Fields> {
  const read = parseWire(MemberDetails, body, 'member details');
  return read.ok ? { ok: true, value: detailsFields(read.value), repairs: read.repairs } : read;
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
  return isPlainObject(value) ? ({ ...value } as Record<string, string>) : {};
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
