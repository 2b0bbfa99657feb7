// A long account list read a window at a time: the ordered ids of the query (kept out of Vue's
// reactivity), and only the rows in view, both live (Dexie `liveQuery`) so that the list follows
// every change — a pull, a toggle, a move on the board — without ever holding 50,000 rows.
// While the ids of a new query are read (every id of 50,000 takes a while), its first rows are
// shown already where an index gives them cheaply (firstAccounts): opening the list and typing a
// search stay as quick with 50,000 accounts as with 1,000.

import { liveQuery, type Subscription } from 'dexie';
import { markRaw, onScopeDispose, ref, shallowRef, watch, type Ref, type ShallowRef } from 'vue';
import type { AdvisorDb } from '../data/db.ts';
import type { AccountRow } from '../data/model.ts';
import { firstAccounts, listAccountIds, type AccountQuery } from '../data/queries/index.ts';

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

export interface AccountWindowOptions {
  /** Reads every id of a query in order (listAccountIds; tests hand in one they can hold back). */
  readIds?: (db: AdvisorDb, q: AccountListQuery) => Promise<string[]>;
}

export function useAccountWindow(
  db: AdvisorDb,
  query: () => AccountListQuery,
  { readIds = listAccountIds }: AccountWindowOptions = {},
): AccountWindow {
  const total = ref<number | null>(null);
  const rows = shallowRef<(AccountRow | undefined)[]>([]);
  const loading = ref(true);
  const answered = shallowRef<AccountListQuery | null>(null);
  const error = ref<string | null>(null);
  let ids: readonly string[] = [];
  let current: AccountListQuery = {};
  let view = { first: 0, last: FIRST_WINDOW };
  let idsSub: Subscription | null = null;
  let rowsSub: Subscription | null = null;
  /** Whether `ids` answer the current query (until they do, they answer the one before). */
  let idsCurrent = false;
  /** Counts the queries asked, so that a late answer to an earlier one is dropped. */
  let asked = 0;
  /**
   * Whether the rows shown follow `ids` (the current query's, or the last query's until the new
   * ids are in), rather than a query's first accounts read before its ids.
   */
  const rowsFollowIds = () => idsCurrent || rowsSub !== null;

  const failed = (e: unknown) => {
    loading.value = false;
    error.value = `The accounts on this computer could not be read: ${e instanceof Error ? e.message : String(e)}`;
  };

  function readWindow(q: AccountListQuery): void {
    rowsSub?.unsubscribe();
    const forIds = ids;
    const first = Math.min(view.first, Math.max(0, forIds.length - 1));
    const last = Math.min(forIds.length, Math.max(view.last, first + 1));
    const slice = forIds.slice(first, last);
    rowsSub = liveQuery(() => db.accounts.bulkGet(slice)).subscribe({
      next: (found) => {
        if (forIds !== ids) return;
        const next: (AccountRow | undefined)[] = new Array<AccountRow | undefined>(forIds.length);
        found.forEach((row, i) => (next[first + i] = row ? markRaw(row) : undefined));
        rows.value = next;
        total.value = forIds.length;
        answered.value = q;
        loading.value = false;
      },
      error: failed,
    });
  }

  /**
   * Shows the first accounts of a query while its ids are read; they give way once the ids are in.
   * Read once, not live: the ids' live query follows every change from then on.
   */
  function readFirst(q: AccountListQuery): void {
    const mine = ++asked;
    firstAccounts(db, q, FIRST_WINDOW).then(
      (first) => {
        if (!first || idsCurrent || mine !== asked) return;
        rowsSub?.unsubscribe();
        rowsSub = null;
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

  watch(
    query,
    (q) => {
      idsSub?.unsubscribe();
      idsCurrent = false;
      // A new query starts at the top (the list scrolls back there).
      view = { first: 0, last: Math.max(FIRST_WINDOW, view.last - view.first) };
      loading.value = true;
      error.value = null;
      readFirst(q);
      // A stale answer (an earlier keystroke) never lands: its subscription is gone.
      idsSub = liveQuery(() => readIds(db, q)).subscribe({
        next: (next) => {
          ids = Object.freeze(next);
          idsCurrent = true;
          current = q;
          readWindow(q);
        },
        error: failed,
      });
    },
    { immediate: true, deep: true },
  );

  onScopeDispose(() => {
    idsSub?.unsubscribe();
    rowsSub?.unsubscribe();
    asked++;
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
