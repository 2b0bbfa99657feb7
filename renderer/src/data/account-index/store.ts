// The list index of each open store: built when the store opens from the `accountEntries` table
// (each account's compact entry, entry.ts), kept in step by a DBCore middleware that applies every
// write of the accounts table as it is made (any code path: the change module, pulls, deletions)
// and writes the accounts' entries in the same transaction, and by other windows of the same
// store, which name the accounts they wrote on a BroadcastChannel once their transaction commits.

import type {
  DBCore,
  DBCoreMutateRequest,
  DBCoreMutateResponse,
  DBCoreTable,
  DBCoreTransaction,
  Middleware,
} from 'dexie';
import type { AdvisorDb } from '../db.ts';
import type { AccountRow } from '../model.ts';
import { pipelineStages } from '../config.ts';
import { stageRank } from '../queries/account-sort.ts';
import { storeChannel, type Channel } from '../store-channel.ts';
import { storedEntryOf } from './entry.ts';
import { AccountListIndex, type StageRank } from './list-index.ts';
import { RecentRows } from './recent-rows.ts';

/** The table of the accounts' entries (schema version 8). */
export const ENTRIES_TABLE = 'accountEntries';

export interface AccountIndex {
  /** The index itself; read it once `ready`. */
  readonly list: AccountListIndex;
  /** Whether the store's accounts have been read into it. */
  readonly ready: boolean;
  /** Resolves once `ready`; rejects if the store could not be read. */
  readonly whenReady: Promise<void>;
  /** Calls `changed` after each batch of writes applied (once per task at most); returns the unsubscribe. */
  subscribe(changed: () => void): () => void;
  /** The pipeline stages' positions: the same function while the user resource's stages stay the same. */
  stages(): Promise<StageRank>;
  /** The rows written while the accounts are being written (recent-rows.ts). */
  readonly recent: RecentRows;
}

/**
 * The accounts with one of `terms` among their search terms (accounts.ts, searchColumn: names and
 * emails lower-cased and folded), each once, by term then id; read from the store by id.
 */
export async function accountsWithTerms(db: AdvisorDb, terms: readonly string[]): Promise<AccountRow[]> {
  const index = accountIndex(db);
  await index.whenReady;
  const rows = await db.accounts.bulkGet(index.list.withTerms(terms, true));
  return rows.filter((r): r is AccountRow => r !== undefined);
}

const indexes = new WeakMap<AdvisorDb, Kept>();

/** The store's index, built on first use (current-store.ts asks for it as the store opens). */
export function accountIndex(db: AdvisorDb): AccountIndex {
  let kept = indexes.get(db);
  if (!kept) indexes.set(db, (kept = new Kept(db)));
  return kept;
}

/** The store is closed: its index lets go of the other windows' notices (and of its entries). */
export function forgetAccountIndex(db: AdvisorDb): void {
  indexes.get(db)?.close();
  indexes.delete(db);
}

const channelName = (db: AdvisorDb) => `advisor-desk:accounts:${db.name}`;

class Kept implements AccountIndex {
  readonly list = new AccountListIndex();
  readonly recent = new RecentRows();
  ready = false;
  whenReady: Promise<void>;
  private readonly listeners = new Set<() => void>();
  private notifying = false;
  /** Writes seen while the store is read: applied over what the read found. */
  private pending: { puts: AccountRow[]; deletes: string[] }[] | null = [];
  private staged: { key: string; rank: StageRank } | null = null;
  private channel: Channel | null = null;

  constructor(private readonly db: AdvisorDb) {
    this.whenReady = this.build();
    this.whenReady.catch(() => undefined);
    this.listen();
  }

  private async build(): Promise<void> {
    this.pending = [];
    this.list.reset(await this.db.accountEntries.toArray());
    for (const w of this.pending) this.list.apply(w.puts, w.deletes);
    this.pending = null;
    this.ready = true;
    this.changed();
  }

  /** Read the store again (after a write that was undone, or one this index cannot follow row by row). */
  rebuild(): void {
    if (this.pending) return void this.whenReady.then(() => this.rebuild());
    this.whenReady = this.build();
    this.whenReady.catch(() => undefined);
  }

  written(puts: AccountRow[], deletes: string[]): void {
    if (this.pending) this.pending.push({ puts, deletes });
    else {
      this.list.apply(puts, deletes);
      this.changed();
    }
  }

  private changed(): void {
    if (this.notifying) return;
    this.notifying = true;
    queueMicrotask(() => {
      this.notifying = false;
      for (const listener of [...this.listeners]) listener();
    });
  }

  subscribe(changed: () => void): () => void {
    this.listeners.add(changed);
    return () => this.listeners.delete(changed);
  }

  async stages(): Promise<StageRank> {
    const stages = await pipelineStages(this.db);
    // The same stages in the same order keep the pipeline order already sorted.
    const key = stages.map((s) => s.id).join('\u0000');
    if (this.staged?.key !== key) this.staged = { key, rank: stageRank(stages) };
    return this.staged.rank;
  }

  /** Another window of this store names the accounts it wrote: they are read again here. */
  private listen(): void {
    const channel = storeChannel(channelName(this.db));
    if (!channel) return;
    channel.onmessage = (event) => {
      const ids = (event.data as { ids?: unknown } | null)?.ids as string[] | undefined;
      if (!Array.isArray(ids) || !this.db.isOpen()) return;
      // What this window holds of them is older than the other window's write.
      this.recent.forget(ids);
      void this.db.accounts.bulkGet(ids).then((rows) => {
        const puts = rows.filter((r): r is AccountRow => r !== undefined);
        this.written(
          puts,
          ids.filter((_, i) => rows[i] === undefined),
        );
      });
    };
    this.channel = channel;
  }

  close(): void {
    this.recent.clear();
    if (this.channel) this.channel.onmessage = null;
    this.channel?.close();
    this.channel = null;
  }

  /** Names the accounts a committed transaction wrote, for the other windows of this store. */
  announce(ids: string[]): void {
    if (ids.length === 0 || !this.channel) return;
    this.channel.postMessage({ ids });
  }
}

/** The accounts a transaction wrote, announced when it commits; a transaction undone reads the store again. */
const touched = new WeakMap<DBCoreTransaction, Set<string>>();

function follow(kept: Kept, trans: DBCoreTransaction): Set<string> {
  let ids = touched.get(trans);
  if (ids) return ids;
  touched.set(trans, (ids = new Set()));
  const events = trans as unknown as Partial<EventTarget>;
  events.addEventListener?.('complete', () => kept.announce([...ids]));
  events.addEventListener?.('abort', () => kept.rebuild());
  return ids;
}

/**
 * A read-write transaction of the accounts, from its start: a read of them begun meanwhile waits
 * for it to end, so the rows written lately are shown from memory until it has (recent-rows.ts).
 */
function writing(recent: RecentRows, trans: DBCoreTransaction): void {
  const events = trans as unknown as Partial<EventTarget>;
  if (!events.addEventListener) return;
  recent.begun();
  events.addEventListener('complete', () => recent.ended());
  events.addEventListener('abort', () => {
    // The rows it wrote were never stored.
    recent.clear();
    recent.ended();
  });
}

function applied(db: AdvisorDb, req: DBCoreMutateRequest, res: DBCoreMutateResponse): void {
  const kept = indexes.get(db);
  if (!kept) return; // no index yet: it reads the store when built
  const ids = follow(kept, req.trans);
  const failed = new Set(Object.keys(res.failures ?? {}).map(Number));
  switch (req.type) {
    case 'add':
    case 'put': {
      const puts = (req.values as AccountRow[]).filter((_, i) => !failed.has(i));
      for (const row of puts) ids.add(row.id);
      kept.recent.put(puts);
      kept.written(puts, []);
      return;
    }
    case 'delete': {
      const keys = (req.keys as string[]).filter((_, i) => !failed.has(i));
      for (const id of keys) ids.add(id);
      kept.recent.forget(keys);
      kept.written([], keys);
      return;
    }
    case 'deleteRange':
      // A whole table cleared, or a range of ids: read the store again (rare).
      kept.recent.clear();
      kept.rebuild();
  }
}

/** Whether a transaction holds the entries' table (not in the upgrades of versions before 8). */
const holdsEntries = (trans: DBCoreTransaction) =>
  (trans as unknown as { objectStoreNames?: { contains(name: string): boolean } }).objectStoreNames?.contains(
    ENTRIES_TABLE,
  ) ?? false;

/** The accounts' entries written as the rows are, in the same transaction. */
async function mirror(
  entries: () => DBCoreTable,
  req: DBCoreMutateRequest,
  res: DBCoreMutateResponse,
): Promise<void> {
  if (!holdsEntries(req.trans)) return;
  const failed = new Set(Object.keys(res.failures ?? {}).map(Number));
  const { trans } = req;
  switch (req.type) {
    case 'add':
    case 'put': {
      const values = (req.values as AccountRow[]).filter((_, i) => !failed.has(i)).map(storedEntryOf);
      if (values.length) await entries().mutate({ type: 'put', trans, values });
      return;
    }
    case 'delete': {
      const keys = (req.keys as string[]).filter((_, i) => !failed.has(i));
      if (keys.length) await entries().mutate({ type: 'delete', trans, keys });
      return;
    }
    case 'deleteRange':
      await entries().mutate({ type: 'deleteRange', trans, range: req.range });
  }
}

/**
 * The middleware that keeps the accounts' entries and the store's list index in step with every
 * write of its accounts: a read-write transaction of the accounts also holds their entries.
 */
export const accountIndexMiddleware = (db: AdvisorDb): Middleware<DBCore> => ({
  stack: 'dbcore',
  name: 'accountIndex',
  create: (down: DBCore): DBCore => ({
    ...down,
    transaction: (stores, mode, options) => {
      const writes = mode === 'readwrite' && stores.includes('accounts');
      const trans = down.transaction(
        writes && !stores.includes(ENTRIES_TABLE) ? [...stores, ENTRIES_TABLE] : stores,
        mode,
        options,
      );
      const kept = indexes.get(db);
      if (writes && kept) writing(kept.recent, trans);
      return trans;
    },
    table: (tableName) => {
      const table = down.table(tableName);
      if (tableName !== 'accounts') return table;
      const entries = () => down.table(ENTRIES_TABLE);
      return {
        ...table,
        mutate: async (req: DBCoreMutateRequest) => {
          const res = await table.mutate(req);
          await mirror(entries, req, res);
          applied(db, req, res);
          return res;
        },
      };
    },
  }),
});
