// The window over a long account list (renderer/src/accounts/accountWindow.ts): only the rows in
// view are read, the list follows every change of the store, and an answer to an earlier query
// (a keystroke ago) never lands.

import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { effectScope, nextTick, ref, watch, type EffectScope } from 'vue';
import {
  useAccountWindow,
  type AccountListQuery,
  type AccountWindowOptions,
} from '../../../renderer/src/accounts/accountWindow.ts';
import { updateRecord } from '../../../renderer/src/data/changes/index.ts';
import { listAccountIds } from '../../../renderer/src/data/queries/index.ts';
import { fakeIdb, openDb } from '../../support/store.ts';
import { account } from './harness-data.ts';

Object.assign(Dexie.dependencies, fakeIdb);

let scope: EffectScope | null = null;
afterEach(() => {
  scope?.stop();
  scope = null;
});

function windowOver(
  db: ReturnType<typeof openDb>,
  query: () => AccountListQuery,
  options?: AccountWindowOptions,
) {
  scope = effectScope();
  return scope.run(() => useAccountWindow(db, query, options))!;
}

describe('the account window', () => {
  it('reads only the rows in view, and follows the store', async () => {
    const db = openDb();
    for (let i = 0; i < 200; i++) await account(db, { first: `P${String(i).padStart(3, '0')}`, last: 'Row' });
    const list = windowOver(db, () => ({ sort: 'client.first_name' }));
    await vi.waitFor(() => expect(list.total.value).toBe(200));
    expect(list.rows.value).toHaveLength(200);
    const filled = () => list.rows.value.flatMap((r, i) => (r ? [i] : []));
    expect(filled()).toEqual([...Array(60).keys()]);

    // The rows in view and a first window's worth after them (60), never the whole list.
    list.show(120, 150);
    await vi.waitFor(() => expect(filled()).toEqual(Array.from({ length: 60 }, (_, i) => 120 + i)));
    expect(list.rows.value[130]?.fields['client.first_name']).toBe('P130');

    // A change to a row in view shows at once; a new account shifts the order.
    const row = list.rows.value[125]!;
    await updateRecord(db, 'accounts', row.id, { favorited: true });
    await vi.waitFor(() => expect(list.rows.value[125]?.favorited).toBe(1));
    await account(db, { first: 'O', last: 'Row' });
    await vi.waitFor(() => expect(list.total.value).toBe(201));
    expect(list.indexOf(row.id)).toBe(126);
    await vi.waitFor(() => expect(list.rows.value[126]?.id).toBe(row.id));
  });

  it('is as long as its count while the first rows show before the ids', async () => {
    const db = openDb();
    for (let i = 0; i < 200; i++) await account(db, { first: `P${String(i).padStart(3, '0')}`, last: 'Row' });
    // The ids held back, as a busy machine (or 50,000 of them) holds them back: only the first
    // rows and the count have answered.
    let release = () => {};
    const held = new Promise<void>((go) => (release = go));
    const list = windowOver(db, () => ({ sort: 'client.first_name' }), {
      readIds: async (d, q) => {
        await held;
        return listAccountIds(d, q);
      },
    });
    await vi.waitFor(() => expect(list.total.value).toBe(200));
    expect(list.loading.value).toBe(true);
    expect(list.rows.value).toHaveLength(200);
    const filled = () => list.rows.value.flatMap((r, i) => (r ? [i] : []));
    expect(filled()).toEqual([...Array(60).keys()]);
    // Scrolled before the ids are in: that window is read once they are.
    list.show(120, 150);
    release();
    await vi.waitFor(() => expect(list.loading.value).toBe(false));
    await vi.waitFor(() => expect(filled()).toEqual(Array.from({ length: 60 }, (_, i) => 120 + i)));
    expect(list.rows.value).toHaveLength(200);
  });

  it('never lets an earlier query’s answer land', async () => {
    const db = openDb();
    await account(db, { first: 'Ann', last: 'Able' });
    await account(db, { first: 'Anna', last: 'Bell' });
    await account(db, { first: 'Bob', last: 'Cole' });
    const search = ref('');
    const list = windowOver(db, () => ({ search: search.value, sort: 'client.first_name' }));
    await vi.waitFor(() => expect(list.total.value).toBe(3));
    const seen: number[] = [];
    scope!.run(() => watch(list.total, (n) => n !== null && seen.push(n)));
    search.value = 'a';
    await nextTick();
    search.value = 'an';
    await nextTick();
    search.value = 'bo';
    await vi.waitFor(() => expect(list.total.value).toBe(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(list.rows.value.map((r) => r?.fields['client.first_name'])).toEqual(['Bob']);
    // `a` and `an` would have answered 2: neither did.
    expect(seen).toEqual([1]);
  });

  it('shows a date-sorted query’s first rows, then the whole answer, never rows of another order', async () => {
    const db = openDb();
    for (let i = 0; i < 150; i++) await account(db, { first: i % 3 ? `Mia${i}` : `Noa${i}`, last: 'Row' });
    const search = ref('');
    // The ids of a query are read by the real listAccountIds, held back until the test lets them
    // go, as reading 50,000 of them holds them back in the app.
    let release = () => {};
    let held = Promise.resolve();
    const list = windowOver(db, () => ({ search: search.value || undefined, sort: '-created_at' }), {
      readIds: async (d, q) => {
        await held;
        return listAccountIds(d, q);
      },
    });
    await vi.waitFor(() => expect(list.loading.value).toBe(false));
    held = new Promise((go) => (release = go));
    // Every state the list goes through for the search: the rows shown are always the head of the
    // final order, and the count is either unknown or the final one.
    const states: { ids: (string | undefined)[]; total: number | null; search: string | undefined }[] = [];
    scope!.run(() =>
      watch([list.rows, list.total], () =>
        states.push({
          ids: list.rows.value.map((r) => r?.id),
          total: list.total.value,
          search: list.answered.value?.search,
        }),
      ),
    );
    search.value = 'mia';
    await nextTick();
    expect(list.loading.value).toBe(true);
    // The first rows of the search show while its ids are still being read; the count waits.
    await vi.waitFor(() => expect(list.answered.value?.search).toBe('mia'));
    expect(list.loading.value).toBe(true);
    expect(list.total.value).toBeNull();
    expect(list.rows.value).toHaveLength(60);
    release();
    await vi.waitFor(() => expect(list.loading.value).toBe(false));
    const expected = await listAccountIds(db, { search: 'mia', sort: '-created_at' });
    expect(expected).toHaveLength(100);
    expect(list.total.value).toBe(100);
    expect(list.rows.value.slice(0, 60).map((r) => r?.id)).toEqual(expected.slice(0, 60));
    const answering = states.filter((s) => s.search === 'mia');
    expect(answering.map((s) => s.total)).toEqual([null, 100]);
    for (const state of answering) {
      const shown = state.ids.filter((id): id is string => id !== undefined);
      expect(shown).toEqual(expected.slice(0, shown.length));
      expect([null, 100]).toContain(state.total);
    }
  });
});
