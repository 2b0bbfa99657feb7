// The account list answered from memory: every account's entry (entry.ts) by id, each sort key's
// order kept sorted once asked for, and the ids of a query (search, filter, pipeline, sort) read
// off that order in one pass. Writes reach it through `apply` (store.ts keeps it in step), which
// patches the orders and the search terms kept sorted (a sync's page merged into them in one pass).

import type { AccountRow } from '../model.ts';
import { inList, type AccountFilter, type ListQuery } from '../queries/account-select.ts';
import { isDateKey, sortOf, type AccountSort, type AccountSortKey } from '../queries/account-sort.ts';
import { searchQuery } from '@shared/search-text.ts';
import { ascending, entryOf, entryOfStored, isEmpty, type AccountEntry, type StoredEntry } from './entry.ts';
import { firstNotBefore } from '../queries/order.ts';
import { SearchTerms } from './terms.ts';

/** A stage's position in the user resource's order (account-sort.ts, stagePositions). */
export type StageRank = (id: string) => number | null;

const NO_STAGES: StageRank = () => null;

/** Up to this many rows in one write, each order is patched entry by entry; past it, merged in one pass. */
const PATCH_LIMIT = 8;

interface Order {
  /** Ascending (entry.ts, ascending); the entries with no value at the end. */
  entries: AccountEntry[];
  compare: (a: AccountEntry, b: AccountEntry) => number;
  /** For the pipeline: the stages it was sorted by. */
  stages: StageRank;
}

/** The first position whose entry is not before `e`. */
const lowerBound = (order: Order, e: AccountEntry): number => firstNotBefore(order.entries, e, order.compare);

/**
 * An order with `olds` taken out and `nexts` put in: a few entries each by binary search, more
 * (a sync's page) sorted among themselves and merged in one pass. False when an old entry is not
 * where the order says it is.
 */
function patched(order: Order, olds: readonly AccountEntry[], nexts: readonly AccountEntry[]): boolean {
  if (olds.length + nexts.length <= PATCH_LIMIT) {
    for (const old of olds) {
      const at = lowerBound(order, old);
      if (order.entries[at] !== old) return false;
      order.entries.splice(at, 1);
    }
    for (const next of nexts) order.entries.splice(lowerBound(order, next), 0, next);
    return true;
  }
  const gone = new Set(olds);
  const added = [...nexts].sort(order.compare);
  const merged: AccountEntry[] = [];
  let j = 0;
  for (const e of order.entries) {
    if (gone.has(e)) continue;
    while (j < added.length && order.compare(added[j]!, e) < 0) merged.push(added[j++]!);
    merged.push(e);
  }
  while (j < added.length) merged.push(added[j++]!);
  order.entries = merged;
  return true;
}

export class AccountListIndex {
  private readonly entries = new Map<string, AccountEntry>();
  private readonly orders = new Map<AccountSortKey, Order>();
  private readonly terms = new SearchTerms<AccountEntry>(() => this.entries.values());
  /** Marks the entries a search found (AccountEntry.found), a new number for each search. */
  private searches = 0;
  /** Goes up with every write applied: a screen's answer is current while it is the same. */
  version = 0;

  get size(): number {
    return this.entries.size;
  }

  /** Every account replaced (the store's accounts as first read: their stored entries, entry.ts). */
  reset(stored: readonly StoredEntry[]): void {
    this.entries.clear();
    this.orders.clear();
    for (const s of stored) this.entries.set(s.id, entryOfStored(s));
    this.terms.reset();
    // Sorted now rather than at the first keystroke: the terms, and the list's default order.
    this.terms.starting('\uffff', () => undefined);
    this.order('created_at', NO_STAGES);
    this.version++;
  }

  /** Rows written (put) and ids deleted, in the order they were written. */
  apply(puts: readonly AccountRow[], deletes: readonly string[] = []): void {
    // What each account written ends as: its new entry, or null when deleted.
    const final = new Map<string, AccountEntry | null>();
    for (const row of puts) final.set(row.id, entryOf(row));
    for (const id of deletes) final.set(id, null);
    const olds: AccountEntry[] = [];
    const nexts: AccountEntry[] = [];
    for (const [id, next] of final) {
      const old = this.entries.get(id);
      if (old) olds.push(old);
      if (next) {
        nexts.push(next);
        this.entries.set(id, next);
      } else this.entries.delete(id);
    }
    this.terms.replace(olds, nexts);
    // An order that lost track (never expected) is sorted again when next asked.
    for (const [key, order] of this.orders) if (!patched(order, olds, nexts)) this.orders.delete(key);
    this.version++;
  }

  /** A sort key's ascending order, sorted when first asked (or after a large write). */
  private order(key: AccountSortKey, stages: StageRank): Order {
    const kept = this.orders.get(key);
    if (kept && (key !== 'pipeline' || kept.stages === stages)) return kept;
    const compare = ascending(key, stages);
    const order = { entries: [...this.entries.values()].sort(compare), compare, stages };
    this.orders.set(key, order);
    return order;
  }

  /**
   * Marks the entries a folded search finds (account-select.ts, searchMatch): a name or email
   * starts with the whole text, or, for several words, each word starts one of them.
   */
  private search(whole: string): number {
    const mark = ++this.searches;
    this.terms.starting(whole, (e) => (e.found = mark));
    const words = whole.split(/\s+/).filter(Boolean);
    if (words.length < 2) return mark;
    let hits: Set<AccountEntry> | null = null;
    for (const word of words) {
      const next = new Set<AccountEntry>();
      this.terms.starting(word, (e) => void ((hits === null || hits.has(e)) && next.add(e)));
      hits = next;
    }
    for (const e of hits!) e.found = mark;
    return mark;
  }

  /**
   * The ids of every account a query selects, in its order, as listAccountIds gives them. `stages`
   * ranks pipeline stages for the pipeline sort (the same function each time keeps its order).
   */
  ids(q: ListQuery, stages: StageRank = NO_STAGES): string[] {
    const { key, desc } = sortOf(q.sort);
    const { entries } = this.order(key, stages);
    const whole = searchQuery(q.search);
    const listed = inList(q);
    const found = whole === '' ? 0 : this.search(whole);
    const ids: string[] = [];
    const take = (e: AccountEntry) => {
      if ((found === 0 || e.found === found) && listed(e)) ids.push(e.id);
    };
    if (!desc) {
      for (const e of entries) take(e);
      return ids;
    }
    // Descending: the valued entries backwards, then the empty ones backwards (empties stay last).
    let valued = entries.length;
    while (valued > 0 && isEmpty(entries[valued - 1]!, key, stages)) valued--;
    for (let i = valued - 1; i >= 0; i--) take(entries[i]!);
    for (let i = entries.length - 1; i >= valued; i--) take(entries[i]!);
    return ids;
  }

  /** The entry of an account, if the index holds it. */
  get(id: string): AccountEntry | undefined {
    return this.entries.get(id);
  }

  /**
   * The ids of the accounts with a search term starting with one of `prefixes` (`exact`: equal to
   * one), by term then by id, each once at its first term, at most `limit`.
   */
  withTerms(prefixes: readonly string[], exact: boolean, limit = Infinity): string[] {
    const pairs: [term: string, id: string][] = [];
    for (const p of new Set(prefixes)) {
      if (exact) this.terms.equal(p, (e) => pairs.push([p, e.id]));
      else this.terms.starting(p, (e, term) => pairs.push([term, e.id]));
    }
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    const ids = new Set<string>();
    for (const [, id] of pairs) {
      if (ids.size >= limit) break;
      ids.add(id);
    }
    return [...ids];
  }

  /**
   * The entries of a sort's order that hold a value for it, in the sort's direction: for a date,
   * the archived or not-archived entries as the filter asks (all for `all`); for any other key,
   * the entries with a value. The search, the other filters and the pipeline are not applied.
   */
  *walk(
    sort: AccountSort | undefined,
    filter: AccountFilter | undefined,
    stages = NO_STAGES,
  ): Generator<AccountEntry> {
    const { key, desc } = sortOf(sort);
    const { entries } = this.order(key, stages);
    const archived = filter === 'archived' ? 1 : 0;
    const within = (e: AccountEntry) => !isDateKey(key) || filter === 'all' || e.archived === archived;
    let valued = entries.length;
    while (valued > 0 && isEmpty(entries[valued - 1]!, key, stages)) valued--;
    for (let i = 0; i < valued; i++) {
      const e = entries[desc ? valued - 1 - i : i]!;
      if (within(e)) yield e;
    }
  }
}
