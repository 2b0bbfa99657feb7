// What the screens read from the local store, served by the indexes of db.ts: account search,
// filters, every sort key of the version 2 account list, paging; an account's section items and
// single-record sections.
//
// How each account sort is served:
// - `created_at` and `updated_at` walk an index in order and page on it (`[archived+createdAt]`,
//   `[archived+updatedAt]` for the default and archived filters, `createdAt` / `updatedAt` for
//   all), reading only the rows of the page. Equal timestamps follow the local id there.
// - Every other key (names, emails, type, quality, pipeline, favorited, archived), and any key
//   combined with a search, a pipeline or the client / prospect / favorite filters, has no index
//   in that order: the rows the filter's index selects are read and sorted in memory with the
//   platform's rules (empty values last in both directions, case-insensitive text, ties in the
//   order the records were made, in the direction of the key).

import Dexie from 'dexie';
import type { AdvisorDb } from './db.ts';
import { singleRowId } from './mappers.ts';
import type { AccountRow, Operation, SectionItemRow, SingleRow, SyncedTable } from './model.ts';

/** Configuration pulled into `meta` (by `PullEngine.pullConfig`), each `{ pulledAt, data }`. */
export const CONFIG_KEYS = {
  icons: 'config.icons',
  activities: 'config.activities',
  dataset: 'config.dataset',
  /** The user resource: permissions, teams, pipelines, template summaries. */
  user: 'config.user',
  /** Template structures by template id. */
  templates: 'config.templates',
} as const;

export interface ConfigEntry<T = unknown> {
  pulledAt: number;
  data: T;
}

/** A piece of configuration as last pulled, or undefined before the first pull. */
export async function configEntry<T = unknown>(
  db: AdvisorDb,
  key: (typeof CONFIG_KEYS)[keyof typeof CONFIG_KEYS],
): Promise<ConfigEntry<T> | undefined> {
  return (await db.meta.get(key))?.value as ConfigEntry<T> | undefined;
}

/** The filters of the version 2 list (`type`); without one, archived accounts are left out. */
export type AccountFilter = 'client' | 'prospect' | 'favorite' | 'archived' | 'all';

export const ACCOUNT_SORT_KEYS = [
  'type',
  'quality',
  'pipeline',
  'favorited',
  'archived',
  'created_at',
  'updated_at',
  'client.first_name',
  'client.last_name',
  'client.email',
  'coclient.first_name',
  'coclient.last_name',
  'coclient.email',
] as const;
export type AccountSortKey = (typeof ACCOUNT_SORT_KEYS)[number];
/** A sort key, `-` in front for descending (as the interface writes it). */
export type AccountSort = AccountSortKey | `-${AccountSortKey}`;

export interface AccountQuery {
  /** Prefix of a client's or co-client's first name, last name or email, any case. */
  search?: string;
  filter?: AccountFilter;
  /** A pipeline stage id. */
  pipeline?: string;
  /** Default `-created_at`, as the interface. */
  sort?: AccountSort;
  offset?: number;
  /** Default 50, as the interface. */
  limit?: number;
}

export interface AccountPage {
  items: AccountRow[];
  total: number;
}

type SortValue = string | number | null;
/** A selection of account rows (Dexie's collection type of the table). */
type Rows = ReturnType<AdvisorDb['accounts']['toCollection']>;

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The value an account sorts by, for each key; `stage` gives a pipeline stage's position. */
function sortValue(row: AccountRow, key: AccountSortKey, stage: (id: string) => number | null): SortValue {
  switch (key) {
    case 'type':
      return row.type;
    case 'quality':
      return row.meta.quality?.score ?? null;
    case 'pipeline':
      return stage(row.pipelineId);
    case 'favorited':
      return row.favorited;
    case 'archived':
      return row.archived;
    case 'created_at':
      return row.createdAt;
    case 'updated_at':
      return row.updatedAt;
    default:
      return text(row.fields[key]);
  }
}

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'string' && typeof b === 'string')
    return a.localeCompare(b, 'en', { sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0);
  return a! < b! ? -1 : a! > b! ? 1 : 0;
}

/** The order records were made in, as the platform breaks ties: by server id; records not on the server yet come last. */
function madeOrder(a: AccountRow, b: AccountRow): number {
  const sa = typeof a.serverId === 'number' ? a.serverId : Infinity;
  const sb = typeof b.serverId === 'number' ? b.serverId : Infinity;
  if (sa !== sb) return sa < sb ? -1 : 1;
  return a.changedAt - b.changedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The platform's sort: empty values last in both directions; ties in the order of making, in the key's direction. */
export function accountComparator(
  sort: AccountSort,
  stage: (id: string) => number | null = () => null,
): (a: AccountRow, b: AccountRow) => number {
  const desc = sort.startsWith('-');
  const key = (desc ? sort.slice(1) : sort) as AccountSortKey;
  const sign = desc ? -1 : 1;
  return (a, b) => {
    const va = sortValue(a, key, stage);
    const vb = sortValue(b, key, stage);
    if (va === null || vb === null) {
      if (va !== vb) return va === null ? 1 : -1;
    } else {
      const c = compareValues(va, vb);
      if (c !== 0) return c * sign;
    }
    return madeOrder(a, b) * sign;
  };
}

const matchesFilter = (filter: AccountFilter | undefined) => (row: AccountRow) => {
  if (filter === 'all') return true;
  if (filter === 'archived') return row.archived === 1;
  if (row.archived === 1) return false;
  if (filter === 'client') return row.type === 'CLIENT';
  if (filter === 'prospect') return row.type === 'PROSPECT';
  return filter === 'favorite' ? row.favorited === 1 : true;
};

/** The narrowest index for a filter. */
function filtered(db: AdvisorDb, filter: AccountFilter | undefined): Rows {
  switch (filter) {
    case 'all':
      return db.accounts.toCollection();
    case 'archived':
      return db.accounts.where('archived').equals(1);
    case 'client':
      return db.accounts.where('[archived+type]').equals([0, 'CLIENT']);
    case 'prospect':
      return db.accounts.where('[archived+type]').equals([0, 'PROSPECT']);
    case 'favorite':
      return db.accounts.where('[archived+favorited]').equals([0, 1]);
    default:
      return db.accounts.where('archived').equals(0);
  }
}

/**
 * The rows a query selects, before sorting: through the search, pipeline or filter index. The
 * search column is lower-cased when written (`accountIndex`), so one key range of the lower-cased
 * prefix serves a case-insensitive search; `startsWithIgnoreCase` would walk several ranges.
 * `distinct` keeps an account once when several of its names match.
 */
function selected(db: AdvisorDb, q: AccountQuery): Rows {
  const search = q.search?.trim().toLowerCase() ?? '';
  if (search !== '') {
    const hits = db.accounts.where('search').startsWith(search).distinct();
    return hits.and(matchesFilter(q.filter)).and((r) => !q.pipeline || r.pipelineId === q.pipeline);
  }
  if (q.pipeline) return db.accounts.where('pipelineId').equals(q.pipeline).and(matchesFilter(q.filter));
  return filtered(db, q.filter);
}

/** The index that walks accounts in `created_at` / `updated_at` order for this query, if there is one. */
function orderedIndex(db: AdvisorDb, q: AccountQuery, key: AccountSortKey): Rows | null {
  if ((key !== 'created_at' && key !== 'updated_at') || q.search?.trim() || q.pipeline) return null;
  const column = key === 'created_at' ? 'createdAt' : 'updatedAt';
  if (q.filter === 'all') return db.accounts.orderBy(column);
  if (q.filter !== undefined && q.filter !== 'archived') return null;
  const archived = q.filter === 'archived' ? 1 : 0;
  return db.accounts
    .where(`[archived+${column}]`)
    .between([archived, Dexie.minKey], [archived, Dexie.maxKey]);
}

/** Positions of the pipeline stages, in the order of the user resource (the platform sorts by it). */
async function stagePositions(db: AdvisorDb): Promise<(id: string) => number | null> {
  const user = await configEntry<{ pipelines?: { id?: unknown }[] }>(db, CONFIG_KEYS.user);
  const ids = (user?.data?.pipelines ?? []).map((p) => p.id);
  return (id) => (ids.includes(id) ? ids.indexOf(id) + 1 : null);
}

/** A page of accounts: search, filter, pipeline, sort and paging, as the version 2 list offers them. */
export async function listAccounts(db: AdvisorDb, q: AccountQuery = {}): Promise<AccountPage> {
  const sort = q.sort ?? '-created_at';
  const desc = sort.startsWith('-');
  const key = (desc ? sort.slice(1) : sort) as AccountSortKey;
  const offset = Math.max(0, q.offset ?? 0);
  const limit = Math.max(0, q.limit ?? 50);
  const indexed = orderedIndex(db, q, key);
  if (indexed) {
    const total = await indexed.clone().count();
    const ordered = desc ? indexed.reverse() : indexed;
    return { items: await ordered.offset(offset).limit(limit).toArray(), total };
  }
  const rows = await selected(db, q).toArray();
  rows.sort(accountComparator(sort, key === 'pipeline' ? await stagePositions(db) : undefined));
  return { items: rows.slice(offset, offset + limit), total: rows.length };
}

/** Accounts whose client or co-client first name, last name or email starts with `prefix`, each once. */
export function searchAccounts(db: AdvisorDb, prefix: string, limit = 50): Promise<AccountRow[]> {
  const q = prefix.trim().toLowerCase();
  if (q === '') return Promise.resolve([]);
  return db.accounts.where('search').startsWith(q).distinct().limit(limit).toArray();
}

export function getAccount(db: AdvisorDb, id: string): Promise<AccountRow | undefined> {
  return db.accounts.get(id);
}

export function accountByServerId(db: AdvisorDb, serverId: number): Promise<AccountRow | undefined> {
  return db.accounts.where('serverId').equals(serverId).first();
}

/**
 * Items of one section of an account (`assets`, `employment:coclient` …). An item whose delete is
 * queued keeps its row until the platform confirms; it is left out unless `includeDeleted`.
 */
export async function sectionItems(
  db: AdvisorDb,
  accountId: string,
  section: string,
  options: { includeDeleted?: boolean } = {},
): Promise<SectionItemRow[]> {
  const rows = await db.sectionItems.where('[accountId+section]').equals([accountId, section]).toArray();
  if (options.includeDeleted) return rows;
  const pending = await pendingOps(
    db,
    'sectionItems',
    rows.map((r) => r.id),
  );
  return rows.filter((r) => pending.get(r.id)?.at(-1)?.kind !== 'delete');
}

/** Every single-record section and member details of an account, by key (`expenses-fixed`, `details:client` …). */
export async function accountSingles(db: AdvisorDb, accountId: string): Promise<Record<string, SingleRow>> {
  const rows = await db.singles.where('accountId').equals(accountId).toArray();
  return Object.fromEntries(rows.map((r) => [r.key, r]));
}

export function accountSingle(db: AdvisorDb, accountId: string, key: string): Promise<SingleRow | undefined> {
  return db.singles.get(singleRowId(accountId, key));
}

/** Pending operations of records, by record id, in the order they were made. */
export async function pendingOps(
  db: AdvisorDb,
  table: SyncedTable,
  ids: readonly string[],
): Promise<Map<string, Operation[]>> {
  const byRecord = new Map<string, Operation[]>();
  if (ids.length === 0) return byRecord;
  const ops = await db.outbox
    .where('[table+recordId]')
    .anyOf(ids.map((id) => [table, id]))
    .toArray();
  for (const op of ops.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0)))
    byRecord.set(op.recordId, [...(byRecord.get(op.recordId) ?? []), op]);
  return byRecord;
}
