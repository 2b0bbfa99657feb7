// The engagement list in memory (one per open store): each engagement's compact entry (its filters,
// search terms and sort values, the text ones folded once), the search terms sorted for a prefix
// search (account-index/terms.ts) and each sort's order kept sorted once asked. It answers the
// count and ids of every query of the version 2 list (queries/engagements.ts). Built from the
// engagements table on first use and kept in step by a DBCore middleware of db.ts that applies
// every write of the table as it is made; a committed transaction names its engagements on a
// BroadcastChannel for the other windows of the same store. The table has no search index.

import type { DBCore, DBCoreMutateRequest, DBCoreMutateResponse, DBCoreTransaction, Middleware } from 'dexie';
import { foldText } from './accounts.ts';
import type { AdvisorDb } from './db.ts';
import type { EngagementRow } from './model.ts';
import { SearchTerms } from './account-index/terms.ts';
import { storeChannel, type Channel } from './store-channel.ts';
import { firstNotBefore, keyOrder } from './queries/order.ts';
import {
  ENGAGEMENT_SORT_KEYS,
  type EngagementSort,
  type EngagementSortKey,
} from './queries/engagement-sort.ts';

/** A sort value: a number, a text as [folded, as written], or null for none. */
type Value = number | readonly [folded: string, raw: string] | null;

export interface EngagementEntry {
  readonly id: string;
  readonly accountServerId: number;
  readonly memberId: number | null;
  readonly templateId: string;
  readonly completed: 0 | 1;
  readonly createdAt: string;
  /** `createdAt` folded, as the made order compares it (queries/order.ts, compareText). */
  readonly createdFolded: string;
  readonly search: readonly string[];
  readonly values: Readonly<Record<EngagementSortKey, Value>>;
  /** Set by the search of the moment on the entries it found. */
  found: number;
}

/** The filters of the list (queries/engagements.ts), the account as its server id. */
export interface EngagementFilter {
  accountServerId?: number;
  memberId?: number;
  templateId?: string;
  completed?: 0 | 1;
  /** Trimmed and lower-cased; '' for none. */
  search: string;
}

function entryOf(row: EngagementRow): EngagementEntry {
  const server = row.server as unknown as Record<string, unknown>;
  const values = {} as Record<EngagementSortKey, Value>;
  for (const key of ENGAGEMENT_SORT_KEYS) {
    const v = server[key];
    values[key] = typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? [foldText(v), v] : null;
  }
  const { id, accountServerId, memberId, templateId, completed, createdAt } = row;
  const createdFolded = foldText(createdAt);
  return {
    id,
    accountServerId,
    memberId,
    templateId,
    completed,
    createdAt,
    createdFolded,
    search: row.search ?? [],
    values,
    found: 0,
  };
}

const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** queries/engagements.ts, engagementComparator, over entries: the texts folded once. */
function compareEntries(sort: EngagementSort): (a: EngagementEntry, b: EngagementEntry) => number {
  const desc = sort.startsWith('-');
  const key = (desc ? sort.slice(1) : sort) as EngagementSortKey;
  const sign = desc ? -1 : 1;
  const byValue = (va: Value, vb: Value): number => {
    if (va === null || vb === null || typeof va === 'number' || typeof vb === 'number')
      return keyOrder(va as number | null, vb as number | null, sign);
    return (text(va[0], vb[0]) || text(va[1], vb[1])) * sign;
  };
  const made = (a: EngagementEntry, b: EngagementEntry) =>
    text(a.createdFolded, b.createdFolded) || text(a.createdAt, b.createdAt) || text(a.id, b.id);
  return (a, b) => byValue(a.values[key], b.values[key]) || made(a, b) * sign;
}

interface Order {
  entries: EngagementEntry[];
  compare: (a: EngagementEntry, b: EngagementEntry) => number;
}

/** Past this many rows in one write, the orders and terms are sorted again when next asked. */
const PATCH_LIMIT = 256;

export class EngagementListIndex {
  private readonly entries = new Map<string, EngagementEntry>();
  private readonly orders = new Map<EngagementSort, Order>();
  private readonly terms = new SearchTerms<EngagementEntry>(() => this.entries.values());
  private searches = 0;

  get size(): number {
    return this.entries.size;
  }

  reset(rows: readonly EngagementRow[]): void {
    this.entries.clear();
    this.orders.clear();
    this.terms.reset();
    for (const row of rows) this.entries.set(row.id, entryOf(row));
  }

  /** Rows written (put) and ids deleted, in the order they were written. */
  apply(puts: readonly EngagementRow[], deletes: readonly string[] = []): void {
    const size = puts.length + deletes.length;
    if (size > PATCH_LIMIT) {
      this.orders.clear();
      this.terms.reset();
    }
    const take = (id: string, next?: EngagementEntry) => {
      const old = this.entries.get(id);
      this.terms.replace(old ? [old] : [], next ? [next] : []);
      if (!old) return;
      this.entries.delete(id);
      for (const order of this.orders.values()) {
        const at: number = firstNotBefore(order.entries, old, order.compare);
        if (order.entries[at] === old) order.entries.splice(at, 1);
        else this.orders.clear(); // never expected: sorted again
      }
    };
    for (const row of puts) {
      const entry = entryOf(row);
      take(row.id, entry);
      this.entries.set(row.id, entry);
      for (const o of this.orders.values())
        o.entries.splice(firstNotBefore(o.entries, entry, o.compare), 0, entry);
    }
    for (const id of deletes) take(id);
  }

  private order(sort: EngagementSort): EngagementEntry[] {
    let order = this.orders.get(sort);
    if (!order) {
      const compare = compareEntries(sort);
      order = { entries: [...this.entries.values()].sort(compare), compare };
      this.orders.set(sort, order);
    }
    return order.entries;
  }

  /** The ids of the engagements a query selects, in its order: a title or name starting with the search. */
  ids(f: EngagementFilter, sort: EngagementSort): string[] {
    const mark = ++this.searches;
    if (f.search !== '') this.terms.starting(f.search, (e) => (e.found = mark));
    const ids: string[] = [];
    for (const e of this.order(sort))
      if (
        (f.search === '' || e.found === mark) &&
        (f.accountServerId === undefined || e.accountServerId === f.accountServerId) &&
        (f.memberId === undefined || e.memberId === f.memberId) &&
        (f.templateId === undefined || e.templateId === f.templateId) &&
        (f.completed === undefined || e.completed === f.completed)
      )
        ids.push(e.id);
    return ids;
  }
}

interface Kept {
  readonly list: EngagementListIndex;
  ready: boolean;
  whenReady: Promise<void>;
  /** Writes seen while the table is read: applied over what the read found. */
  pending: { puts: EngagementRow[]; deletes: string[] }[] | null;
  channel: Channel | null;
  /** The transactions that wrote engagements and have not yet committed or been undone. */
  open: number;
  /** Called when `open` comes back to 0. */
  settled: (() => void)[];
}

/**
 * Resolves once every transaction that wrote engagements has committed or been undone (an undone
 * one has the table read again), then once the index is read: what a query outside a transaction
 * waits for, so that it never lists a write that is being undone.
 */
export async function engagementsSettled(k: Kept): Promise<void> {
  if (k.open > 0) await new Promise<void>((resolve) => k.settled.push(resolve));
  await k.whenReady;
}

const kept = new WeakMap<AdvisorDb, Kept>();

function build(db: AdvisorDb, k: Kept): Promise<void> {
  k.pending = [];
  const read = db.engagements.toArray().then((rows) => {
    k.list.reset(rows);
    for (const w of k.pending ?? []) k.list.apply(w.puts, w.deletes);
    k.pending = null;
    k.ready = true;
  });
  read.catch(() => (k.pending = null));
  return read;
}

function written(k: Kept, puts: EngagementRow[], deletes: string[]): void {
  if (k.pending) k.pending.push({ puts, deletes });
  else k.list.apply(puts, deletes);
}

/** The store's engagement index, built on first use; read it once `ready` (await `whenReady`). */
export function engagementIndex(db: AdvisorDb): Kept {
  let k = kept.get(db);
  if (k) return k;
  k = {
    list: new EngagementListIndex(),
    ready: false,
    whenReady: Promise.resolve(),
    pending: null,
    channel: null,
    open: 0,
    settled: [],
  };
  kept.set(db, k);
  k.whenReady = build(db, k);
  const channel = storeChannel(`advisor-desk:engagements:${db.name}`);
  if (channel) {
    const self = k;
    channel.onmessage = (event) => {
      const ids = (event.data as { ids?: unknown } | null)?.ids;
      if (!Array.isArray(ids) || !db.isOpen()) return;
      void db.engagements.bulkGet(ids as string[]).then((rows) =>
        written(
          self,
          rows.filter((r): r is EngagementRow => r !== undefined),
          (ids as string[]).filter((_, i) => rows[i] === undefined),
        ),
      );
    };
    k.channel = channel;
  }
  return k;
}

/** The store is closed: its engagement index goes. */
export function forgetEngagementIndex(db: AdvisorDb): void {
  const k = kept.get(db);
  if (k?.channel) k.channel.onmessage = null;
  k?.channel?.close();
  kept.delete(db);
}

/** Read the table again (after a transaction undone, or a range deleted). */
function rebuild(db: AdvisorDb, k: Kept): void {
  k.ready = false;
  k.whenReady = k.whenReady.catch(() => undefined).then(() => build(db, k));
}

const touched = new WeakMap<DBCoreTransaction, Set<string>>();

function applied(db: AdvisorDb, req: DBCoreMutateRequest, res: DBCoreMutateResponse): void {
  const k = kept.get(db);
  if (!k) return; // no index yet: it reads the table when built
  let ids = touched.get(req.trans);
  if (!ids) {
    const seen = (ids = new Set<string>());
    touched.set(req.trans, seen);
    const events = req.trans as unknown as Partial<EventTarget>;
    const settle = () => {
      if (--k.open === 0) for (const resolve of k.settled.splice(0)) resolve();
    };
    if (events.addEventListener) k.open++;
    events.addEventListener?.('complete', () => {
      if (seen.size) k.channel?.postMessage({ ids: [...seen] });
      settle();
    });
    events.addEventListener?.('abort', () => {
      rebuild(db, k);
      settle();
    });
  }
  const failed = new Set(Object.keys(res.failures ?? {}).map(Number));
  if (req.type === 'add' || req.type === 'put') {
    const puts = (req.values as EngagementRow[]).filter((_, i) => !failed.has(i));
    for (const row of puts) ids.add(row.id);
    written(k, puts, []);
  } else if (req.type === 'delete') {
    const keys = (req.keys as string[]).filter((_, i) => !failed.has(i));
    for (const id of keys) ids.add(id);
    written(k, [], keys);
  } else rebuild(db, k);
}

/** The middleware that keeps the store's engagement index in step with every write of its engagements. */
export const engagementIndexMiddleware = (db: AdvisorDb): Middleware<DBCore> => ({
  stack: 'dbcore',
  name: 'engagementIndex',
  create: (down: DBCore): DBCore => ({
    ...down,
    table: (tableName) => {
      const table = down.table(tableName);
      if (tableName !== 'engagements') return table;
      return {
        ...table,
        mutate: async (req: DBCoreMutateRequest) => {
          const res = await table.mutate(req);
          applied(db, req, res);
          return res;
        },
      };
    },
  }),
});
