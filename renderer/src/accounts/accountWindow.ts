// A long account list read a window at a time: the ordered ids of the query (kept out of Vue's
// reactivity), and only the rows in view, both live so that the list follows every change — a
// pull, a toggle, a move on the board — without ever holding 50,000 rows. The ids and the count
// come from the store's list index in memory (data/account-index/), at once, and again after each
// write it applies; the rows in view are read from the store by id (Dexie `liveQuery`), and shown
// at once where the store is being written and holds them in memory (account-index/recent-rows.ts:
// a read waits for the write before it, half a second a page during a first sync). Until the
// index is built (the store just opened), or for a sort by stage, the ids come a moment later:
// meanwhile the first rows show where a store index gives them cheaply (firstAccounts).

import { liveQuery, type Subscription } from 'dexie';
import { markRaw, onScopeDispose, ref, shallowRef, watch, type Ref, type ShallowRef } from 'vue';
import { accountIndex, indexedIds } from '../data/account-index/index.ts';
import type { AdvisorDb } from '../data/db.ts';
import type { AccountRow } from '../data/model.ts';
import { firstAccounts, type AccountQuery } from '../data/queries/index.ts';

export type AccountListQuery = Omit<AccountQuery, 'offset' | 'limit'>;

export interface AccountWindow {
  /** Accounts the query selects; null until known (the first rows may show before it is). */
  total: Ref<number | null>;
  /** One entry per account of the query, filled only in the window in view (undefined elsewhere). */
  rows: ShallowRef<(AccountRow | undefined)[]>;
  /**
   * True while the whole answer to the current query is awaited: the rows still answer the one
   * before, or show only its first accounts (`answered` tells which query they answer).
   */
  loading: Ref<boolean>;
  /** The query the rows answer. */
  answered: ShallowRef<AccountListQuery | null>;
  /** Why the local store could not be read, in plain words. */
  error: Ref<string | null>;
  /** The rows from `first` to `last` (excluded) are in view: they are read, and a few after them. */
  show(first: number, last: number): void;
  /** Position of an account in the current order, or -1. */
  indexOf(id: string): number;
}

const FIRST_WINDOW = 60;

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

export interface AccountWindowOptions {
  /**
   * Every id of a query in order, at once or later (the list index's, indexedIds; tests hand in one
   * they can hold back). Asked again after every write of the store's accounts.
   */
  readIds?: (db: AdvisorDb, q: AccountListQuery) => string[] | Promise<string[]>;
}

export function useAccountWindow(
  db: AdvisorDb,
  query: () => AccountListQuery,
  { readIds = indexedIds }: AccountWindowOptions = {},
): AccountWindow {
  const total = ref<number | null>(null);
  const rows = shallowRef<(AccountRow | undefined)[]>([]);
  const loading = ref(true);
  const answered = shallowRef<AccountListQuery | null>(null);
  const error = ref<string | null>(null);
  let ids: readonly string[] = [];
  let current: AccountListQuery = {};
  /** The query asked last (its ids may not be in yet). */
  let latest: AccountListQuery = {};
  let view = { first: 0, last: FIRST_WINDOW };
  let rowsSub: Subscription | null = null;
  /** Whether `ids` answer the current query (until they do, they answer the one before). */
  let idsCurrent = false;
  /** Counts the queries asked, so that a late answer to an earlier one is dropped. */
  let asked = 0;
  /** Counts the asks for ids (a query, or a write since): only the answer to the last one lands. */
  let requested = 0;
  /**
   * Whether the rows shown follow `ids` (the current query's, or the last query's until the new
   * ids are in), rather than a query's first accounts read before its ids.
   */
  const rowsFollowIds = () => idsCurrent || rowsSub !== null;
  const { recent } = accountIndex(db);

  const failed = (e: unknown) => {
    loading.value = false;
    error.value = `The accounts on this computer could not be read: ${e instanceof Error ? e.message : String(e)}`;
  };

  /** The rows of the window's last answer, by id: a window a write moved shows them at once. */
  let held = new Map<string, AccountRow>();
  /** A window read is on its way (its first answer not in yet). */
  let inFlight = false;
  /** The ids of the rows the window reads (its live query's). */
  let reading: readonly string[] = [];
  /** A write moved the ids while a read was on its way: read again once it lands. */
  let again: AccountListQuery | null = null;

  /** The window of the current ids from the rows held; false (nothing shown) when one is not held. */
  function paint(q: AccountListQuery, all: boolean): boolean {
    const first = Math.min(view.first, Math.max(0, ids.length - 1));
    const last = Math.min(ids.length, Math.max(view.last, first + 1));
    const next: (AccountRow | undefined)[] = new Array<AccountRow | undefined>(ids.length);
    for (let i = first; i < last; i++) {
      const row = held.get(ids[i]!);
      if (!row && all) return false;
      next[i] = row;
    }
    rows.value = next;
    total.value = ids.length;
    answered.value = q;
    loading.value = false;
    return true;
  }

  /**
   * Reads the rows in view, live. `write`: the ids moved because the store was written (a page of
   * a sync), not because the query or the view changed. A read on its way then lands first: during
   * a sync a page is written every fraction of a second, and a read given up at every write (each
   * waits for the write before it) would never land.
   */
  /** The ids in view now. */
  function inView(): string[] {
    const first = Math.min(view.first, Math.max(0, ids.length - 1));
    const last = Math.min(ids.length, Math.max(view.last, first + 1));
    return ids.slice(first, last);
  }

  /**
   * The rows in view that the store holds in memory while it is written (all of a sync's) join
   * the rows held; `after`: only those written after a read began (it may not hold them yet).
   * True when every row in view is held then.
   */
  function fromMemory(slice: readonly string[], after = 0): boolean {
    const written = recent.held(slice, after);
    if (written.size === 0) return slice.every((id) => held.has(id));
    held = new Map(held);
    for (const [id, row] of written) held.set(id, markRaw(row));
    return slice.every((id) => held.has(id));
  }

  function readWindow(q: AccountListQuery, write = false): void {
    const slice = inView();
    // While the store is written, the rows written lately show at once: a read waits for the
    // writes begun before it. (Otherwise the read answers within a frame or two.)
    const inMemory = recent.busy && fromMemory(slice);
    if (write && inFlight) {
      again = q;
      if (inMemory) paint(q, true);
      return;
    }
    // The same accounts in view (a sync's page added others elsewhere in the order): the read
    // under way already follows them; only the count and the list's length change.
    if (write && rowsSub && sameIds(slice, reading) && paint(q, true)) return;
    rowsSub?.unsubscribe();
    again = null;
    reading = slice;
    // Rows already read (or in memory) show at once when a write only moved the ids, or the
    // query changed while the store is written: they wait for no read.
    if (write || inMemory) paint(q, true);
    inFlight = true;
    let begun = 0;
    rowsSub = liveQuery(() => {
      begun = recent.stamp;
      return db.accounts.bulkGet(slice);
    }).subscribe({
      next: (found) => {
        inFlight = false;
        held = new Map();
        for (const row of found) if (row) held.set(row.id, markRaw(row));
        // Rows written since the read began are newer than what it found.
        fromMemory(inView(), begun);
        paint(q, false);
        if (again) readWindow(again);
      },
      error: (e: unknown) => {
        inFlight = false;
        failed(e);
      },
    });
  }

  /**
   * Shows the first accounts of a query while its ids are read; they give way once the ids are in.
   * Read once, not live: the ids' live query follows every change from then on.
   */
  function readFirst(q: AccountListQuery, mine: number): void {
    firstAccounts(db, q, FIRST_WINDOW).then(
      (first) => {
        if (!first || idsCurrent || mine !== asked) return;
        rowsSub?.unsubscribe();
        rowsSub = null;
        inFlight = false;
        // One entry per account, as ever: when the count is known, the scroller is as long as the
        // list already (the rows past the first stay unread until the ids are in).
        const shown = new Array<AccountRow | undefined>(Math.max(first.total ?? 0, first.rows.length));
        first.rows.forEach((row, i) => (shown[i] = markRaw(row)));
        rows.value = shown;
        total.value = first.total;
        answered.value = q;
      },
      // The ids' own query says what went wrong, if anything did.
      () => undefined,
    );
  }

  /** The ids of the query asked last are in: the window follows them (unless they are the ones shown). */
  function idsIn(q: AccountListQuery, next: string[]): void {
    const same = idsCurrent && next.length === ids.length && next.every((id, i) => id === ids[i]);
    // The same query's ids again: asked after a write of the store.
    const write = idsCurrent && q === current;
    idsCurrent = true;
    current = q;
    if (same) return;
    ids = Object.freeze(next);
    readWindow(q, write);
  }

  /** Asks for the ids of the query asked last; an answer to an earlier one (a keystroke ago) never lands. */
  function askIds(q: AccountListQuery): void {
    const mine = ++requested;
    let answer: string[] | Promise<string[]>;
    try {
      answer = readIds(db, q);
    } catch (e) {
      return failed(e);
    }
    if (Array.isArray(answer)) return idsIn(q, answer);
    answer.then(
      (next) => mine === requested && idsIn(q, next),
      (e: unknown) => mine === requested && failed(e),
    );
  }

  watch(
    query,
    (q) => {
      idsCurrent = false;
      // A new query starts at the top (the list scrolls back there).
      view = { first: 0, last: Math.max(FIRST_WINDOW, view.last - view.first) };
      loading.value = true;
      error.value = null;
      latest = q;
      const mine = ++asked;
      askIds(q);
      if (!idsCurrent) readFirst(q, mine);
    },
    { immediate: true, deep: true },
  );

  // Every write of the store's accounts (a pull, an edit, another window's) asks the ids again.
  const unsubscribe = accountIndex(db).subscribe(() => askIds(latest));

  onScopeDispose(() => {
    unsubscribe();
    rowsSub?.unsubscribe();
    asked++;
    requested++;
  });

  return {
    total,
    rows,
    loading,
    answered,
    error,
    show(first, last) {
      // At least a first window's worth: the scroller asks for a row or two before it has measured
      // itself, and a few rows read ahead cost next to nothing.
      const wanted = { first, last: Math.max(last, first + FIRST_WINDOW) };
      if (wanted.first === view.first && wanted.last === view.last) return;
      view = wanted;
      // Before the ids of the current query are in, the rows shown are its first ones (or the
      // last query's): the window is read once the ids arrive.
      if (ids.length && rowsFollowIds()) readWindow(current);
    },
    indexOf: (id) => (rowsFollowIds() ? ids.indexOf(id) : rows.value.findIndex((row) => row?.id === id)),
  };
}
