// What the screens read from the local store, served by the indexes of db.ts: account search,
// filters, every sort key of the version 2 account list, paging; an account's section items and
// single-record sections.
//
// How the account list (listAccountIds) is ordered without reading every row:
// - `created_at` and `updated_at` walk a date index (`[archived+createdAt]`, `[archived+updatedAt]`
//   for the default and archived filters, `createdAt` / `updatedAt` for all). Equal timestamps
//   follow the local id there.
// - names, emails and quality walk their `order.*` index (accounts.ts, accountOrder), whose keys end
//   with the order the records were made in; accounts with an empty value follow, in that order.
// - type, favorited, archived and pipeline stage split the made order (`order.made`) into the
//   groups their indexes give, in the key's order (stages in the order of the user resource).
// Every sort keeps the platform's rules: empty values last in both directions, texts with case and
// accents ignored, ties in the order the records were made, in the direction of the key. The
// search, filter and pipeline keep only the ids their indexes give; a search with few hits reads
// just those rows and sorts them here by the same rules (accountComparator).

import Dexie, { type Collection } from 'dexie';
import { foldText, madeKey, TEXT_ORDER_COLUMNS } from './accounts.ts';
import { pipelineStages } from './config.ts';
import type { AdvisorDb } from './db.ts';
import { singleRowId } from './mappers.ts';
import type {
  AccountActivityRow,
  AccountRow,
  EngagementPartKind,
  EngagementPartRow,
  EngagementRow,
  FormRow,
  MemberSecurityRow,
  Operation,
  ProfileValueRow,
  ReportRow,
  SectionItemRow,
  SingleRow,
  SyncedTable,
  UserActivityRow,
  UserStats,
} from './model.ts';

// Configuration has tables of its own (config.ts); its readers and writers are re-exported here.
export {
  CONFIG_KEYS,
  configEntry,
  putConfigEntries,
  putConfigEntry,
  type ConfigEntry,
  type ConfigKey,
} from './config.ts';

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

/** A sort's key and direction; the interface's default is `-created_at`. */
function sortOf(sort: AccountSort = '-created_at'): { key: AccountSortKey; desc: boolean } {
  const desc = sort.startsWith('-');
  return { key: (desc ? sort.slice(1) : sort) as AccountSortKey, desc };
}

const isDateKey = (key: AccountSortKey): key is 'created_at' | 'updated_at' =>
  key === 'created_at' || key === 'updated_at';

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

/** Texts in the list's order: case and accents ignored (foldText), then code units, as the `order.*` indexes keep them. */
function compareText(a: string, b: string): number {
  const [fa, fb] = [foldText(a), foldText(b)];
  return fa < fb ? -1 : fa > fb ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  return a! < b! ? -1 : a! > b! ? 1 : 0;
}

/** Two values of a sort key as the platform orders them: empty values last in both directions; 0 for a tie. */
function keyOrder(va: SortValue, vb: SortValue, sign: number): number {
  if (va === null || vb === null) return va === vb ? 0 : va === null ? 1 : -1;
  return compareValues(va, vb) * sign;
}

/** The order records were made in, as the platform breaks ties (accounts.ts, madeKey). */
function madeOrder(a: AccountRow, b: AccountRow): number {
  const [ka, kb] = [madeKey(a), madeKey(b)];
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
  return 0;
}

/**
 * The platform's sort (`-created_at` where none is given): empty values last in both directions;
 * ties in the order of making, in the key's direction.
 */
export function accountComparator(
  sort: AccountSort | undefined,
  stage: (id: string) => number | null = () => null,
): (a: AccountRow, b: AccountRow) => number {
  const { key, desc } = sortOf(sort);
  const sign = desc ? -1 : 1;
  return (a, b) =>
    keyOrder(sortValue(a, key, stage), sortValue(b, key, stage), sign) || madeOrder(a, b) * sign;
}

const matchesFilter = (filter: AccountFilter | undefined) => (row: AccountRow) => {
  if (filter === 'all') return true;
  if (filter === 'archived') return row.archived === 1;
  if (row.archived === 1) return false;
  if (filter === 'client') return row.type === 'CLIENT';
  if (filter === 'prospect') return row.type === 'PROSPECT';
  return filter === 'favorite' ? row.favorited === 1 : true;
};

/** Whether a row is of the query's filter and pipeline (its search aside). */
const inList =
  (q: Pick<AccountQuery, 'filter' | 'pipeline'>) =>
  (row: AccountRow): boolean =>
    matchesFilter(q.filter)(row) && (!q.pipeline || row.pipelineId === q.pipeline);

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
    return hits.and(inList(q));
  }
  if (q.pipeline) return db.accounts.where('pipelineId').equals(q.pipeline).and(matchesFilter(q.filter));
  return filtered(db, q.filter);
}

/**
 * Whether a date sort's index holds the query's accounts and no others (no search, no pipeline, the
 * default, archived or whole list): its order pages them without reading any other row.
 */
const walksOnlyTheQuery = (q: AccountQuery, key: AccountSortKey): key is 'created_at' | 'updated_at' =>
  isDateKey(key) &&
  !q.search?.trim() &&
  !q.pipeline &&
  (q.filter === undefined || q.filter === 'all' || q.filter === 'archived');

/** The index that walks accounts in `created_at` / `updated_at` order for this query, if there is one. */
function orderedIndex(db: AdvisorDb, q: AccountQuery, key: AccountSortKey): Rows | null {
  return walksOnlyTheQuery(q, key) ? dateWalk(db, q.filter, DATE_COLUMNS[key]) : null;
}

/** Positions of the pipeline stages, in the order of the user resource (the platform sorts by it). */
async function stagePositions(db: AdvisorDb): Promise<(id: string) => number | null> {
  const positions = new Map((await pipelineStages(db)).map((p, i) => [p.id, i + 1] as const));
  return (id) => positions.get(id) ?? null;
}

/** A page of accounts: search, filter, pipeline, sort and paging, as the version 2 list offers them. */
export async function listAccounts(db: AdvisorDb, q: AccountQuery = {}): Promise<AccountPage> {
  const { key, desc } = sortOf(q.sort);
  const offset = Math.max(0, q.offset ?? 0);
  const limit = Math.max(0, q.limit ?? 50);
  const indexed = orderedIndex(db, q, key);
  if (indexed) {
    const total = await indexed.clone().count();
    const ordered = desc ? indexed.reverse() : indexed;
    return { items: await ordered.offset(offset).limit(limit).toArray(), total };
  }
  const rows = await selected(db, q).toArray();
  rows.sort(accountComparator(q.sort, key === 'pipeline' ? await stagePositions(db) : undefined));
  return { items: rows.slice(offset, offset + limit), total: rows.length };
}

/** Below this many search hits, reading their rows is quicker than walking a whole index. */
const FEW_HITS = 2_000;

type ListQuery = Omit<AccountQuery, 'offset' | 'limit'>;

const DATE_COLUMNS = { created_at: 'createdAt', updated_at: 'updatedAt' } as const;

/** The `order.*` index that walks a sort key, for the keys that have one (accounts.ts, accountOrder). */
function orderIndex(key: AccountSortKey): string | null {
  if (key === 'quality') return 'order.quality';
  const column = (TEXT_ORDER_COLUMNS as Record<string, string>)[key];
  return column ? `order.${column}` : null;
}

/** The date index walked for a date sort: within the archived or not-archived accounts, or all. */
function dateWalk(db: AdvisorDb, filter: AccountFilter | undefined, column: 'createdAt' | 'updatedAt'): Rows {
  if (filter === 'all') return db.accounts.orderBy(column);
  const archived = filter === 'archived' ? 1 : 0;
  return db.accounts
    .where(`[archived+${column}]`)
    .between([archived, Dexie.minKey], [archived, Dexie.maxKey]);
}

/**
 * The local ids of every account a query selects, in its order (offset and limit ignored): for
 * screens that show a long list a window at a time, reading only the rows in view
 * (`db.accounts.bulkGet`). A search of several words also matches when each word starts one of
 * the names or emails (`ann tes` finds Ann Tester), besides the interface's whole-text prefix.
 *
 * Every sort walks an index (see the top of this file) and keeps the ids the search, filter and
 * pipeline indexes give; when a search matches few accounts, just those rows are read and sorted.
 */
export async function listAccountIds(
  db: AdvisorDb,
  q: ListQuery = {},
  fewHits = FEW_HITS,
): Promise<string[]> {
  const { key, desc } = sortOf(q.sort);
  const whole = q.search?.trim().toLowerCase() ?? '';
  const hits = whole === '' ? null : await searchIds(db, whole);
  if (hits && hits.size <= fewHits) {
    const wanted = inList(q);
    const rows = (await db.accounts.bulkGet([...hits])).filter(
      (r): r is AccountRow => r !== undefined && wanted(r),
    );
    return sortedIds(db, rows, key, desc);
  }
  const byDate = isDateKey(key);
  // Date walks keep to the archived or not-archived accounts themselves. The other walks give every
  // account: the default list drops the archived ones (few), the other filters keep their own.
  const dropArchived = !byDate && q.filter === undefined;
  const keepFilter = !(q.filter === 'all' || (byDate && (q.filter === undefined || q.filter === 'archived')));
  const [order, dropped, ...kept] = await Promise.all([
    orderedIds(db, key, desc, q.filter),
    dropArchived ? idSet(db.accounts.where('archived').equals(1)) : null,
    keepFilter && !dropArchived ? idSet(filtered(db, q.filter)) : null,
    q.pipeline ? idSet(db.accounts.where('pipelineId').equals(q.pipeline)) : null,
  ]);
  const sets = [hits, ...kept].filter((k): k is Set<string> => k !== null);
  if (sets.length === 0 && !dropped?.size) return order;
  return order.filter((id) => !dropped?.has(id) && sets.every((set) => set.has(id)));
}

/** A few rows sorted here as listAccountIds' indexes would give them. */
async function sortedIds(
  db: AdvisorDb,
  rows: AccountRow[],
  key: AccountSortKey,
  desc: boolean,
): Promise<string[]> {
  const sign = desc ? -1 : 1;
  if (isDateKey(key)) {
    // The date indexes break ties by the local id.
    const column = DATE_COLUMNS[key];
    const order = (a: AccountRow, b: AccountRow) =>
      a[column] < b[column] ? -1 : a[column] > b[column] ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return rows.sort((a, b) => order(a, b) * sign).map((r) => r.id);
  }
  const stage = key === 'pipeline' ? await stagePositions(db) : () => null;
  // accountComparator's order, each row's value read once.
  const keyed = rows.map((row) => ({ row, value: sortValue(row, key, stage) }));
  keyed.sort((x, y) => keyOrder(x.value, y.value, sign) || madeOrder(x.row, y.row) * sign);
  return keyed.map((k) => k.row.id);
}

/**
 * Every account's id in a sort's order, from indexes alone (no row is read). Date sorts keep to
 * the archived or not-archived accounts as the filter asks; the other sorts give every account.
 */
async function orderedIds(
  db: AdvisorDb,
  key: AccountSortKey,
  desc: boolean,
  filter: AccountFilter | undefined,
): Promise<string[]> {
  const inOrder = <T>(items: T[]): T[] => (desc ? items.reverse() : items);
  if (isDateKey(key)) return inOrder(await dateWalk(db, filter, DATE_COLUMNS[key]).primaryKeys());
  const index = orderIndex(key);
  if (index) {
    const [count, valued] = await Promise.all([
      db.accounts.count(),
      db.accounts.orderBy(index).primaryKeys(),
    ]);
    if (valued.length === count) return inOrder(valued);
    // Accounts with an empty value are missing from the index: they follow, in the made order.
    const present = new Set(valued);
    const made = await db.accounts.orderBy('order.made').primaryKeys();
    return [...inOrder(valued), ...inOrder(made.filter((id) => !present.has(id)))];
  }
  const made = await db.accounts.orderBy('order.made').primaryKeys();
  // type, favorited, archived, pipeline: a handful of values, each a group of the made order.
  const groups = await valueGroups(db, key);
  const rank = new Map<string, number>();
  groups.forEach((ids, i) => ids.forEach((id) => rank.set(id, i)));
  const buckets = groups.map((): string[] => []);
  const rest: string[] = [];
  for (const id of made) {
    const i = rank.get(id);
    (i === undefined ? rest : buckets[i]!).push(id);
  }
  return [...inOrder(buckets).flatMap(inOrder), ...inOrder(rest)];
}

/** The ids of each value of a key with few values, in the values' order; ids with no value are left out. */
async function valueGroups(db: AdvisorDb, key: AccountSortKey): Promise<string[][]> {
  const of = (column: 'type' | 'favorited' | 'archived' | 'pipelineId', value: string | number) =>
    db.accounts.where(column).equals(value).primaryKeys();
  switch (key) {
    case 'type':
      return Promise.all([of('type', 'CLIENT'), of('type', 'PROSPECT')]);
    case 'favorited':
    case 'archived':
      return Promise.all([of(key, 0), of(key, 1)]);
    case 'pipeline':
      return Promise.all((await pipelineStages(db)).map((stage) => of('pipelineId', stage.id)));
    default:
      throw new Error(`No index gives the accounts in ${key} order.`);
  }
}

const idSet = async (rows: Rows): Promise<Set<string>> => new Set(await rows.primaryKeys());

/**
 * Whether a row matches a lower-cased search (see listAccountIds): one of its names or emails
 * starts with the whole text, or, for several words, each word starts one of them. searchIds
 * answers the same from the search index alone.
 */
function searchMatch(whole: string): (row: AccountRow) => boolean {
  const words = whole.split(/\s+/).filter(Boolean);
  const starts = (w: string) => (r: AccountRow) => r.search.some((s) => s.startsWith(w));
  const all = words.map(starts);
  return (r) => starts(whole)(r) || (all.length > 1 && all.every((match) => match(r)));
}

/** The rows a walk may read looking for a query's first accounts before it leaves them to listAccountIds. */
const FIRST_ROWS_BUDGET = 2_000;

/** The first accounts of a query, and how many it selects when that is known without reading them all. */
export interface FirstAccounts {
  rows: AccountRow[];
  total: number | null;
}

/**
 * The first `limit` accounts of a query in listAccountIds' order, for a long list to show before
 * every id is known: for the sorts one index walks (dates, names, emails, quality). The first rows
 * of the index are read in one request (a cursor would queue each step behind the reading of
 * every id) and checked against the search, filter and pipeline: a common search ("m") finds its
 * first accounts among a few hundred rows, a rarer one among `budget`; past that the answer is
 * null and listAccountIds' few-hits path serves it quickly. Null too when an `order.*` index ends
 * short of `limit` (the accounts with an empty value follow it), and for the sorts by groups
 * (type, flags, stage).
 */
export async function firstAccounts(
  db: AdvisorDb,
  q: ListQuery,
  limit: number,
  budget = FIRST_ROWS_BUDGET,
): Promise<FirstAccounts | null> {
  const { key, desc } = sortOf(q.sort);
  const byDate = isDateKey(key);
  const index = orderIndex(key);
  if (!byDate && !index) return null;
  const walk = () => {
    const rows = byDate ? dateWalk(db, q.filter, DATE_COLUMNS[key]) : db.accounts.orderBy(index!);
    return desc ? rows.reverse() : rows;
  };
  const whole = q.search?.trim().toLowerCase() ?? '';
  const listed = inList(q);
  const found = whole === '' ? () => true : searchMatch(whole);
  const wanted = (r: AccountRow) => listed(r) && found(r);
  // A walk that holds nothing but the query's accounts needs read no more than the page.
  const sizes = walksOnlyTheQuery(q, key) ? [limit] : [...new Set([Math.min(budget, limit * 5), budget])];
  // Counted beside the first read, not after it: a request made later would wait behind the
  // reading of every id that the list starts at the same time.
  const total = whole === '' && !q.pipeline ? filtered(db, q.filter).count() : null;
  for (const size of sizes) {
    const read = await walk().limit(size).toArray();
    const rows = read.filter(wanted).slice(0, limit);
    if (rows.length === limit) return { rows, total: await total };
    // The index ended: a date index holds the whole answer; after a name's, empty values follow.
    if (read.length < size) return byDate ? { rows, total: rows.length } : null;
  }
  return null;
}

/** Ids of the accounts a lower-cased search matches (see listAccountIds), from the search index alone. */
async function searchIds(db: AdvisorDb, whole: string): Promise<Set<string>> {
  const starting = (prefix: string) => idSet(db.accounts.where('search').startsWith(prefix));
  const words = whole.split(/\s+/).filter(Boolean);
  const [ids, ...perWord] = await Promise.all([
    starting(whole),
    ...(words.length > 1 ? words.map(starting) : []),
  ]);
  const [first, ...others] = perWord;
  for (const id of first ?? []) if (others.every((set) => set.has(id))) ids.add(id);
  return ids;
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

// ---- read-only records ----------------------------------------------------------------------
// Rows of an account carry its server id (model.ts): these take the local account id, and give
// nothing for an account not on the server yet.

/** The advisor's statistics in `meta` (by `PullEngine.pullStats`). */
export const STATS_KEY = 'user.stats';

export interface StatsEntry {
  pulledAt: number;
  /** The range asked for; null where the platform's default was used. */
  start: string | null;
  end: string | null;
  data: UserStats;
}

export async function userStats(db: AdvisorDb): Promise<StatsEntry | undefined> {
  return (await db.meta.get(STATS_KEY))?.value as StatsEntry | undefined;
}

async function accountServerId(db: AdvisorDb, accountId: string): Promise<number | null> {
  const serverId = (await db.accounts.get(accountId))?.serverId;
  return typeof serverId === 'number' ? serverId : null;
}

/** The form-access security of an account's members, by member. */
export async function memberSecurity(
  db: AdvisorDb,
  accountId: string,
): Promise<Partial<Record<MemberSecurityRow['member'], MemberSecurityRow>>> {
  const serverId = await accountServerId(db, accountId);
  if (serverId === null) return {};
  const rows = await db.memberSecurity.where('accountServerId').equals(serverId).toArray();
  return Object.fromEntries(rows.map((r) => [r.member, r]));
}

/** An account's profile values, or one member's (`memberId`, the member's server id). */
export async function profileValues(
  db: AdvisorDb,
  accountId: string,
  options: { memberId?: number } = {},
): Promise<ProfileValueRow[]> {
  const serverId = await accountServerId(db, accountId);
  if (serverId === null) return [];
  if (options.memberId === undefined)
    return db.profileValues.where('accountServerId').equals(serverId).toArray();
  return db.profileValues.where('[accountServerId+memberId]').equals([serverId, options.memberId]).toArray();
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** An index range in order, paged: only the page's rows are read. */
async function indexPage<T, K, I>(
  range: Collection<T, K, I>,
  desc: boolean,
  q: { offset?: number; limit?: number },
): Promise<Page<T>> {
  const total = await range.clone().count();
  const ordered = desc ? range.reverse() : range;
  const items = await ordered
    .offset(Math.max(0, q.offset ?? 0))
    .limit(Math.max(0, q.limit ?? 50))
    .toArray();
  return { items, total };
}

export interface ActivityQuery {
  /** An activity type (`engagement.created` …); the types come with `CONFIG_KEYS.activities`. */
  type?: string;
  /** Default `-created_at`, as the interface. */
  sort?: 'created_at' | '-created_at';
  offset?: number;
  /** Default 50, as the interface. */
  limit?: number;
}

/** A page of an account's activity, by time, optionally of one type. Equal times follow the id. */
export async function accountActivity(
  db: AdvisorDb,
  accountId: string,
  q: ActivityQuery = {},
): Promise<Page<AccountActivityRow>> {
  const serverId = await accountServerId(db, accountId);
  if (serverId === null) return { items: [], total: 0 };
  const range =
    q.type === undefined
      ? db.accountActivity
          .where('[accountServerId+createdAt]')
          .between([serverId, Dexie.minKey], [serverId, Dexie.maxKey])
      : db.accountActivity
          .where('[accountServerId+type+createdAt]')
          .between([serverId, q.type, Dexie.minKey], [serverId, q.type, Dexie.maxKey]);
  return indexPage(range, q.sort !== 'created_at', q);
}

/** A page of the advisor's feed, newest first, optionally of one type. */
export async function userActivity(
  db: AdvisorDb,
  q: Omit<ActivityQuery, 'sort'> = {},
): Promise<Page<UserActivityRow>> {
  const range =
    q.type === undefined
      ? db.userActivity.orderBy('createdAt')
      : db.userActivity.where('[type+createdAt]').between([q.type, Dexie.minKey], [q.type, Dexie.maxKey]);
  return indexPage(range, true, q);
}

export const ENGAGEMENT_SORT_KEYS = [
  'account_id',
  'member_id',
  'template_id',
  'title',
  'description',
  'security',
  'name',
  'email',
  'status',
  'filled',
  'created_at',
  'opened_at',
  'reminded_at',
  'completed_at',
] as const;
export type EngagementSortKey = (typeof ENGAGEMENT_SORT_KEYS)[number];
export type EngagementSort = EngagementSortKey | `-${EngagementSortKey}`;

/** The engagement list's query of version 2, with a local account id. */
export interface EngagementQuery {
  accountId?: string;
  /** A member's server id (`meta.clientId` / `meta.coclientId` of the account). */
  memberId?: number;
  templateId?: string;
  type?: 'completed' | 'in-progress';
  /** Prefix of the title or of the engaged member's name, any case. */
  search?: string;
  /** Default `-created_at`, as the interface. */
  sort?: EngagementSort;
  offset?: number;
  /** Default 50, as the interface. */
  limit?: number;
}

/**
 * The platform's order of engagements: by the key (empty values last in both directions), ties
 * by creation, in the key's direction. The platform breaks ties by the order records were made,
 * which `created_at` and then the id only approximate within one second.
 */
export function engagementComparator(sort: EngagementSort): (a: EngagementRow, b: EngagementRow) => number {
  const desc = sort.startsWith('-');
  const key = (desc ? sort.slice(1) : sort) as EngagementSortKey;
  const sign = desc ? -1 : 1;
  const value = (r: EngagementRow): SortValue => {
    const v = (r.server as unknown as Record<string, unknown>)[key];
    return typeof v === 'number' || (typeof v === 'string' && v !== '') ? v : null;
  };
  const made = (a: EngagementRow, b: EngagementRow) =>
    compareValues(a.createdAt, b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return (a, b) => keyOrder(value(a), value(b), sign) || made(a, b) * sign;
}

/**
 * A page of engagements: the filters, search, sorts and paging of the version 2 list. The default
 * order alone, within an account or within a type walks an index and reads only the page; any
 * other query reads what its narrowest index selects and sorts in memory.
 */
export async function listEngagements(db: AdvisorDb, q: EngagementQuery = {}): Promise<Page<EngagementRow>> {
  const sort = q.sort ?? '-created_at';
  const desc = sort.startsWith('-');
  const account = q.accountId === undefined ? undefined : await accountServerId(db, q.accountId);
  if (account === null) return { items: [], total: 0 };
  const completed = q.type === undefined ? undefined : q.type === 'completed' ? 1 : 0;
  const search = q.search?.trim().toLowerCase() ?? '';
  const { engagements } = db;
  // At most one filter, the account or the type: an index walks it in `created_at` order.
  const oneIndexedFilter =
    search === '' &&
    q.memberId === undefined &&
    q.templateId === undefined &&
    (account === undefined || completed === undefined);
  if ((desc ? sort.slice(1) : sort) === 'created_at' && oneIndexedFilter) {
    const range =
      account !== undefined
        ? engagements
            .where('[accountServerId+createdAt]')
            .between([account, Dexie.minKey], [account, Dexie.maxKey])
        : completed !== undefined
          ? engagements
              .where('[completed+createdAt]')
              .between([completed, Dexie.minKey], [completed, Dexie.maxKey])
          : engagements.orderBy('createdAt');
    return indexPage(range, desc, q);
  }
  const selected =
    search !== ''
      ? engagements.where('search').startsWith(search).distinct()
      : account !== undefined
        ? engagements.where('accountServerId').equals(account)
        : q.templateId !== undefined
          ? engagements.where('templateId').equals(q.templateId)
          : q.memberId !== undefined
            ? engagements.where('memberId').equals(q.memberId)
            : completed !== undefined
              ? engagements.where('completed').equals(completed)
              : engagements.toCollection();
  const rows = await selected
    .and(
      (r) =>
        (account === undefined || r.accountServerId === account) &&
        (q.memberId === undefined || r.memberId === q.memberId) &&
        (q.templateId === undefined || r.templateId === q.templateId) &&
        (completed === undefined || r.completed === completed),
    )
    .toArray();
  rows.sort(engagementComparator(sort));
  const offset = Math.max(0, q.offset ?? 0);
  return { items: rows.slice(offset, offset + Math.max(0, q.limit ?? 50)), total: rows.length };
}

export function getEngagement(db: AdvisorDb, id: string): Promise<EngagementRow | undefined> {
  return db.engagements.get(id);
}

/** One output of an engagement (data, documents, signatures or history), in the platform's order. */
export async function engagementParts<K extends EngagementPartKind>(
  db: AdvisorDb,
  engagementId: string,
  kind: K,
): Promise<EngagementPartRow<K>[]> {
  const rows = await db.engagementParts.where('[engagementId+kind]').equals([engagementId, kind]).toArray();
  return (rows as EngagementPartRow<K>[]).sort((a, b) => a.position - b.position);
}

/** Forms, newest first: an account's or every one pulled, optionally in one status. */
export async function listForms(
  db: AdvisorDb,
  q: { accountId?: string; status?: string } = {},
): Promise<FormRow[]> {
  const account = q.accountId === undefined ? undefined : await accountServerId(db, q.accountId);
  if (account === null) return [];
  const { forms } = db;
  const rows =
    account !== undefined
      ? q.status === undefined
        ? await forms.where('accountServerId').equals(account).toArray()
        : await forms.where('[accountServerId+status]').equals([account, q.status]).toArray()
      : q.status === undefined
        ? await forms.toArray()
        : await forms.where('status').equals(q.status).toArray();
  return rows.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}

/** The user's reports, by title. */
export async function listReports(db: AdvisorDb): Promise<ReportRow[]> {
  const rows = await db.reports.toArray();
  return rows.sort((a, b) => compareValues(a.server.title ?? '', b.server.title ?? ''));
}
