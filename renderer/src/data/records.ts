// Read-only records of both interfaces (model.ts, "Read-only records"): server payloads → rows, and
// storing what a pull listed. No outbox is involved: the app never changes these records, so a
// pull takes the server's word, writes what changed and removes what the server no longer has.

import type { EntityTable, IDType } from 'dexie';
import type { z } from 'zod';
import { readWire } from '@shared/wire/parse.ts';
import { AccountActivity } from '@shared/wire/v2/activity.ts';
import { ENGAGEMENT_PARTS } from '@shared/wire/v2/engagement-parts.ts';
import { Engagement } from '@shared/wire/v2/engagement.ts';
import { ProfileValue } from '@shared/wire/v2/profile.ts';
import { Form } from '@shared/wire/v0/forms.ts';
import { MemberSecurity } from '@shared/wire/v0/member.ts';
import { Report } from '@shared/wire/v0/reports.ts';
import { UserActivity } from '@shared/wire/v0/user.ts';
import type { AdvisorDb } from './db.ts';
import type {
  AccountActivityRow,
  EngagementPartKind,
  EngagementPartRow,
  EngagementParts,
  EngagementRow,
  FormRow,
  MemberSecurityRow,
  ProfileValueRow,
  RecordRow,
  ReportRow,
  UserActivityRow,
} from './model.ts';
import { sameValue } from './view.ts';

// ---- payloads → rows ---------------------------------------------------------------------------
// Each reads the payload with its resource's schema (shared/wire/) and returns null for one the
// schema refuses (no id a row can be keyed by); the pull skips it. The row's `server` is the record
// as the schema read it: every documented field there, missing or mistyped ones defaulted.

export function memberSecurityRow(
  payload: unknown,
  accountServerId: number,
  member: MemberSecurityRow['member'],
  pulledAt: number,
): MemberSecurityRow | null {
  const read = readWire(MemberSecurity, payload);
  if (!read) return null;
  // Only what is not secret: the PIN (and whatever else the answer may carry) never reaches disk.
  const server = { account_id: read.account_id, type: read.type, status: read.status };
  return {
    id: `${accountServerId}:${member}`,
    accountServerId,
    member,
    status: server.status,
    server,
    pulledAt,
  };
}

export function profileValueRow(
  payload: unknown,
  accountServerId: number,
  pulledAt: number,
): ProfileValueRow | null {
  const server = readWire(ProfileValue, payload);
  if (!server) return null;
  return {
    id: server.id,
    accountServerId,
    memberId: server.member_id,
    datasetId: server.dataset_id,
    server,
    pulledAt,
  };
}

export function accountActivityRow(
  payload: unknown,
  accountServerId: number,
  pulledAt: number,
): AccountActivityRow | null {
  const server = readWire(AccountActivity, payload);
  if (!server) return null;
  return {
    id: server.id,
    accountServerId,
    type: server.type,
    createdAt: server.created_at,
    server,
    pulledAt,
  };
}

/** A new engagement row (`partsPulledAt` null; `storeEngagements` keeps the stored one's). */
export function engagementRow(payload: unknown, pulledAt: number): EngagementRow | null {
  const server = readWire(Engagement, payload);
  if (!server) return null;
  const search = [server.title, server.name].map((v) => v.trim().toLowerCase()).filter((v) => v !== '');
  return {
    id: server.id,
    accountServerId: server.account_id,
    memberId: server.member_id,
    templateId: server.template_id,
    completed: server.status === 'COMPLETED' ? 1 : 0,
    createdAt: server.created_at,
    search: [...new Set(search)],
    server,
    pulledAt,
    partsPulledAt: null,
  };
}

export function engagementPartRow<K extends EngagementPartKind>(
  kind: K,
  payload: unknown,
  engagementId: string,
  position: number,
  pulledAt: number,
): EngagementPartRow<K> | null {
  const server = readWire(ENGAGEMENT_PARTS[kind] as unknown as z.ZodType<EngagementParts[K]>, payload);
  if (!server) return null;
  return {
    id: `${engagementId}:${kind}:${server.id}`,
    engagementId,
    kind,
    serverId: server.id,
    position,
    server,
    pulledAt,
  };
}

/** `accountServerId`: the account whose list it came from (the user's list names it in the form). */
export function formRow(payload: unknown, pulledAt: number, accountServerId?: number): FormRow | null {
  const server = readWire(Form, payload);
  const account = accountServerId ?? server?.account_id ?? null;
  if (!server || account === null) return null;
  return {
    id: `${account}:${server.key}`,
    accountServerId: account,
    key: String(server.key),
    status: server.status,
    createdAt: server.created_at,
    server,
    pulledAt,
  };
}

export function reportRow(payload: unknown, pulledAt: number): ReportRow | null {
  const server = readWire(Report, payload);
  if (!server) return null;
  return {
    id: server.id,
    key: server.key === null ? '' : String(server.key),
    type: server.type,
    server,
    pulledAt,
  };
}

export function userActivityRow(payload: unknown, pulledAt: number): UserActivityRow | null {
  const server = readWire(UserActivity, payload);
  if (!server) return null;
  return { id: server.id, type: server.type, createdAt: server.created_at, server, pulledAt };
}

/** Rows of the payloads a row can be made of, in their order (`make` gets the position). */
export function rowsOf<R>(
  payloads: readonly unknown[],
  make: (payload: unknown, position: number) => R | null,
): R[] {
  return payloads.map(make).filter((row): row is R => row !== null);
}

// ---- storing -----------------------------------------------------------------------------------

type AnyRecordRow = RecordRow<unknown>;
/** Rows of a table selected by an index (Dexie's collection type of the table). */
type Selection<R extends AnyRecordRow> = ReturnType<EntityTable<R, 'id'>['toCollection']>;

export interface StoreOptions<R extends AnyRecordRow> {
  /**
   * The local rows the list speaks for (an account's activity, every report …). Those it no
   * longer has are removed. Leave it out when the list may be incomplete: nothing is removed then.
   */
  scope?: (table: EntityTable<R, 'id'>) => Selection<R>;
  /** For a list read only in part (its newest page): whether it reached a row of the scope. */
  covers?: (row: R) => boolean;
  /** Local columns a fresh row takes over from the stored one. */
  keep?: (fresh: R, held: R) => R;
}

type Key<R extends AnyRecordRow> = IDType<R, 'id'>;

export interface Stored<R extends AnyRecordRow> {
  written: number;
  removed: Key<R>[];
}

/**
 * Stores what a pull listed, in one transaction: rows whose snapshot or index columns changed are
 * written; unchanged rows are left alone (no write, so no needless update reaches the screens);
 * rows of the scope that the list no longer has are removed.
 */
export async function storeRecords<R extends AnyRecordRow>(
  table: EntityTable<R, 'id'>,
  rows: readonly R[],
  options: StoreOptions<R> = {},
): Promise<Stored<R>> {
  return table.db.transaction('rw', table, async () => {
    const { changed, gone } = await storeChanges(table, rows, options);
    await table.bulkPut(changed);
    await table.bulkDelete(gone);
    return { written: changed.length, removed: gone };
  });
}

/**
 * What `storeRecords` would write and remove, read without writing: the sync asks before a list
 * that changes something here may be stored (whether the platform's team is still the store's).
 */
export async function storeChanges<R extends AnyRecordRow>(
  table: EntityTable<R, 'id'>,
  rows: readonly R[],
  options: StoreOptions<R> = {},
): Promise<{ changed: R[]; gone: Key<R>[] }> {
  const held = await table.bulkGet(rows.map((r) => r.id as Key<R>));
  const changed = rows
    .map((fresh, i) => {
      const old = held[i];
      return old && options.keep ? options.keep(fresh, old) : fresh;
    })
    .filter((fresh, i) => {
      const old = held[i];
      return !old || !sameValue({ ...old, pulledAt: 0 }, { ...fresh, pulledAt: 0 });
    });
  if (!options.scope) return { changed, gone: [] };
  const listed = new Set(rows.map((r) => r.id));
  const gone = (await options.scope(table).toArray())
    .filter((row) => !listed.has(row.id) && (options.covers?.(row) ?? true))
    .map((row) => row.id as Key<R>);
  return { changed, gone };
}

/** The tables of an engagement and its parts, for a transaction over both. */
const engagementTables = (db: AdvisorDb) => [db.engagements, db.engagementParts];

/** Engagements with their data, documents, signatures and history. Returns the rows removed. */
export async function removeEngagements(db: AdvisorDb, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return db.transaction('rw', engagementTables(db), async () => {
    const present = (await db.engagements.bulkGet([...ids])).filter((r) => r !== undefined).length;
    const parts = await db.engagementParts.where('engagementId').anyOf(ids).delete();
    await db.engagements.bulkDelete([...ids]);
    return present + parts;
  });
}

/**
 * `storeRecords` for engagements: a listed engagement keeps when its parts were pulled, and one
 * removed takes its parts along. Returns the rows written and the number of rows removed.
 */
export async function storeEngagements(
  db: AdvisorDb,
  rows: readonly EngagementRow[],
  scope?: StoreOptions<EngagementRow>['scope'],
): Promise<{ written: number; removed: number }> {
  return db.transaction('rw', engagementTables(db), async () => {
    const stored = await storeRecords(db.engagements, rows, engagementOptions(scope));
    const parts = await db.engagementParts.where('engagementId').anyOf(stored.removed).delete();
    return { written: stored.written, removed: stored.removed.length + parts };
  });
}

/** How engagements are stored: a listed one keeps when its parts were pulled. */
export function engagementOptions(scope?: StoreOptions<EngagementRow>['scope']): StoreOptions<EngagementRow> {
  return {
    ...(scope ? { scope } : {}),
    keep: (fresh, held) => ({ ...fresh, partsPulledAt: held.partsPulledAt }),
  };
}

/** Tables holding read-only records of one account. */
export const accountRecordTables = (db: AdvisorDb) => [
  db.memberSecurity,
  db.profileValues,
  db.accountActivity,
  db.forms,
  ...engagementTables(db),
];

/** Every read-only record of an account that is gone from the server. Returns the rows removed. */
export async function removeAccountRecords(db: AdvisorDb, accountServerId: number): Promise<number> {
  return db.transaction('rw', accountRecordTables(db), async () => {
    let removed = 0;
    for (const table of [db.memberSecurity, db.profileValues, db.accountActivity, db.forms] as const)
      removed += await table.where('accountServerId').equals(accountServerId).delete();
    const engagements = await db.engagements.where('accountServerId').equals(accountServerId).primaryKeys();
    return removed + (await removeEngagements(db, engagements));
  });
}
