// The engagement list read a window at a time, live (Dexie `liveQuery`): the page of the query
// that is in view and the query's count, so a pull, a send or a close shows up by itself and a
// team with thousands of questionnaires never holds them all. Each row comes with its account.

import { liveQuery, type Subscription } from 'dexie';
import { markRaw, onScopeDispose, ref, shallowRef, watch, type Ref, type ShallowRef } from 'vue';
import type { AdvisorDb } from '../data/db.ts';
import type { AccountRow, EngagementRow } from '../data/model.ts';
import { listEngagements, type EngagementQuery } from '../data/queries/index.ts';

export type EngagementListQuery = Omit<EngagementQuery, 'offset' | 'limit'>;

export interface EngagementListRow {
  engagement: EngagementRow;
  /** Its household, when this computer holds it. */
  account: AccountRow | undefined;
}

export interface EngagementWindow {
  total: Ref<number | null>;
  /** One entry per engagement of the query; read only in the window in view. */
  rows: ShallowRef<(EngagementListRow | undefined)[]>;
  loading: Ref<boolean>;
  error: Ref<string | null>;
  show(first: number, last: number): void;
}

const WINDOW = 60;

async function readPage(db: AdvisorDb, q: EngagementListQuery, first: number, last: number) {
  const page = await listEngagements(db, { ...q, offset: first, limit: last - first });
  const serverIds = [...new Set(page.items.map((e) => e.accountServerId))];
  const accounts = await db.accounts.where('serverId').anyOf(serverIds).toArray();
  const byServer = new Map(accounts.map((a) => [Number(a.serverId), a]));
  return {
    total: page.total,
    items: page.items.map((engagement) => ({
      engagement,
      account: byServer.get(engagement.accountServerId),
    })),
  };
}

export function useEngagementWindow(db: AdvisorDb, query: () => EngagementListQuery): EngagementWindow {
  const total = ref<number | null>(null);
  const rows = shallowRef<(EngagementListRow | undefined)[]>([]);
  const loading = ref(true);
  const error = ref<string | null>(null);
  let view = { first: 0, last: WINDOW };
  let current: EngagementListQuery = {};
  let sub: Subscription | null = null;

  function read(): void {
    sub?.unsubscribe();
    const q = current;
    const { first, last } = view;
    sub = liveQuery(() => readPage(db, q, first, last)).subscribe({
      next: (page) => {
        const next = new Array<EngagementListRow | undefined>(page.total);
        page.items.forEach((row, i) => (next[first + i] = markRaw(row)));
        rows.value = next;
        total.value = page.total;
        loading.value = false;
      },
      error: (e: unknown) => {
        loading.value = false;
        error.value = `The questionnaires on this computer could not be read: ${e instanceof Error ? e.message : String(e)}`;
      },
    });
  }

  watch(
    query,
    (q) => {
      current = q;
      view = { first: 0, last: WINDOW };
      loading.value = true;
      error.value = null;
      read();
    },
    { immediate: true, deep: true },
  );
  onScopeDispose(() => sub?.unsubscribe());

  return {
    total,
    rows,
    loading,
    error,
    show(first, last) {
      const wanted = { first, last: Math.max(last, first + WINDOW) };
      if (wanted.first === view.first && wanted.last === view.last) return;
      view = wanted;
      read();
    },
  };
}
