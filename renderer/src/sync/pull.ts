// Pulls from the platform into the local store within the request budget (DESIGN.md §3, "Pull and
// the request budget"): the account list (largest page, incremental by updated_at, a periodic
// sweep that notices remote deletions), one account's details and sections, the accounts kept
// offline, and configuration. Every snapshot goes through `applySnapshots`, so a pull never
// overwrites a pending local change.

import type { ApiErrorKind, ApiRequest, ApiResult, Priority } from '../../../shared/api/request.ts';
import {
  SECTIONS,
  sectionKey,
  sectionPath,
  type MemberRole,
  type SectionDescriptor,
} from '../../../shared/sections.ts';
import { accountIndex } from '../data/accounts.ts';
import type { AdvisorDb } from '../data/db.ts';
import { CONFIG_KEYS, pendingOps } from '../data/queries.ts';
import {
  accountSnapshot,
  detailsFields,
  itemLocalIds,
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
  Fields,
  MetaRow,
  Operation,
  SectionItemRow,
  SingleRow,
  SyncedRow,
  SyncedTable,
} from '../data/model.ts';
import { localView, sameValue } from '../data/view.ts';

/** The port every platform call goes through (the transport, over the bridge or in-process). */
export type Send = (req: ApiRequest) => Promise<ApiResult>;

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

const DAY_MS = 24 * 60 * 60_000;
const PAGE_SIZES = [500, 200, 100, 50] as const;

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
  await db.table(table).bulkDelete(rows.filter((r) => !pending.has(r.id)).map((r) => r.id));
  for (const row of kept) await db.table(table).update(row.id, { deletedOnServer: now });
  report.removed += rows.length - kept.length;
  report.flagged += kept.length;
}

/**
 * An account deleted on the server: removed with its items, single sections and reserved ids,
 * unless a change is pending for it or anything of it; then kept and flagged `deletedOnServer`.
 */
async function accountGoneFromServer(
  db: AdvisorDb,
  account: AccountRow,
  now: number,
  report: PullReport,
): Promise<void> {
  await db.transaction('rw', [db.accounts, db.sectionItems, db.singles, db.outbox, db.meta], async () => {
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

  /**
   * One page of the list. The first page ever is the probe: the largest size first, the next on
   * a validation refusal (422); the size that worked is remembered in `state` (and in `meta`
   * with it), and a remembered size refused later is probed down again.
   */
  private async accountPage(
    report: PullReport,
    state: AccountListState,
    offset: number,
    priority: Priority,
  ): Promise<{ items: AccountSnapshot[]; total: number | null; limit: number } | null> {
    const sizes =
      state.pageSize === null ? this.pageSizes : this.pageSizes.filter((s) => s <= state.pageSize!);
    for (const limit of sizes.length > 0 ? sizes : [state.pageSize!]) {
      const query = { type: 'all', sort: '-updated_at', limit, offset };
      const result = await this.call(report, {
        api: 'v2',
        method: 'GET',
        path: '/accounts',
        query,
        priority,
      });
      if (!result.ok && result.kind === 'validation') continue;
      if (!result.ok) return this.failed(report, '/accounts', result);
      const data = result.data;
      if (!isObject(data) || !Array.isArray(data.items)) return this.unreadable(report, '/accounts');
      if (state.pageSize !== limit) await this.rememberPageSize(state, limit);
      const items = data.items.map(accountSnapshot).filter((s): s is AccountSnapshot => s !== null);
      const total = isObject(data.params) && typeof data.params.total === 'number' ? data.params.total : null;
      report.records += items.length;
      return { items, total, limit };
    }
    report.failures.push({
      path: '/accounts',
      kind: 'validation',
      status: 422,
      message: `The platform refused every page size tried (${sizes.join(', ')}).`,
    });
    return null;
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
   * co-client's only when there is one). Parts that fail keep their local data and are listed
   * in the report; `pulledAt` is set only when every part arrived. Concurrent pulls of one
   * account share one run, unless the new one is interactive and the running one is not.
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
    const answers = await Promise.all(
      accountParts(snapshot.serverId, members).map((part) => this.fetchPart(part, report, priority)),
    );
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
      if (!members.includes('coclient')) await this.dropCoclientData(accountId, report);
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

  /** The co-client was removed on the server: their details, income and employment go too. */
  private async dropCoclientData(accountId: string, report: PullReport): Promise<void> {
    const keys = MEMBER_KEYS.map((k) => `${k}:coclient`);
    const singles = await this.db.singles
      .where('[accountId+key]')
      .anyOf(keys.map((k) => [accountId, k]))
      .toArray();
    const items = await this.db.sectionItems
      .where('[accountId+section]')
      .anyOf(keys.map((k) => [accountId, k]))
      .toArray();
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
   * Icons, activity types, the dataset, the user (permissions, teams, pipelines, templates) and
   * the structure of each of the user's templates, into `meta` (`CONFIG_KEYS`), each with the
   * time it was pulled. Skipped when pulled within `configMaxAgeMs`, unless `force`.
   */
  async pullConfig(options: { force?: boolean; priority?: Priority } = {}): Promise<PullReport> {
    const report = emptyReport();
    const last = await this.readMeta<{ pulledAt: number | null }>(CONFIG_STATE, { pulledAt: null });
    if (!options.force && last.pulledAt !== null && this.now() - last.pulledAt < this.configMaxAgeMs)
      return { ...report, skipped: true };
    const priority = options.priority ?? 'background';
    const parts: [string, string][] = [
      [CONFIG_KEYS.icons, '/config/icons'],
      [CONFIG_KEYS.activities, '/config/activities'],
      [CONFIG_KEYS.dataset, '/config/dataset'],
      [CONFIG_KEYS.user, '/user'],
    ];
    const answers = await Promise.all(parts.map(([, path]) => this.getV2(report, path, priority)));
    const rows: MetaRow[] = parts
      .map(([key], i) => ({ key, value: { pulledAt: this.now(), data: answers[i] } }))
      .filter((_, i) => answers[i] !== undefined);
    const templates = await this.templateStructures(answers[3], report, priority);
    if (templates)
      rows.push({ key: CONFIG_KEYS.templates, value: { pulledAt: this.now(), data: templates } });
    report.records += rows.length;
    if (report.failures.length === 0) rows.push({ key: CONFIG_STATE, value: { pulledAt: this.now() } });
    await this.db.meta.bulkPut(rows);
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
      ids.map((id) => this.getV2(report, `/config/template/${encodeURIComponent(id)}`, priority)),
    );
    if (structures.some((s) => s === undefined)) return null;
    return Object.fromEntries(ids.map((id, i) => [id, structures[i]]));
  }

  /** The answer's data, or undefined (recorded in the report) when the request failed. */
  private async getV2(report: PullReport, path: string, priority: Priority): Promise<unknown> {
    const result = await this.call(report, { api: 'v2', method: 'GET', path, priority });
    if (result.ok) return result.data;
    this.failed(report, path, result);
    return undefined;
  }

  // ---- plumbing ----

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
