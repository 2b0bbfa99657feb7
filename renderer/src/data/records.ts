// Read-only records of both interfaces (model.ts, "Read-only records"): server payloads → rows, and
// storing what a pull listed. No outbox is involved: the app never changes these records, so a
// pull takes the server's word, writes what changed and removes what the server no longer has.

import type { EntityTable, IDType } from 'dexie';
import type { AdvisorDb } from './db.ts';
import type {
  AccountActivity,
  AccountActivityRow,
  Engagement,
  EngagementPartKind,
  EngagementPartRow,
  EngagementParts,
  EngagementRow,
  Form,
  FormRow,
  MemberSecurity,
  MemberSecurityRow,
  ProfileValue,
  ProfileValueRow,
  RecordRow,
  Report,
  ReportRow,
  UserActivity,
  UserActivityRow,
} from './model.ts';
import { sameValue } from './view.ts';

type Payload = Record<string, unknown>;

const isObject = (v: unknown): v is Payload => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const integer = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
/** An id the interfaces give as text or as an integer. */
const anyId = (v: unknown): string | number | null => (text(v) || null) ?? integer(v);

// ---- payloads → rows ---------------------------------------------------------------------------
// Each returns null for a payload a row cannot be keyed or indexed from; the pull skips it. The
// payload itself is kept whole as the row's `server`.

export function memberSecurityRow(
  payload: unknown,
  accountServerId: number,
  member: MemberSecurityRow['member'],
  pulledAt: number,
): MemberSecurityRow | null {
  if (!isObject(payload)) return null;
  const server = payload as unknown as MemberSecurity;
  return {
    id: `${accountServerId}:${member}`,
    accountServerId,
    member,
    status: text(payload.status) ?? '',
    server,
    pulledAt,
  };
}

export function profileValueRow(
  payload: unknown,
  accountServerId: number,
  pulledAt: number,
): ProfileValueRow | null {
  if (!isObject(payload) || !text(payload.id)) return null;
  return {
    id: payload.id as string,
    accountServerId,
    memberId: integer(payload.member_id),
    datasetId: text(payload.dataset_id) ?? '',
    server: payload as unknown as ProfileValue,
    pulledAt,
  };
}

export function accountActivityRow(
  payload: unknown,
  accountServerId: number,
  pulledAt: number,
): AccountActivityRow | null {
  if (!isObject(payload) || integer(payload.id) === null) return null;
  return {
    id: payload.id as number,
    accountServerId,
    type: text(payload.type) ?? '',
    createdAt: text(payload.created_at) ?? '',
    server: payload as unknown as AccountActivity,
    pulledAt,
  };
}

/** A new engagement row (`partsPulledAt` null; `storeEngagements` keeps the stored one's). */
export function engagementRow(payload: unknown, pulledAt: number): EngagementRow | null {
  if (!isObject(payload) || !text(payload.id) || integer(payload.account_id) === null) return null;
  const search = [payload.title, payload.name]
    .map((v) => (text(v) ?? '').trim().toLowerCase())
    .filter((v) => v !== '');
  return {
    id: payload.id as string,
    accountServerId: payload.account_id as number,
    memberId: integer(payload.member_id),
    templateId: text(payload.template_id) ?? '',
    completed: payload.status === 'COMPLETED' ? 1 : 0,
    createdAt: text(payload.created_at) ?? '',
    search: [...new Set(search)],
    server: payload as unknown as Engagement,
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
  const serverId = isObject(payload) ? anyId(payload.id) : null;
  if (serverId === null) return null;
  return {
    id: `${engagementId}:${kind}:${serverId}`,
    engagementId,
    kind,
    serverId,
    position,
    server: payload as EngagementParts[K],
    pulledAt,
  };
}

/** `accountServerId`: the account whose list it came from (the user's list names it in the form). */
export function formRow(payload: unknown, pulledAt: number, accountServerId?: number): FormRow | null {
  if (!isObject(payload)) return null;
  const account = accountServerId ?? integer(payload.account_id);
  const key = anyId(payload.key);
  if (account === null || key === null) return null;
  return {
    id: `${account}:${key}`,
    accountServerId: account,
    key: String(key),
    status: text(payload.status) ?? '',
    createdAt: text(payload.created_at) ?? '',
    server: payload as unknown as Form,
    pulledAt,
  };
}

export function reportRow(payload: unknown, pulledAt: number): ReportRow | null {
  if (!isObject(payload) || !text(payload.id)) return null;
  const key = anyId(payload.key);
  return {
    id: payload.id as string,
    key: key === null ? '' : String(key),
    type: text(payload.type) ?? '',
    server: payload as unknown as Report,
    pulledAt,
  };
}

export function userActivityRow(payload: unknown, pulledAt: number): UserActivityRow | null {
  if (!isObject(payload) || integer(payload.id) === null) return null;
  return {
    id: payload.id as number,
    type: text(payload.type) ?? '',
    createdAt: text(payload.created_at) ?? '',
    server: payload as unknown as UserActivity,
    pulledAt,
  };
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
    await table.bulkPut(changed);
    if (!options.scope) return { written: changed.length, removed: [] };
    const listed = new Set(rows.map((r) => r.id));
    const gone = (await options.scope(table).toArray())
      .filter((row) => !listed.has(row.id) && (options.covers?.(row) ?? true))
      .map((row) => row.id as Key<R>);
    await table.bulkDelete(gone);
    return { written: changed.length, removed: gone };
  });
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
    const stored = await storeRecords(db.engagements, rows, {
      ...(scope ? { scope } : {}),
      keep: (fresh, held) => ({ ...fresh, partsPulledAt: held.partsPulledAt }),
    });
    const parts = await db.engagementParts.where('engagementId').anyOf(stored.removed).delete();
    return { written: stored.written, removed: stored.removed.length + parts };
  });
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
