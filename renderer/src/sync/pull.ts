// Pulls from the platform into the local store within the request budget (DESIGN.md §3, "Pull and
// the request budget"): the account list (largest page, incremental by updated_at, a periodic
// sweep that notices remote deletions), one account's details and sections, the accounts kept
// offline, and configuration. Every snapshot goes through `applySnapshots`, so a pull never
// overwrites a pending local change.
//
// The read-only records of both interfaces (data/records.ts) are pulled here too: member security,
// profile values and the newest activity with every account pull; engagements (list, and one
// engagement's outputs on demand), forms, report metadata, the advisor's feed and statistics.
// They have no outbox: a pull stores what the server listed and removes what it no longer has.

import type { EntityTable } from 'dexie';
import type { ApiErrorKind, ApiName, ApiRequest, ApiResult, Priority } from '../../../shared/api/request.ts';
import {
  SECTIONS,
  sectionKey,
  sectionPath,
  type MemberRole,
  type SectionDescriptor,
} from '../../../shared/sections.ts';
import { accountIndex } from '../data/accounts.ts';
import type { AdvisorDb } from '../data/db.ts';
import {
  CONFIG_KEYS,
  CONFIG_TABLES,
  putConfigEntries,
  type ConfigEntry,
  type ConfigKey,
} from '../data/config.ts';
import { STATS_KEY, pendingOps } from '../data/queries.ts';
import {
  accountSnapshot,
  detailsFields,
  itemLocalIds,
  keepLocalIds,
  newAccountRow,
  newSectionItemRow,
  newSingleRow,
  relationTargets,
  relationTargetsKey,
  releaseLocalIds,
  sectionItemFields,
  singleFields,
  singleRowId,
  type AccountSnapshot,
} from '../data/mappers.ts';
import type {
  AccountRow,
  EngagementPartKind,
  EngagementRow,
  Fields,
  Operation,
  RecordRow,
  SectionItemRow,
  SingleRow,
  SyncedRow,
  SyncedTable,
} from '../data/model.ts';
import {
  accountActivityRow,
  accountRecordTables,
  engagementPartRow,
  engagementRow,
  formRow,
  memberSecurityRow,
  profileValueRow,
  removeAccountRecords,
  removeEngagements,
  reportRow,
  rowsOf,
  storeEngagements,
  storeRecords,
  userActivityRow,
  type StoreOptions,
} from '../data/records.ts';
import { localView, sameValue } from '../data/view.ts';
import type { Send } from './send.ts';

export interface PullFailure {
  path: string;
  kind: ApiErrorKind | 'unreadable';
  status: number | null;
  message: string;
}

/** What one pull did: requests sent (probes and failures included) against records received. */
export interface PullReport {
  requests: number;
  /** Server records received (accounts, items, single sections, member details). */
  records: number;
  /** Local rows created or changed. */
  written: number;
  /** Local rows removed because the server no longer has them. */
  removed: number;
  /** Rows gone from the server but kept, flagged `deletedOnServer`, because changes are pending here. */
  flagged: number;
  /** True when nothing was asked because the data was fresh enough. */
  skipped: boolean;
  failures: PullFailure[];
}

export interface PullProgress {
  done: number;
  /** Null while the total is unknown (an incremental pull stops before the end of the list). */
  total: number | null;
}

export interface PullEngineOptions {
  db: AdvisorDb;
  send: Send;
  now?: () => number;
  /** Page sizes tried for the account list, largest first (the largest accepted is not published). */
  pageSizes?: readonly number[];
  /** A full sweep of the account list (to notice remote deletions) at least this often. Default 24 h. */
  sweepIntervalMs?: number;
  /** Configuration is pulled again after this long. Default 24 h. */
  configMaxAgeMs?: number;
  /** How many recently opened accounts `pullOfflineAccounts` keeps fresh. Default 10. */
  recentAccounts?: number;
  /** Accounts missing from a sweep that are confirmed (one request each) per sweep. Default 50. */
  deletionChecks?: number;
}

/** What the account list pull remembers between runs (meta key `pull.accounts`). */
export interface AccountListState {
  pageSize: number | null;
  /** Newest `updated_at` seen: the next incremental pull stops below it. */
  newestUpdatedAt: string | null;
  pulledAt: number | null;
  sweptAt: number | null;
}

export const ACCOUNT_LIST_STATE = 'pull.accounts';
export const CONFIG_STATE = 'pull.config';

/** What the feed pull remembers between runs (meta key `pull.userActivity`). */
export interface UserActivityState {
  /** Newest `created_at` seen: the next incremental pull stops below it. */
  newestCreatedAt: string | null;
  pulledAt: number | null;
  sweptAt: number | null;
}

export const USER_ACTIVITY_STATE = 'pull.userActivity';
/** Page sizes that worked, by list (the account list keeps its own in `pull.accounts`). */
export const PAGE_SIZES_STATE = 'pull.pageSizes';
/** The smallest page size each interface refused, so no other list of it probes that size again. */
export const PAGE_SIZE_REFUSED_STATE = 'pull.pageSizesRefused';

const DAY_MS = 24 * 60 * 60_000;
/**
 * Page sizes probed, largest first, until the platform accepts one (a 422 says too large); the one
 * accepted is remembered. The first is above the largest the documents name, so that a platform
 * taking more pages is used at that size: one refused request per list, once.
 */
export const PAGE_SIZES = [1000, 500, 200, 100, 50] as const;

export const emptyReport = (): PullReport => ({
  requests: 0,
  records: 0,
  written: 0,
  removed: 0,
  flagged: 0,
  skipped: false,
  failures: [],
});

function addReport(into: PullReport, from: PullReport): void {
  into.requests += from.requests;
  into.records += from.records;
  into.written += from.written;
  into.removed += from.removed;
  into.flagged += from.flagged;
  into.failures.push(...from.failures);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

// ---- applying snapshots: the one rule of every pull ----------------------------------------

type RowOf<T extends SyncedTable> = T extends 'accounts'
  ? AccountRow
  : T extends 'sectionItems'
    ? SectionItemRow
    : SingleRow;

export interface SnapshotUpdate<T extends SyncedTable> {
  /** The row as it is (or a new row); accounts carry the new `meta` already. */
  row: RowOf<T>;
  server: Fields;
}

function snapshotRow<R extends SyncedRow>(
  table: SyncedTable,
  row: R,
  server: Fields,
  pending: Operation[],
): R {
  const { deletedOnServer: _gone, ...rest } = row;
  // A pending delete has no view: the row keeps what the user last saw until the delete is sent.
  const fields = localView(server, pending) ?? row.fields;
  const next = { ...rest, server, fields, status: pending.length > 0 ? row.status : 'synced' } as R;
  if (table !== 'accounts') return next;
  const account = next as unknown as AccountRow;
  return { ...account, ...accountIndex(account.fields, account.meta) } as unknown as R;
}

/**
 * Stores server snapshots: `server` = the snapshot, `fields` = the snapshot with the record's
 * pending operations re-applied, account index columns recomputed, status `synced` unless
 * operations are pending (then unchanged). Reading the outbox and writing the rows is one
 * transaction, so a local change cannot slip in between. Returns the number of rows written.
 */
export async function applySnapshots<T extends SyncedTable>(
  db: AdvisorDb,
  table: T,
  updates: readonly SnapshotUpdate<T>[],
): Promise<number> {
  if (updates.length === 0) return 0;
  const store = db.table<RowOf<T>, string>(table);
  return db.transaction('rw', [store, db.outbox], async () => {
    const pending = await pendingOps(
      db,
      table,
      updates.map((u) => u.row.id),
    );
    const rows = updates.map((u) => snapshotRow(table, u.row, u.server, pending.get(u.row.id) ?? []));
    await store.bulkPut(rows);
    return rows.length;
  });
}

/** Local records the server no longer has: removed when nothing is pending for them, else flagged. */
async function goneFromServer(
  db: AdvisorDb,
  table: 'sectionItems' | 'singles',
  rows: readonly SyncedRow[],
  now: number,
  report: PullReport,
): Promise<void> {
  const pending = await pendingOps(
    db,
    table,
    rows.map((r) => r.id),
  );
  const kept = rows.filter((r) => pending.has(r.id));
  const removed = rows.filter((r) => !pending.has(r.id));
  if (table === 'sectionItems') await keepLocalIds(db, removed as SectionItemRow[]);
  await db.table(table).bulkDelete(removed.map((r) => r.id));
  for (const row of kept) await db.table(table).update(row.id, { deletedOnServer: now });
  report.removed += rows.length - kept.length;
  report.flagged += kept.length;
}

/**
 * An account deleted on the server: removed with its items, single sections and reserved ids,
 * unless a change is pending for it or anything of it; then kept and flagged `deletedOnServer`.
 * Its read-only records go either way: the server has none any more, and none holds a change.
 */
async function accountGoneFromServer(
  db: AdvisorDb,
  account: AccountRow,
  now: number,
  report: PullReport,
): Promise<void> {
  const tables = [db.accounts, db.sectionItems, db.singles, db.outbox, db.meta, ...accountRecordTables(db)];
  await db.transaction('rw', tables, async () => {
    if (typeof account.serverId === 'number')
      report.removed += await removeAccountRecords(db, account.serverId);
    const items = await db.sectionItems.where('accountId').equals(account.id).primaryKeys();
    const singles = await db.singles.where('accountId').equals(account.id).primaryKeys();
    const pending =
      (await pendingOps(db, 'accounts', [account.id])).size +
      (await pendingOps(db, 'sectionItems', items)).size +
      (await pendingOps(db, 'singles', singles)).size;
    if (pending > 0) {
      await db.accounts.update(account.id, { deletedOnServer: now });
      report.flagged += 1;
      return;
    }
    await db.sectionItems.bulkDelete(items);
    await db.singles.bulkDelete(singles);
    await db.meta.delete(relationTargetsKey(account.id));
    await db.accounts.delete(account.id);
    report.removed += 1 + items.length + singles.length;
  });
}

/**
 * Creates whose answer never arrived (in flight or being retried) may already exist on the
 * server. The reconciler adopts those; until it has, a pull must not add the server's copy as a
 * second local record.
 */
async function uncertainCreates(db: AdvisorDb, table: SyncedTable): Promise<Operation[]> {
  const ops = await db.outbox.where('state').anyOf('inflight', 'retry').toArray();
  return ops.filter((op) => op.kind === 'create' && op.table === table);
}

const emailKey = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : '');

/** True when a stored account should take this snapshot (it is not older than what we hold). */
function takesSnapshot(row: AccountRow, snapshot: AccountSnapshot): boolean {
  if (row.server === null || row.deletedOnServer) return true;
  const held = row.meta.updated_at ?? '';
  const given = snapshot.meta.updated_at ?? '';
  if (given !== held) return given > held;
  return !sameValue(row.server, snapshot.fields) || !sameValue(row.meta, snapshot.meta);
}

// ---- one account's details and sections ----------------------------------------------------

/** One request of an account pull and where its answer is stored. */
interface AccountPart {
  key: string;
  kind: 'details' | 'single' | 'collection';
  section: SectionDescriptor | null;
  path: string;
}

function accountParts(serverId: number, members: readonly MemberRole[]): AccountPart[] {
  const parts: AccountPart[] = members.map((m) => ({
    key: `details:${m}`,
    kind: 'details',
    section: null,
    path: `/accounts/${serverId}/${m}/details`,
  }));
  for (const section of SECTIONS) {
    for (const member of section.perMember ? members : [undefined]) {
      parts.push({
        key: sectionKey(section, member),
        kind: section.single ? 'single' : 'collection',
        section,
        path: sectionPath(section, serverId, member),
      });
    }
  }
  return parts;
}

interface Fetched {
  part: AccountPart;
  data: unknown;
}

type ItemsBySid = Map<string, SectionItemRow>;

/** The account's rows as they were before the requests went out: items by server id, singles by id. */
interface LocalBefore {
  items: ItemsBySid;
  singles: Map<string, SingleRow>;
}

/** One collection as the server listed it: items with a server id only. */
interface CollectionList {
  key: string;
  section: SectionDescriptor;
  items: (Record<string, unknown> & { id: string })[];
}

function collectionList({ part, data }: Fetched): CollectionList {
  const items = (data as unknown[]).filter(
    (item): item is Record<string, unknown> & { id: string } => isObject(item) && typeof item.id === 'string',
  );
  return { key: part.key, section: part.section!, items };
}

/** What deciding an item's update needs: ids settled for the whole pull, rows before and now. */
interface ItemContext {
  accountId: string;
  before: LocalBefore;
  ids: ReadonlyMap<string, string>;
  now: ItemsBySid;
  uncertain: ReadonlySet<string>;
}

/** The items of a collection that take the server's snapshot. */
function itemUpdates(list: CollectionList, c: ItemContext): SnapshotUpdate<'sectionItems'>[] {
  const updates: SnapshotUpdate<'sectionItems'>[] = [];
  for (const item of list.items) {
    const row = c.now.get(item.id);
    // Written meanwhile by someone else (a push, another pull): their version is as fresh.
    if (!untouchedSince(c.before.items.get(item.id), row)) continue;
    if (!row && c.uncertain.has(list.key)) continue;
    const server = sectionItemFields(list.section, item, (target) => c.ids.get(target) ?? target);
    if (row && !row.deletedOnServer && sameValue(row.server, server)) continue;
    const fresh = () => newSectionItemRow(c.ids.get(item.id)!, item.id, c.accountId, list.key);
    updates.push({ row: row ?? fresh(), server });
  }
  return updates;
}

/** Items of a collection the server had before the request went out and no longer lists. */
function missingItems(list: CollectionList, before: LocalBefore, now: ItemsBySid): SectionItemRow[] {
  const listed = new Set(list.items.map((item) => item.id));
  return [...before.items]
    .filter(([sid, row]) => row.section === list.key && !listed.has(sid))
    .map(([sid]) => now.get(sid))
    .filter((row): row is SectionItemRow => row !== undefined && row.section === list.key);
}

/** A row may take a snapshot fetched after `before` only if nobody (the push) wrote a fresher one meanwhile. */
function untouchedSince(before: SyncedRow | undefined, now: SyncedRow | undefined): boolean {
  if (!before || !now) return before === now;
  return sameValue(before.server, now.server);
}

// ---- lists of the read-only records ---------------------------------------------------------

/** A list endpoint, paged by `PullEngine.readList`. */
interface ListSpec {
  /** Under which name the page size that worked is remembered (`PAGE_SIZES_STATE`). */
  name: string;
  api: ApiName;
  path: string;
  query?: Record<string, string | number>;
  priority: Priority;
}

/**
 * The items of a list answer and its total where the interface gives one: version 2 in
 * `params.total` (its account activity in none), 0.0.1 in `total`. Null when it is no list.
 */
function listItems(data: unknown): { items: unknown[]; total: number | null } | null {
  if (!isObject(data) || !Array.isArray(data.items)) return null;
  const total = isObject(data.params) ? data.params.total : data.total;
  return { items: data.items, total: typeof total === 'number' ? total : null };
}

const createdAt = (item: unknown): string =>
  isObject(item) && typeof item.created_at === 'string' ? item.created_at : '';

/** What belongs to one member: their details and the per-member sections. */
const MEMBER_KEYS = ['details', ...SECTIONS.filter((s) => s.perMember).map((s) => s.path)];

export class PullEngine {
  private readonly db: AdvisorDb;
  private readonly send: Send;
  private readonly now: () => number;
  private readonly pageSizes: readonly number[];
  private readonly sweepIntervalMs: number;
  private readonly configMaxAgeMs: number;
  private readonly recentAccounts: number;
  private readonly deletionChecks: number;
  private readonly accountPulls = new Map<string, { priority: Priority; done: Promise<PullReport> }>();

  constructor(options: PullEngineOptions) {
    this.db = options.db;
    this.send = options.send;
    this.now = options.now ?? Date.now;
    this.pageSizes = options.pageSizes?.length ? [...options.pageSizes] : PAGE_SIZES;
    this.sweepIntervalMs = options.sweepIntervalMs ?? DAY_MS;
    this.configMaxAgeMs = options.configMaxAgeMs ?? DAY_MS;
    this.recentAccounts = options.recentAccounts ?? 10;
    this.deletionChecks = options.deletionChecks ?? 50;
  }

  // ---- the account list ----

  /**
   * The account list of version 2 (`type=all`: archived ones too), newest change first, with the
   * largest page the server accepts. Incremental: stops at the first page that reaches accounts
   * older than the newest change of the last pull. A sweep (every page) runs when `full` is set,
   * on the first pull and when the last sweep is older than `sweepIntervalMs`; it notices remote
   * deletions.
   */
  async pullAccountList(
    options: { full?: boolean; priority?: Priority; onProgress?: (p: PullProgress) => void } = {},
  ): Promise<PullReport> {
    const report = emptyReport();
    const priority = options.priority ?? 'background';
    const state = await this.readMeta<AccountListState>(ACCOUNT_LIST_STATE, {
      pageSize: null,
      newestUpdatedAt: null,
      pulledAt: null,
      sweptAt: null,
    });
    const sweep =
      options.full === true || state.sweptAt === null || this.now() - state.sweptAt >= this.sweepIntervalMs;
    // Read before paging: only accounts the server had before the sweep began can be missing from it.
    const known = sweep ? await this.knownAccounts() : null;
    const watermark = sweep ? null : state.newestUpdatedAt;
    const paged = await this.pageThrough(report, state, watermark, priority, options.onProgress);
    // A list cut short by a failure proves nothing about deletions, and must not move the watermark.
    if (!paged) return report;
    if (known) await this.noticeRemoteDeletions(known, paged.seen, report, priority);
    const newest = [paged.newest, state.newestUpdatedAt].filter((v) => v !== null).sort();
    const next: AccountListState = {
      ...state,
      newestUpdatedAt: newest.pop() ?? null,
      pulledAt: this.now(),
      sweptAt: sweep ? this.now() : state.sweptAt,
    };
    await this.db.meta.put({ key: ACCOUNT_LIST_STATE, value: next });
    return report;
  }

  /**
   * Pages through the list, newest change first, applying each page; without a watermark to the
   * end, with one until a page ends below it. Null when a page failed.
   */
  private async pageThrough(
    report: PullReport,
    state: AccountListState,
    watermark: string | null,
    priority: Priority,
    onProgress?: (p: PullProgress) => void,
  ): Promise<{ seen: Set<number>; newest: string | null } | null> {
    const seen = new Set<number>();
    let newest: string | null = null;
    for (let offset = 0; ;) {
      const page = await this.accountPage(report, state, offset, priority);
      if (!page) return null;
      await this.applyAccounts(page.items, report);
      for (const snapshot of page.items) seen.add(snapshot.serverId);
      newest ??= page.items[0]?.meta.updated_at ?? null;
      onProgress?.({ done: seen.size, total: watermark === null ? page.total : null });
      offset += page.limit;
      if (page.items.length < page.limit || (page.total !== null && offset >= page.total)) break;
      // Equal timestamps go on: another change may have happened within the same second.
      if (watermark !== null && (page.items.at(-1)?.meta.updated_at ?? '') < watermark) break;
    }
    return { seen, newest };
  }

  /** One page of the list; its size is probed by `listPage` and remembered in `state` (and `meta`). */
  private async accountPage(
    report: PullReport,
    state: AccountListState,
    offset: number,
    priority: Priority,
  ): Promise<{ items: AccountSnapshot[]; total: number | null; limit: number } | null> {
    const req: ApiRequest = {
      api: 'v2',
      method: 'GET',
      path: '/accounts',
      query: { type: 'all', sort: '-updated_at' },
      priority,
    };
    const page = await this.listPage(report, req, offset, state.pageSize, (limit) =>
      this.rememberPageSize(state, limit),
    );
    if (!page) return null;
    const read = listItems(page.data);
    if (!read) return this.unreadable(report, '/accounts');
    const items = read.items.map(accountSnapshot).filter((s): s is AccountSnapshot => s !== null);
    report.records += items.length;
    return { items, total: read.total, limit: page.limit };
  }

  private async rememberPageSize(state: AccountListState, pageSize: number): Promise<void> {
    state.pageSize = pageSize;
    const stored = await this.readMeta<AccountListState>(ACCOUNT_LIST_STATE, state);
    await this.db.meta.put({ key: ACCOUNT_LIST_STATE, value: { ...stored, pageSize } });
  }

  private async applyAccounts(snapshots: readonly AccountSnapshot[], report: PullReport): Promise<void> {
    if (snapshots.length === 0) return;
    const { db } = this;
    await db.transaction('rw', [db.accounts, db.outbox], async () => {
      const ids = snapshots.map((s) => s.serverId);
      const existing = new Map(
        (await db.accounts.where('serverId').anyOf(ids).toArray()).map((r) => [r.serverId, r]),
      );
      const uncertain = new Set(
        (await uncertainCreates(db, 'accounts')).map((op) => emailKey(op.fields['client.email'])),
      );
      uncertain.delete('');
      const updates: SnapshotUpdate<'accounts'>[] = [];
      for (const snapshot of snapshots) {
        const row = existing.get(snapshot.serverId);
        if (row ? !takesSnapshot(row, snapshot) : uncertain.has(emailKey(snapshot.fields['client.email'])))
          continue;
        updates.push({
          row: { ...(row ?? newAccountRow(snapshot)), meta: snapshot.meta },
          server: snapshot.fields,
        });
      }
      report.written += await applySnapshots(db, 'accounts', updates);
    });
  }

  /** Server id → local account, for the accounts known to be on the server. */
  private async knownAccounts(): Promise<Map<number, string>> {
    const known = new Map<number, string>();
    // A key cursor: the index alone, no row is read.
    await this.db.accounts.orderBy('serverId').eachKey((serverId, cursor) => {
      if (typeof serverId === 'number') known.set(serverId, String(cursor.primaryKey));
    });
    return known;
  }

  /**
   * Accounts a complete sweep did not list are asked for one by one (up to `deletionChecks`):
   * offset paging skips a record when another is deleted meanwhile, so absence alone is no proof.
   */
  private async noticeRemoteDeletions(
    known: Map<number, string>,
    seen: Set<number>,
    report: PullReport,
    priority: Priority,
  ): Promise<void> {
    const missing = [...known].filter(([serverId]) => !seen.has(serverId)).slice(0, this.deletionChecks);
    await Promise.all(
      missing.map(([serverId, localId]) => this.confirmAccount(serverId, localId, report, priority)),
    );
  }

  /** Refreshes one account; a 404 means it is gone from the server. Returns its snapshot. */
  private async confirmAccount(
    serverId: number,
    localId: string,
    report: PullReport,
    priority: Priority,
  ): Promise<AccountSnapshot | null> {
    const path = `/accounts/${serverId}`;
    const result = await this.call(report, { api: 'v2', method: 'GET', path, priority });
    if (!result.ok && result.kind === 'not-found') {
      const row = await this.db.accounts.get(localId);
      if (row && row.serverId === serverId) await accountGoneFromServer(this.db, row, this.now(), report);
      return null;
    }
    if (!result.ok) return this.failed(report, path, result);
    const snapshot = accountSnapshot(result.data);
    if (!snapshot) return this.unreadable(report, path);
    report.records += 1;
    await this.applyAccounts([snapshot], report);
    return snapshot;
  }

  // ---- one account ----

  /**
   * The account, the full details of its members and every section (about twenty requests; the
   * co-client's only when there is one), and with them its read-only extras (`pullAccountExtras`:
   * 3 requests, 4 with a co-client), all in the report: 21 requests, 25 with a co-client. Parts
   * that fail keep their local data and are listed in the report; `pulledAt` is set only when
   * every part arrived. Concurrent pulls of one account share one run, unless the new one is
   * interactive and the running one is not.
   */
  async pullAccount(localId: string, options: { priority?: Priority } = {}): Promise<PullReport> {
    const priority = options.priority ?? 'background';
    const running = this.accountPulls.get(localId);
    if (running && (running.priority === priority || priority === 'background')) return running.done;
    const done = this.pullAccountOnce(localId, priority).finally(() => {
      if (this.accountPulls.get(localId)?.done === done) this.accountPulls.delete(localId);
    });
    this.accountPulls.set(localId, { priority, done });
    return done;
  }

  private async pullAccountOnce(localId: string, priority: Priority): Promise<PullReport> {
    const report = emptyReport();
    const account = await this.db.accounts.get(localId);
    if (!account) throw new Error(`There is no local account ${localId} to pull.`);
    // Not on the server yet (an unsent create): there is nothing to pull.
    if (typeof account.serverId !== 'number') return { ...report, skipped: true };
    const snapshot = await this.confirmAccount(account.serverId, localId, report, priority);
    if (!snapshot) return report;
    const members: MemberRole[] = snapshot.meta.coclientId !== null ? ['client', 'coclient'] : ['client'];
    const before = await this.localBefore(localId);
    const [answers] = await Promise.all([
      Promise.all(
        accountParts(snapshot.serverId, members).map((part) => this.fetchPart(part, report, priority)),
      ),
      this.accountExtras(snapshot.serverId, members, report, priority),
    ]);
    const fetched = answers.filter((a): a is Fetched => a !== null);
    await this.applyAccountData(localId, fetched, before, members, report);
    if (report.failures.length === 0)
      await this.db.accounts.update(localId, {
        pulledAt: this.now(),
        pulledUpdatedAt: snapshot.meta.updated_at,
      });
    return report;
  }

  private async fetchPart(
    part: AccountPart,
    report: PullReport,
    priority: Priority,
  ): Promise<Fetched | null> {
    const result = await this.call(report, { api: 'v0', method: 'GET', path: part.path, priority });
    if (!result.ok) return this.failed(report, part.path, result);
    const readable = part.kind === 'collection' ? Array.isArray(result.data) : isObject(result.data);
    if (!readable) return this.unreadable(report, part.path);
    report.records += Array.isArray(result.data) ? result.data.length : 1;
    return { part, data: result.data };
  }

  private async localBefore(accountId: string): Promise<LocalBefore> {
    const items = await this.db.sectionItems.where('accountId').equals(accountId).toArray();
    const singles = await this.db.singles.where('accountId').equals(accountId).toArray();
    return {
      items: new Map(items.filter((r) => r.serverId !== null).map((r) => [String(r.serverId), r])),
      singles: new Map(singles.map((r) => [r.id, r])),
    };
  }

  private async applyAccountData(
    accountId: string,
    fetched: readonly Fetched[],
    before: LocalBefore,
    members: readonly MemberRole[],
    report: PullReport,
  ): Promise<void> {
    const { db } = this;
    await db.transaction('rw', [db.accounts, db.sectionItems, db.singles, db.outbox, db.meta], async () => {
      await this.applySingles(accountId, fetched, before, report);
      await this.applyCollections(accountId, fetched, before, report);
      if (!members.includes('coclient')) await this.dropCoclientData(accountId, before, report);
    });
  }

  private async applySingles(
    accountId: string,
    fetched: readonly Fetched[],
    before: LocalBefore,
    report: PullReport,
  ) {
    const parts = fetched.filter((f) => f.part.kind !== 'collection');
    const ids = parts.map((f) => singleRowId(accountId, f.part.key));
    const current = await this.db.singles.bulkGet(ids);
    const updates: SnapshotUpdate<'singles'>[] = [];
    for (const [i, { part, data }] of parts.entries()) {
      const row = current[i];
      if (!untouchedSince(before.singles.get(ids[i]!), row)) continue;
      const server = part.kind === 'details' ? detailsFields(data) : singleFields(data);
      if (row && !row.deletedOnServer && sameValue(row.server, server)) continue;
      updates.push({ row: row ?? newSingleRow(accountId, part.key), server });
    }
    report.written += await applySnapshots(this.db, 'singles', updates);
  }

  /**
   * Every collection at once: local ids are settled for all items and every item a relation
   * points at before any relation is translated, so the order of the sections does not matter,
   * and a relation to an item that is not there (yet) keeps a reserved id the item will adopt.
   */
  private async applyCollections(
    accountId: string,
    fetched: readonly Fetched[],
    before: LocalBefore,
    report: PullReport,
  ) {
    const { db } = this;
    const lists = fetched.filter((f) => f.part.kind === 'collection').map(collectionList);
    const serverIds = lists.flatMap((list) => [
      ...list.items.map((item) => item.id),
      ...list.items.flatMap((item) => relationTargets(list.section, item)),
    ]);
    const current = await db.sectionItems.where('accountId').equals(accountId).toArray();
    const context: ItemContext = {
      accountId,
      before,
      ids: await itemLocalIds(db, accountId, serverIds),
      now: new Map(current.filter((r) => r.serverId !== null).map((r) => [String(r.serverId), r])),
      uncertain: await this.uncertainSections(accountId),
    };
    const updates = lists.flatMap((list) => itemUpdates(list, context));
    const gone = lists.flatMap((list) => missingItems(list, before, context.now));
    report.written += await applySnapshots(db, 'sectionItems', updates);
    await releaseLocalIds(
      db,
      accountId,
      updates.map((u) => String(u.row.serverId)),
    );
    if (gone.length > 0) await goneFromServer(db, 'sectionItems', gone, this.now(), report);
  }

  /** Section keys of the account with a create whose outcome is unknown (see `uncertainCreates`). */
  private async uncertainSections(accountId: string): Promise<Set<string>> {
    const ops = await uncertainCreates(this.db, 'sectionItems');
    const rows = await this.db.sectionItems.bulkGet(ops.map((op) => op.recordId));
    return new Set(rows.filter((r) => r?.accountId === accountId).map((r) => r!.section));
  }

  /**
   * The co-client was removed on the server: their details, income and employment go too, as far
   * as the server had them before the requests went out and nobody wrote them since. A co-client
   * added here (not sent yet, or sent while this pull ran) is not gone: their records are on their
   * way to the server.
   */
  private async dropCoclientData(accountId: string, before: LocalBefore, report: PullReport): Promise<void> {
    const keys = MEMBER_KEYS.map((k) => `${k}:coclient`);
    const singles = (
      await this.db.singles
        .where('[accountId+key]')
        .anyOf(keys.map((k) => [accountId, k]))
        .toArray()
    ).filter((row) => {
      const was = before.singles.get(row.id);
      return was?.server != null && untouchedSince(was, row);
    });
    const items = (
      await this.db.sectionItems
        .where('[accountId+section]')
        .anyOf(keys.map((k) => [accountId, k]))
        .toArray()
    ).filter((row) => {
      const was = row.serverId === null ? undefined : before.items.get(String(row.serverId));
      return was !== undefined && untouchedSince(was, row);
    });
    const now = this.now();
    if (singles.length > 0) await goneFromServer(this.db, 'singles', singles, now, report);
    if (items.length > 0) await goneFromServer(this.db, 'sectionItems', items, now, report);
  }

  // ---- accounts kept offline ----

  /**
   * Pulls, in the background and one after another, the accounts marked available offline, the
   * favorites and the `recentAccounts` most recently opened, least recently pulled first. With
   * `skipUnchanged` (default), an account whose `updated_at` (from the last list pull) is still
   * the one of its last whole pull is left alone: the platform moves `updated_at` on every
   * change of the account and its data, so nothing changed.
   */
  async pullOfflineAccounts(
    options: { recent?: number; skipUnchanged?: boolean; onProgress?: (p: PullProgress) => void } = {},
  ): Promise<PullReport> {
    const report = emptyReport();
    const accounts = await this.offlineCandidates(options.recent ?? this.recentAccounts);
    const due = accounts.filter(
      (a) =>
        options.skipUnchanged === false || a.pulledAt === null || a.pulledUpdatedAt !== a.meta.updated_at,
    );
    report.skipped = due.length === 0;
    for (const [i, account] of due.entries()) {
      options.onProgress?.({ done: i, total: due.length });
      addReport(report, await this.pullAccount(account.id, { priority: 'background' }));
    }
    options.onProgress?.({ done: due.length, total: due.length });
    return report;
  }

  private async offlineCandidates(recent: number): Promise<AccountRow[]> {
    const { accounts } = this.db;
    const ids = new Set([
      ...(await accounts.where('availableOffline').equals(1).primaryKeys()),
      ...(await accounts.where('favorited').equals(1).primaryKeys()),
      ...(recent > 0 ? await accounts.orderBy('openedAt').reverse().limit(recent).primaryKeys() : []),
    ]);
    const rows = (await accounts.bulkGet([...ids])).filter(
      (r): r is AccountRow => r !== undefined && typeof r.serverId === 'number' && !r.deletedOnServer,
    );
    return rows.sort((a, b) => (a.pulledAt ?? -Infinity) - (b.pulledAt ?? -Infinity));
  }

  // ---- configuration ----

  /**
   * Icons, activity types, the dataset, the user (permissions, teams, pipelines, templates), the
   * structure of each of the user's templates, and from 0.0.1 the user (company details) and its
   * templates (the keys forms are sent with), into their tables (data/config.ts), each with the time it
   * was pulled. Skipped when pulled within `configMaxAgeMs`, unless `force`.
   */
  async pullConfig(options: { force?: boolean; priority?: Priority } = {}): Promise<PullReport> {
    const report = emptyReport();
    const last = await this.readMeta<{ pulledAt: number | null }>(CONFIG_STATE, { pulledAt: null });
    if (!options.force && last.pulledAt !== null && this.now() - last.pulledAt < this.configMaxAgeMs)
      return { ...report, skipped: true };
    const priority = options.priority ?? 'background';
    const parts: [ConfigKey, ApiName, string][] = [
      [CONFIG_KEYS.icons, 'v2', '/config/icons'],
      [CONFIG_KEYS.activities, 'v2', '/config/activities'],
      [CONFIG_KEYS.dataset, 'v2', '/config/dataset'],
      [CONFIG_KEYS.user, 'v2', '/user'],
      [CONFIG_KEYS.userV0, 'v0', '/user'],
      [CONFIG_KEYS.formTemplates, 'v0', '/user/templates'],
    ];
    const answers = await Promise.all(
      parts.map(([, api, path]) => this.fetchData(report, { api, method: 'GET', path, priority })),
    );
    const entries: [ConfigKey, ConfigEntry][] = parts
      .map(([key], i): [ConfigKey, ConfigEntry] => [key, { pulledAt: this.now(), data: answers[i] }])
      .filter((_, i) => answers[i] !== undefined);
    const templates = await this.templateStructures(answers[3], report, priority);
    if (templates) entries.push([CONFIG_KEYS.templates, { pulledAt: this.now(), data: templates }]);
    report.records += entries.length;
    await this.db.transaction('rw', [...CONFIG_TABLES, 'meta'], async () => {
      await putConfigEntries(this.db, entries);
      if (report.failures.length === 0)
        await this.db.meta.put({ key: CONFIG_STATE, value: { pulledAt: this.now() } });
    });
    return report;
  }

  /** The structure of each template of the user resource, by template id; null if any failed. */
  private async templateStructures(
    user: unknown,
    report: PullReport,
    priority: Priority,
  ): Promise<Record<string, unknown> | null> {
    if (!isObject(user) || !Array.isArray(user.templates)) return null;
    const ids = user.templates.filter(isObject).map((t) => String(t.id));
    const structures = await Promise.all(
      ids.map((id) =>
        this.fetchData(report, {
          api: 'v2',
          method: 'GET',
          path: `/config/template/${encodeURIComponent(id)}`,
          priority,
        }),
      ),
    );
    if (structures.some((s) => s === undefined)) return null;
    return Object.fromEntries(ids.map((id, i) => [id, structures[i]]));
  }

  // ---- read-only records ----

  /**
   * What an account's screen shows besides its data: each member's security (0.0.1), the profile
   * values and the newest page of activity (version 2). 3 requests, 4 with a co-client. Part of
   * every `pullAccount`; on its own for a screen that needs only these.
   */
  async pullAccountExtras(localId: string, options: { priority?: Priority } = {}): Promise<PullReport> {
    const report = emptyReport();
    const account = await this.serverAccount(localId);
    if (!account) return { ...report, skipped: true };
    const members: MemberRole[] = account.meta.coclientId !== null ? ['client', 'coclient'] : ['client'];
    await this.accountExtras(account.serverId, members, report, options.priority ?? 'background');
    return report;
  }

  /**
   * An account's activity, newest first: `pages` pages (default all), for a screen scrolled past
   * what the account pull brought. Rows the pages reach that the server no longer lists go.
   */
  async pullAccountActivity(
    localId: string,
    options: { pages?: number; priority?: Priority } = {},
  ): Promise<PullReport> {
    const report = emptyReport();
    const account = await this.serverAccount(localId);
    if (!account) return { ...report, skipped: true };
    await this.readAccountActivity(account.serverId, options.pages ?? Infinity, report, options.priority);
    return report;
  }

  private async accountExtras(
    serverId: number,
    members: readonly MemberRole[],
    report: PullReport,
    priority: Priority,
  ): Promise<void> {
    await Promise.all([
      this.pullSecurity(serverId, members, report, priority),
      this.pullProfile(serverId, report, priority),
      this.readAccountActivity(serverId, 1, report, priority),
    ]);
  }

  /** Each member's security; a member the account no longer has loses theirs. */
  private async pullSecurity(
    serverId: number,
    members: readonly MemberRole[],
    report: PullReport,
    priority: Priority,
  ): Promise<void> {
    const answers = await Promise.all(
      members.map((member) =>
        this.fetchData(
          report,
          { api: 'v0', method: 'GET', path: `/accounts/${serverId}/${member}/security`, priority },
          isObject,
        ),
      ),
    );
    const now = this.now();
    const rows = rowsOf(answers, (answer, i) => memberSecurityRow(answer, serverId, members[i]!, now));
    const failed = new Set(members.filter((_, i) => answers[i] === undefined));
    await this.storeList(report, this.db.memberSecurity, rows, {
      scope: (t) => t.where('accountServerId').equals(serverId),
      covers: (row) => !failed.has(row.member),
    });
  }

  private async pullProfile(serverId: number, report: PullReport, priority: Priority): Promise<void> {
    const path = `/accounts/${serverId}/profile`;
    const values = await this.fetchArray(report, { api: 'v2', method: 'GET', path, priority });
    if (!values) return;
    const now = this.now();
    await this.storeList(
      report,
      this.db.profileValues,
      rowsOf(values, (value) => profileValueRow(value, serverId, now)),
      { scope: (t) => t.where('accountServerId').equals(serverId) },
    );
  }

  private async readAccountActivity(
    serverId: number,
    pages: number,
    report: PullReport,
    priority: Priority = 'background',
  ): Promise<void> {
    const path = `/accounts/${serverId}/activity`;
    const spec: ListSpec = { name: 'activity', api: 'v2', path, query: { sort: '-created_at' }, priority };
    const list = await this.readList(report, spec, { pages });
    if (!list) return;
    const now = this.now();
    const rows = rowsOf(list.items, (item) => accountActivityRow(item, serverId, now));
    // Newest first: a part read speaks for every row after its oldest (that second's others may
    // be on the next page).
    const oldest = rows.at(-1)?.createdAt ?? '';
    await this.storeList(report, this.db.accountActivity, rows, {
      scope: (t) => t.where('accountServerId').equals(serverId),
      ...(list.complete ? {} : { covers: (row) => row.createdAt > oldest }),
    });
  }

  /**
   * The engagement list (version 2): an account's (`accountId`, a local id) or every one the user
   * may see, all pages, the largest the platform takes. Not incremental: the list has no time of
   * change to sort by (no `updated_at`; a reopen, or a contact filling in answers, moves no sort
   * key to the front). Engagements the server no longer lists go, with their outputs.
   */
  async pullEngagements(
    options: { accountId?: string; priority?: Priority; onProgress?: (p: PullProgress) => void } = {},
  ): Promise<PullReport> {
    const report = emptyReport();
    const account = options.accountId === undefined ? undefined : await this.serverAccount(options.accountId);
    if (account === null) return { ...report, skipped: true };
    const spec: ListSpec = {
      name: 'engagements',
      api: 'v2',
      path: '/engagements',
      query: { sort: '-created_at', ...(account ? { account_id: account.serverId } : {}) },
      priority: options.priority ?? 'background',
    };
    const list = await this.readList(report, spec, { onProgress: options.onProgress });
    if (!list) return report;
    const now = this.now();
    const rows = rowsOf(list.items, (item) => engagementRow(item, now));
    report.records += rows.length;
    const scope: StoreOptions<EngagementRow>['scope'] = account
      ? (t) => t.where('accountServerId').equals(account.serverId)
      : (t) => t.toCollection();
    const stored = await storeEngagements(this.db, rows, list.complete ? scope : undefined);
    report.written += stored.written;
    report.removed += stored.removed;
    return report;
  }

  /**
   * One engagement and its outputs, when it is opened: the engagement, its documents, signatures
   * and history, and its data once completed (the platform refuses the data of an open one). 4
   * requests, 5 when completed. A 404 removes it locally; `partsPulledAt` is set when all arrived.
   */
  async pullEngagement(id: string, options: { priority?: Priority } = {}): Promise<PullReport> {
    const report = emptyReport();
    const priority = options.priority ?? 'background';
    const path = `/engagements/${encodeURIComponent(id)}`;
    const result = await this.call(report, { api: 'v2', method: 'GET', path, priority });
    if (!result.ok && result.kind === 'not-found') {
      report.removed += await removeEngagements(this.db, [id]);
      return report;
    }
    if (!result.ok) {
      this.failed(report, path, result);
      return report;
    }
    const row = engagementRow(result.data, this.now());
    if (!row || row.id !== id) {
      this.unreadable(report, path);
      return report;
    }
    report.records += 1;
    report.written += (await storeEngagements(this.db, [row])).written;
    const kinds = ['documents', 'signatures', 'history'] as const;
    await Promise.all([
      ...kinds.map((kind) => this.pullEngagementList(id, kind, report, priority)),
      // An open engagement has no data to read: none is kept (it had some before a reopen).
      row.completed ? this.pullEngagementData(id, report, priority) : this.storeParts(report, id, 'data', []),
    ]);
    if (report.failures.length === 0) await this.db.engagements.update(id, { partsPulledAt: this.now() });
    return report;
  }

  private async pullEngagementList(
    id: string,
    kind: Exclude<EngagementPartKind, 'data'>,
    report: PullReport,
    priority: Priority,
  ): Promise<void> {
    const path = `/engagements/${encodeURIComponent(id)}/${kind}`;
    const list = await this.readList(report, { name: kind, api: 'v2', path, priority });
    if (list) await this.storeParts(report, id, kind, list.items, list.complete);
  }

  private async pullEngagementData(id: string, report: PullReport, priority: Priority): Promise<void> {
    const path = `/engagements/${encodeURIComponent(id)}/data`;
    const items = await this.fetchArray(report, { api: 'v2', method: 'GET', path, priority });
    if (items) await this.storeParts(report, id, 'data', items);
  }

  /** One output of an engagement, in the platform's order; `complete`: rows it no longer has go. */
  private async storeParts(
    report: PullReport,
    id: string,
    kind: EngagementPartKind,
    items: readonly unknown[],
    complete = true,
  ): Promise<void> {
    const now = this.now();
    const rows = rowsOf(items, (item, i) => engagementPartRow(kind, item, id, i, now));
    await this.storeList(report, this.db.engagementParts, rows, {
      ...(complete ? { scope: (t) => t.where('[engagementId+kind]').equals([id, kind]) } : {}),
    });
  }

  /**
   * Forms (0.0.1), one request: an account's (`accountId`, a local id), or every form of the
   * user (`/user/forms`). Forms the server no longer lists go.
   */
  async pullForms(options: { accountId?: string; priority?: Priority } = {}): Promise<PullReport> {
    const report = emptyReport();
    const account = options.accountId === undefined ? undefined : await this.serverAccount(options.accountId);
    if (account === null) return { ...report, skipped: true };
    const path = account ? `/accounts/${account.serverId}/forms` : '/user/forms';
    const priority = options.priority ?? 'background';
    const forms = await this.fetchArray(report, { api: 'v0', method: 'GET', path, priority });
    if (!forms) return report;
    const now = this.now();
    await this.storeList(
      report,
      this.db.forms,
      rowsOf(forms, (form) => formRow(form, now, account?.serverId)),
      {
        scope: account ? (t) => t.where('accountServerId').equals(account.serverId) : (t) => t.toCollection(),
      },
    );
    return report;
  }

  /** The metadata of the user's reports (0.0.1), one request; reports the server no longer lists go. */
  async pullReports(options: { priority?: Priority } = {}): Promise<PullReport> {
    const report = emptyReport();
    const priority = options.priority ?? 'background';
    const reports = await this.fetchArray(report, {
      api: 'v0',
      method: 'GET',
      path: '/user/reports',
      priority,
    });
    if (!reports) return report;
    const now = this.now();
    await this.storeList(
      report,
      this.db.reports,
      rowsOf(reports, (r) => reportRow(r, now)),
      { scope: (t) => t.toCollection() },
    );
    return report;
  }

  /**
   * The advisor's feed (0.0.1 `/user/activities`), as the account list: newest first, largest
   * page, incremental (stops at the first page that reaches below the newest item of the last
   * pull), and a sweep of every page when `full`, on the first pull and after `sweepIntervalMs`,
   * which removes what the feed no longer has (after a team switch, everything of the other team).
   */
  async pullUserActivity(
    options: { full?: boolean; priority?: Priority; onProgress?: (p: PullProgress) => void } = {},
  ): Promise<PullReport> {
    const report = emptyReport();
    const state = await this.readMeta<UserActivityState>(USER_ACTIVITY_STATE, {
      newestCreatedAt: null,
      pulledAt: null,
      sweptAt: null,
    });
    const sweep =
      options.full === true || state.sweptAt === null || this.now() - state.sweptAt >= this.sweepIntervalMs;
    const watermark = sweep ? null : state.newestCreatedAt;
    const spec: ListSpec = {
      name: 'userActivity',
      api: 'v0',
      path: '/user/activities',
      query: { sort: '-created_at' },
      priority: options.priority ?? 'background',
    };
    const list = await this.readList(report, spec, {
      onProgress: options.onProgress,
      // Equal timestamps go on: another item may have arrived within the same second.
      ...(watermark === null ? {} : { until: (page) => createdAt(page.at(-1)) < watermark }),
    });
    if (!list) return report;
    const now = this.now();
    const rows = rowsOf(list.items, (item) => userActivityRow(item, now));
    const swept = sweep && list.complete;
    await this.storeList(report, this.db.userActivity, rows, swept ? { scope: (t) => t.toCollection() } : {});
    const newest = [rows[0]?.createdAt ?? null, state.newestCreatedAt].filter((v) => v !== null).sort();
    const next: UserActivityState = {
      newestCreatedAt: newest.pop() ?? null,
      pulledAt: now,
      sweptAt: swept ? now : state.sweptAt,
    };
    await this.db.meta.put({ key: USER_ACTIVITY_STATE, value: next });
    return report;
  }

  /**
   * The advisor's statistics (0.0.1 `/user/stats`), counts per day from `start` to `end`
   * (`YYYY-MM-DD`; the platform's defaults, the last month, when left out), into `meta`
   * (`STATS_KEY`). One request.
   */
  async pullStats(options: { start?: string; end?: string; priority?: Priority } = {}): Promise<PullReport> {
    const report = emptyReport();
    const query: Record<string, string> = {};
    if (options.start) query.start_date = options.start;
    if (options.end) query.end_date = options.end;
    const stats = await this.fetchData(
      report,
      { api: 'v0', method: 'GET', path: '/user/stats', query, priority: options.priority ?? 'background' },
      isObject,
    );
    if (stats === undefined) return report;
    const value = {
      pulledAt: this.now(),
      start: options.start ?? null,
      end: options.end ?? null,
      data: stats,
    };
    await this.db.meta.put({ key: STATS_KEY, value });
    report.records += 1;
    report.written += 1;
    return report;
  }

  /** Stores pulled rows (`storeRecords`) and counts them in the report. */
  private async storeList<R extends RecordRow<unknown>>(
    report: PullReport,
    table: EntityTable<R, 'id'>,
    rows: readonly R[],
    options: StoreOptions<R> = {},
  ): Promise<void> {
    report.records += rows.length;
    const stored = await storeRecords(table, rows, options);
    report.written += stored.written;
    report.removed += stored.removed.length;
  }

  /** The local account, if it is on the server yet (null when not); throws when there is none. */
  private async serverAccount(localId: string): Promise<(AccountRow & { serverId: number }) | null> {
    const account = await this.db.accounts.get(localId);
    if (!account) throw new Error(`There is no local account ${localId} to pull.`);
    return typeof account.serverId === 'number' ? (account as AccountRow & { serverId: number }) : null;
  }

  // ---- plumbing ----

  /**
   * The answer's data, or undefined (recorded in the report) when the request failed or, given
   * `readable`, the answer is not of the expected shape.
   */
  private async fetchData(
    report: PullReport,
    req: ApiRequest,
    readable?: (data: unknown) => boolean,
  ): Promise<unknown> {
    const result = await this.call(report, req);
    if (!result.ok) {
      this.failed(report, req.path, result);
      return undefined;
    }
    if (readable && !readable(result.data)) {
      this.unreadable(report, req.path);
      return undefined;
    }
    return result.data;
  }

  /** An answer that must be an array, or null (recorded in the report). */
  private async fetchArray(report: PullReport, req: ApiRequest): Promise<unknown[] | null> {
    const data = await this.fetchData(report, req, Array.isArray);
    return data === undefined ? null : (data as unknown[]);
  }

  /**
   * Pages through a list with the largest page it accepts, newest first where the list is so
   * sorted: to its end, or `pages` pages, or until `until` says a page reached what is known.
   * `complete` tells whether the whole list arrived unchanged, and so proves that an item missing
   * from it is gone: every page read, and the total the platform gives (where it gives one) the
   * same on every page and equal to what arrived. Offset paging skips an item when another is
   * deleted meanwhile; then nothing may be removed.
   */
  private async readList(
    report: PullReport,
    spec: ListSpec,
    options: {
      pages?: number;
      until?: (page: readonly unknown[]) => boolean;
      onProgress?: ((p: PullProgress) => void) | undefined;
    } = {},
  ): Promise<{ items: unknown[]; complete: boolean } | null> {
    const req: ApiRequest = { api: spec.api, method: 'GET', path: spec.path, priority: spec.priority };
    if (spec.query) req.query = spec.query;
    const items: unknown[] = [];
    const totals = new Set<number>();
    for (let offset = 0, pages = 1; ; pages++) {
      const known = await this.listPageSize(spec.name);
      const page = await this.listPage(report, req, offset, known, (limit) =>
        this.rememberListPageSize(spec.name, limit),
      );
      if (!page) return null;
      const read = listItems(page.data);
      if (!read) return this.unreadable(report, spec.path);
      items.push(...read.items);
      if (read.total !== null) totals.add(read.total);
      options.onProgress?.({ done: items.length, total: read.total });
      offset += page.limit;
      if (read.items.length < page.limit || (read.total !== null && offset >= read.total)) {
        const complete = totals.size <= 1 && (read.total === null || items.length === read.total);
        return { items, complete };
      }
      if (pages >= (options.pages ?? Infinity) || options.until?.(read.items))
        return { items, complete: false };
    }
  }

  /**
   * One page of a list. The first page ever is the probe: the largest size first, the next on a
   * validation refusal (422); the size that worked is remembered (`remember`), and a remembered
   * size refused later is probed down again.
   */
  private async listPage(
    report: PullReport,
    req: ApiRequest,
    offset: number,
    known: number | null,
    remember: (limit: number) => Promise<void>,
  ): Promise<{ data: unknown; limit: number } | null> {
    // A size one list of an interface refused is not tried on its other lists.
    const ceiling = (await this.readMeta<Record<string, unknown>>(PAGE_SIZE_REFUSED_STATE, {}))[req.api];
    const sizes = (known === null ? this.pageSizes : this.pageSizes.filter((s) => s <= known)).filter(
      (s) => typeof ceiling !== 'number' || s < ceiling || s === known,
    );
    for (const limit of sizes.length > 0 ? sizes : [known ?? this.pageSizes.at(-1)!]) {
      const result = await this.call(report, { ...req, query: { ...req.query, limit, offset } });
      if (!result.ok && result.kind === 'validation') {
        await this.rememberRefusedSize(req.api, limit);
        continue;
      }
      if (!result.ok) return this.failed(report, req.path, result);
      if (known !== limit) await remember(limit);
      return { data: result.data, limit };
    }
    report.failures.push({
      path: req.path,
      kind: 'validation',
      status: 422,
      message: `The platform refused every page size tried (${sizes.join(', ')}).`,
    });
    return null;
  }

  private async rememberRefusedSize(api: string, limit: number): Promise<void> {
    await this.db.transaction('rw', this.db.meta, async () => {
      const refused = await this.readMeta<Record<string, unknown>>(PAGE_SIZE_REFUSED_STATE, {});
      const before = refused[api];
      if (typeof before === 'number' && before <= limit) return;
      await this.db.meta.put({ key: PAGE_SIZE_REFUSED_STATE, value: { ...refused, [api]: limit } });
    });
  }

  private async listPageSize(name: string): Promise<number | null> {
    const sizes = await this.readMeta<Record<string, unknown>>(PAGE_SIZES_STATE, {});
    const size = sizes[name];
    return typeof size === 'number' ? size : null;
  }

  private async rememberListPageSize(name: string, limit: number): Promise<void> {
    // One transaction: lists paged side by side (an engagement's three) each remember theirs.
    await this.db.transaction('rw', this.db.meta, async () => {
      const sizes = await this.readMeta<Record<string, unknown>>(PAGE_SIZES_STATE, {});
      await this.db.meta.put({ key: PAGE_SIZES_STATE, value: { ...sizes, [name]: limit } });
    });
  }

  /** Every request of a pull goes through here, so the report counts them all. */
  private async call(report: PullReport, req: ApiRequest): Promise<ApiResult> {
    report.requests += 1;
    try {
      return await this.send(req);
    } catch (error) {
      return {
        ok: false,
        kind: 'network',
        status: null,
        message: error instanceof Error ? error.message : 'The request could not be sent.',
        fields: {},
        retryAfterMs: null,
      };
    }
  }

  /** Records a failed request in the report; null, for the caller to return. */
  private failed(report: PullReport, path: string, result: ApiResult): null {
    if (!result.ok)
      report.failures.push({ path, kind: result.kind, status: result.status, message: result.message });
    return null;
  }

  private unreadable(report: PullReport, path: string): null {
    report.failures.push({
      path,
      kind: 'unreadable',
      status: null,
      message: 'The platform answered in an unexpected shape.',
    });
    return null;
  }

  private async readMeta<T>(key: string, fallback: T): Promise<T> {
    const value = (await this.db.meta.get(key))?.value;
    return isObject(value) ? { ...fallback, ...value } : fallback;
  }
}
