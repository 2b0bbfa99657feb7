// The window over a long account list (components/accounts/accountWindow.ts): only the rows in
// view are read, the list follows every change of the store, and an answer to an earlier query
// (a keystroke ago) never lands.

import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { effectScope, nextTick, ref, watch, type EffectScope } from 'vue';
import {
  useAccountWindow,
  type AccountListQuery,
} from '../../../renderer/src/components/accounts/accountWindow.ts';
import { updateRecord } from '../../../renderer/src/data/changes.ts';
import { fakeIdb, openDb } from '../data/helpers.ts';
import { account } from './harness-data.ts';

Object.assign(Dexie.dependencies, fakeIdb);

let scope: EffectScope | null = null;
afterEach(() => {
  scope?.stop();
  scope = null;
});

function windowOver(db: ReturnType<typeof openDb>, query: () => AccountListQuery) {
  scope = effectScope();
  return scope.run(() => useAccountWindow(db, query))!;
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

    list.show(120, 150);
    await vi.waitFor(() => expect(filled()).toEqual(Array.from({ length: 30 }, (_, i) => 120 + i)));
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
});
