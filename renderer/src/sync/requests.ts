// How each kind of local record is written to and read from the platform: one descriptor per
// synced table; the financial sections come from their own descriptors (shared/sections.ts).
// Fields given to a descriptor are in SERVER form: item relations already carry server ids
// (ids.ts translates them). Answers are read with the pull's mappers (the schemas of shared/wire/),
// so both sides store the same thing.

import type { ApiRequest, UploadFile } from '@shared/api/request.ts';
import { isPlainObject } from '@shared/is-plain-object.ts';
import {
  sectionOfKey,
  sectionPath,
  type FieldSpec,
  type MemberRole,
  type SectionDescriptor,
} from '@shared/sections.ts';
import { ACCOUNT_FIELDS } from '../data/accounts.ts';
import type { AnyRow } from '../data/changes/index.ts';
import { fileField, isPendingFile } from '../data/files.ts';
import {
  accountSnapshot,
  parseDetailsSnapshot,
  parseItemSnapshot,
  parseSectionItems,
  parseSingleSnapshot,
} from '../data/mappers.ts';
import type { AccountMeta, Fields, SectionItemRow, SingleRow, SyncedTable } from '../data/model.ts';
import { sameValue, unflatten } from '../data/view.ts';

/** What a request needs to know about the record it is built for. */
export interface Target {
  row: AnyRow;
  /** The server id of the record's account (the record's own for an account). */
  account: number | string | null;
}

/** A record as the server answered it: fields in server form (item relations carry server ids). */
export interface Snapshot {
  fields: Fields;
  serverId?: number | string;
  meta?: AccountMeta;
}

export interface TableDescriptor {
  /** Null: records of this table are never created (single records always exist on the server). */
  create(target: Target, fields: Fields): ApiRequest | null;
  update(target: Target, fields: Fields, theirs: Fields): ApiRequest;
  /** Null: records of this table are not deleted through the outbox. */
  remove(target: Target): ApiRequest | null;
  /** Reads the server version; for section items the whole collection, shared by its items in a pass. */
  current(target: Target): ApiRequest;
  /** The record inside the answer of `current`; undefined when the server no longer has it. */
  pick(data: unknown, target: Target): unknown;
  /** An answer of the platform as a snapshot; null when it is not one. */
  snapshot(data: unknown, target: Target): Snapshot | null;
  /** Two values of one field are the same once the platform's normalization is applied. */
  same(target: Target, field: string, a: unknown, b: unknown): boolean;
  /** Fields a create can carry; the others follow as an update once the record exists. */
  createsWith(field: string): boolean;
  /** Whether the fields hold item relations (local ids in the outbox). */
  relations: boolean;
  /** Whether `current` reads a whole collection (shared by the items of one pass) rather than one record. */
  collection: boolean;
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '';
const compact = (fields: Fields) => Object.fromEntries(Object.entries(fields).filter(([, v]) => present(v)));

// ---- Accounts (version 2, flat dotted keys) ----------------------------------------------------

const UPDATE_ONLY = new Set(['archived', 'favorited', 'pipeline.id']);
const COCLIENT_KEYS = ACCOUNT_FIELDS.filter((f) => f.startsWith('coclient.'));

/** The way version 2 stores member fields: trimmed, `+` before the calling code, digits only, upper-case country. */
function accountValue(field: string, value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  const text = value.trim();
  if (text === '') return null;
  if (field.endsWith('phone.code')) return text.startsWith('+') ? text : `+${text}`;
  if (field.endsWith('phone.number')) return text.replace(/[\s\-().]/g, '');
  if (field.endsWith('phone.country')) return text.toUpperCase();
  return text;
}

function accountCreateBody(fields: Fields): Fields {
  const body = compact(Object.fromEntries(Object.entries(fields).filter(([k]) => !UPDATE_ONLY.has(k))));
  // Co-client keys only with a co-client: empty ones would read as "no co-client" anyway.
  if (!COCLIENT_KEYS.some((k) => present(fields[k]))) for (const k of COCLIENT_KEYS) delete body[k];
  return body;
}

/**
 * Version 2 reads a body whose co-client keys are all empty as "remove the co-client". Clearing
 * one co-client field of an account that keeps its co-client must therefore name the co-client:
 * its current email on the server does, without changing anything.
 */
function accountUpdateBody(fields: Fields, theirs: Fields): Fields {
  const body = { ...fields };
  const touchesCoclient = COCLIENT_KEYS.some((k) => k in body);
  const keepsCoclient = COCLIENT_KEYS.some((k) => present(k in body ? body[k] : theirs[k]));
  if (touchesCoclient && keepsCoclient && !COCLIENT_KEYS.some((k) => present(body[k])))
    body['coclient.email'] = theirs['coclient.email'];
  return body;
}

const accounts: TableDescriptor = {
  create: (_target, fields) => ({
    api: 'v2',
    method: 'POST',
    path: '/accounts',
    body: accountCreateBody(fields),
  }),
  update: (target, fields, theirs) => ({
    api: 'v2',
    method: 'POST',
    path: `/accounts/${target.account}`,
    body: accountUpdateBody(fields, theirs),
  }),
  remove: () => null,
  current: (target) => ({ api: 'v2', method: 'GET', path: `/accounts/${target.account}` }),
  pick: (data) => data,
  snapshot: (data) => accountSnapshot(data),
  same: (_target, field, a, b) => sameValue(accountValue(field, a), accountValue(field, b)),
  createsWith: (field) => !UPDATE_ONLY.has(field),
  relations: false,
  collection: false,
};

// ---- Section items and single records (version 0.0.1) ------------------------------------------

/** Where a storage key (`assets`, `employment:client`, `details:coclient`) lives, and its fields. */
interface Place {
  path(account: number | string | null): string;
  spec(field: string): FieldSpec | undefined;
  /** Full member details: flat here (`address.city`), nested on the wire, dates as timestamps. */
  details: boolean;
  /** The financial section it belongs to (its schema reads the answers); null for member details. */
  section: SectionDescriptor | null;
}

function placeOf(key: string): Place {
  const [path, member] = key.split(':');
  if (path === 'details' && (member === 'client' || member === 'coclient'))
    return {
      path: (account) => `/accounts/${account}/${member}/details`,
      spec: () => undefined,
      details: true,
      section: null,
    };
  const found = sectionOfKey(key);
  if (!found) throw new Error(`Unknown section "${key}".`);
  return {
    path: (account) => sectionPath(found.section, Number(account), found.member),
    spec: (field) => found.section.fields[field],
    details: false,
    section: found.section,
  };
}

function currency(value: unknown, frequency: string): unknown {
  if (value === null || value === undefined) return { value: 0, frequency };
  if (typeof value === 'number') return { value, frequency };
  if (!isPlainObject(value)) return value;
  return { value: value.value ?? 0, frequency: value.frequency ?? frequency };
}

function relation(value: unknown): unknown {
  if (typeof value === 'string') return value === '' ? null : { type: value, id: null };
  if (!isPlainObject(value) || typeof value.type !== 'string') return value ?? null;
  return { type: value.type === 'ExenseVariable' ? 'ExpenseVariable' : value.type, id: value.id || null };
}

/**
 * A value as the platform stores it: currencies with their frequency, relations without labels,
 * files by address, empty texts as null; member details answer dates as timestamps.
 */
function storedValue(place: Place, field: string, value: unknown): unknown {
  const spec = place.spec(field);
  if (spec?.kind === 'currency') return currency(value, spec.frequency);
  if (spec?.kind === 'relation') return relation(value);
  if (isPlainObject(value)) {
    if (typeof value.url === 'string') return value.url;
    return Object.fromEntries(Object.entries(compact(value)).map(([k, v]) => [k, storedValue(place, k, v)]));
  }
  if (typeof value !== 'string') return value ?? null;
  if (value === '') return null;
  if (place.details && /^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value} 00:00:00`;
  if (field.endsWith('country')) return value.toUpperCase();
  return value;
}

const sameIn = (key: string, field: string, a: unknown, b: unknown) => {
  if (isPendingFile(a) || isPendingFile(b)) return sameFile(a, b);
  const place = placeOf(key);
  return sameValue(storedValue(place, field, a), storedValue(place, field, b));
};

/**
 * A file chosen here is the platform's file when name and size agree: the File object keeps the
 * original name and gives the size in KB (0.0.1 document), rounded in a way it does not say, so
 * one KB apart is still the same. This is how an uncertain create of a Documents item, which
 * carries its file, finds the item it made.
 */
function sameFile(a: unknown, b: unknown): boolean {
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const size = (v: Record<string, unknown>) => (typeof v.filesize === 'number' ? v.filesize : NaN);
  return a.filename === b.filename && Math.abs(size(a) - size(b)) <= 1;
}

const itemKey = (target: Target) => (target.row as SectionItemRow).section;
const itemSection = (target: Target) => placeOf(itemKey(target)).section!;
const collectionPath = (target: Target) => placeOf(itemKey(target)).path(target.account);
const itemPath = (target: Target) =>
  `${collectionPath(target)}/${encodeURIComponent(String(target.row.serverId))}`;

const sectionItems: TableDescriptor = {
  create: (target, fields) => ({ api: 'v0', method: 'POST', path: collectionPath(target), body: fields }),
  update: (target, fields) => ({ api: 'v0', method: 'PUT', path: itemPath(target), body: fields }),
  remove: (target) => ({ api: 'v0', method: 'DELETE', path: itemPath(target) }),
  current: (target) => ({ api: 'v0', method: 'GET', path: collectionPath(target) }),
  pick: (data, target) => {
    const items = parseSectionItems(itemSection(target), data);
    return items.ok ? items.value.find((item) => item.id === target.row.serverId) : undefined;
  },
  // The answer to an update may omit the id (the document says so): the record keeps its own.
  snapshot: (data, target) => {
    const read = parseItemSnapshot(itemSection(target), data);
    return read.ok ? read.value : null;
  },
  same: (target, field, a, b) => sameIn(itemKey(target), field, a, b),
  createsWith: () => true,
  relations: true,
  collection: true,
};

const singleKey = (target: Target) => (target.row as SingleRow).key;
const singlePath = (target: Target) => placeOf(singleKey(target)).path(target.account);
const isDetails = (target: Target) => placeOf(singleKey(target)).details;

const singles: TableDescriptor = {
  create: () => null,
  // Member details are written with PUT, the financial single records with POST; both merge.
  update: (target, fields) => ({
    api: 'v0',
    method: isDetails(target) ? 'PUT' : 'POST',
    path: singlePath(target),
    body: unflatten(fields),
  }),
  remove: () => null,
  current: (target) => ({ api: 'v0', method: 'GET', path: singlePath(target) }),
  pick: (data) => data,
  snapshot: (data, target) => {
    const place = placeOf(singleKey(target));
    const read = place.section ? parseSingleSnapshot(place.section, data) : parseDetailsSnapshot(data);
    return read.ok ? { fields: read.value } : null;
  },
  same: (target, field, a, b) => sameIn(singleKey(target), field, a, b),
  createsWith: () => true,
  relations: false,
  collection: false,
};

export const DESCRIPTORS: Record<SyncedTable, TableDescriptor> = { accounts, sectionItems, singles };

// ---- Files and the PIN reset (0.0.1) ---------------------------------------------------------

/** Uploads wait longer than other requests on a slow link: two minutes, 20 s more per MB (the bridge allows 600 s). */
export const uploadTimeout = (bytes: number): number =>
  Math.min(600_000, 120_000 + Math.ceil(bytes / 1_000_000) * 20_000);

/** Whether a file is written with its record (a Documents item and its file) rather than at a path of its own. */
export const fileInRecord = (table: SyncedTable, row: AnyRow, field: string): boolean =>
  fileField(table, row, field)?.inRecord === true;

/**
 * Where a file is written: at its own path below its record (`details/photo`,
 * `details/drivers_license/document`, `employment/{id}/document`), PUT with the multipart field
 * `file` to upload and DELETE to remove; a file that is part of its record (Documents) is
 * replaced by a PUT of the item itself with the same multipart field.
 */
function filePath(table: SyncedTable, target: Target, field: string): string {
  if (fileInRecord(table, target.row, field)) return itemPath(target);
  const record = table === 'singles' ? singlePath(target) : itemPath(target);
  return `${record}/${field.split('.').join('/')}`;
}

export function uploadRequest(
  table: SyncedTable,
  target: Target,
  field: string,
  file: Omit<UploadFile, 'field'>,
): ApiRequest {
  return {
    api: 'v0',
    method: 'PUT',
    path: filePath(table, target, field),
    files: [{ ...file, field: 'file' }],
    priority: 'upload',
    timeoutMs: uploadTimeout(file.bytes.length),
  };
}

export function removeFileRequest(table: SyncedTable, target: Target, field: string): ApiRequest {
  return { api: 'v0', method: 'DELETE', path: filePath(table, target, field) };
}

/** A member's security record (0.0.1): read it, or reset its PIN. */
export const securityRequest = (account: number | string | null, member: MemberRole): ApiRequest => ({
  api: 'v0',
  method: 'GET',
  path: `/accounts/${account}/${member}/security`,
});

export const pinResetRequest = (account: number | string | null, member: MemberRole): ApiRequest => ({
  api: 'v0',
  method: 'POST',
  path: `/accounts/${account}/${member}/security/reset`,
});
