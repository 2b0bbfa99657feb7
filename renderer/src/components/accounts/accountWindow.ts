// A long account list read a window at a time: the ordered ids of the query (kept out of Vue's
// reactivity), and only the rows in view, both live (Dexie `liveQuery`) so that the list follows
// every change — a pull, a toggle, a move on the board — without ever holding 50,000 rows.

import { liveQuery, type Subscription } from 'dexie';
import { markRaw, onScopeDispose, ref, shallowRef, watch, type Ref, type ShallowRef } from 'vue';
import type { AdvisorDb } from '../../data/db.ts';
import type { AccountRow } from '../../data/model.ts';
import { listAccountIds, type AccountQuery } from '../../data/queries.ts';

export type AccountListQuery = Omit<AccountQuery, 'offset' | 'limit'>;

export interface AccountWindow {
  /** Accounts the query selects; null until its first answer. */
  total: Ref<number | null>;
  /** One entry per account of the query, filled only in the window in view (undefined elsewhere). */
  rows: ShallowRef<(AccountRow | undefined)[]>;
  /** True while the answer to the current query is awaited (the rows still answer the one before). */
  loading: Ref<boolean>;
  /** The query the rows answer. */
  answered: ShallowRef<AccountListQuery | null>;
  /** Why the local store could not be read, in plain words. */
  error: Ref<string | null>;
  /** The rows from `first` to `last` (excluded) are in view. */
  show(first: number, last: number): void;
  /** Position of an account in the current order, or -1. */
  indexOf(id: string): number;
}

const FIRST_WINDOW = 60;

export function useAccountWindow(db: AdvisorDb, query: () => AccountListQuery): AccountWindow {
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

  watch(
    query,
    (q) => {
      idsSub?.unsubscribe();
      // A new query starts at the top (the list scrolls back there).
      view = { first: 0, last: Math.max(FIRST_WINDOW, view.last - view.first) };
      loading.value = true;
      error.value = null;
      // A stale answer (an earlier keystroke) never lands: its subscription is gone.
      idsSub = liveQuery(() => listAccountIds(db, q)).subscribe({
        next: (next) => {
          ids = Object.freeze(next);
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
  });

  return {
    total,
    rows,
    loading,
    answered,
    error,
    show(first, last) {
      if (first === view.first && last === view.last) return;
      view = { first, last: Math.max(last, first + 1) };
      if (ids.length) readWindow(current);
    },
    indexOf: (id) => ids.indexOf(id),
  };
}
