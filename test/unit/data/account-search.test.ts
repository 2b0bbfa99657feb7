// Issue 23 point 15: the account list's search (and the palette's) ignores case, accents and
// punctuation: "obrien" finds O'Brien, "alvarez" Álvarez, "maryjane" Mary-Jane, as an advisor
// types them; a store written before (schema version 6) is found the same way once opened.

import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { foldForSearch } from '@shared/search-text.ts';
import { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { MIGRATIONS } from '../../../renderer/src/data/migrations/index.ts';
import type { AccountRow } from '../../../renderer/src/data/model.ts';
import { firstAccounts, listAccountIds } from '../../../renderer/src/data/queries/index.ts';
import { searchAccounts } from '../../../renderer/src/data/queries/records.ts';
import { SCHEMA_VERSION, fakeIdb, openDb, syncedAccount } from '../../support/store.ts';

const names: string[] = [];
afterEach(async () => {
  for (const name of names.splice(0)) await new Dexie(name, fakeIdb).delete();
});

const person = (first: string, last: string, email: string) => ({
  type: 'CLIENT',
  'client.first_name': first,
  'client.last_name': last,
  'client.email': email,
});

async function household() {
  const db = openDb();
  const ids = {
    obrien: (await syncedAccount(db, 1, person('Siobhán', "O'Brien", 'sob@example.com'))).id,
    alvarez: (await syncedAccount(db, 2, person('José', 'Álvarez', 'jose.alvarez@example.com'))).id,
    smith: (await syncedAccount(db, 3, person('Mary-Jane', 'Smith', 'mj@example.com'))).id,
    brien: (await syncedAccount(db, 4, person('Ann', 'Brien', 'ann@example.com'))).id,
  };
  return { db, ids };
}

describe('the account search', () => {
  it('folds accents, case and punctuation in one function', () => {
    expect(foldForSearch("O'Brien")).toBe('obrien');
    expect(foldForSearch('O’BRIEN')).toBe('obrien');
    expect(foldForSearch('  Álvarez  ')).toBe('alvarez');
    expect(foldForSearch('jose.alvarez@example.com')).toBe('josealvarezexamplecom');
    expect(foldForSearch('Mary-Jane  Smith')).toBe('maryjane smith');
  });

  it('finds O’Brien by "obrien", Álvarez by "alvarez" and Mary-Jane by "maryjane"', async () => {
    const { db, ids } = await household();
    const found = (search: string) => listAccountIds(db, { search, sort: 'client.last_name' });
    expect(await found('obrien')).toEqual([ids.obrien]);
    expect(await found("O'Brien")).toEqual([ids.obrien]);
    expect(await found('O’Brien')).toEqual([ids.obrien]);
    expect(await found('siobhan')).toEqual([ids.obrien]);
    expect(await found('ALVAREZ')).toEqual([ids.alvarez]);
    expect(await found('álvarez')).toEqual([ids.alvarez]);
    expect(await found('jose alvarez')).toEqual([ids.alvarez]);
    expect(await found('jose.alvarez@')).toEqual([ids.alvarez]);
    expect(await found('maryjane')).toEqual([ids.smith]);
    expect(await found('Mary-Jane smith')).toEqual([ids.smith]);
    // The start of a name, as before: O'Brien does not start with "brien".
    expect(await found('brien')).toEqual([ids.brien]);
    expect(await found('example')).toEqual([]);

    const first = await firstAccounts(db, { search: 'obrien', sort: '-created_at' }, 10);
    expect(first?.rows.map((r) => r.id)).toEqual([ids.obrien]);
    expect((await searchAccounts(db, 'obrien')).map((r) => r.id)).toEqual([ids.obrien]);
  });

  it('finds an account a store of version 6 holds, once the store is opened', async () => {
    const name = `v6-${crypto.randomUUID()}`;
    names.push(name);
    const old = new Dexie(name, fakeIdb);
    for (const { version, stores } of MIGRATIONS.filter((m) => m.version <= 6))
      old.version(version).stores(stores);
    await old.open();
    const { db: source, ids } = await household();
    const rows = await source.accounts.toArray();
    // As version 6 wrote the column: each value lower-cased as typed, nothing folded.
    const asBefore = (r: AccountRow) =>
      ['client.first_name', 'client.last_name', 'client.email'].map((f) => String(r.fields[f]).toLowerCase());
    await old.table('accounts').bulkAdd(rows.map((r) => ({ ...r, search: asBefore(r) })));
    old.close();

    const db = new AdvisorDb(name, fakeIdb);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(await listAccountIds(db, { search: 'obrien', sort: 'client.last_name' })).toEqual([ids.obrien]);
    expect(await listAccountIds(db, { search: 'alvarez', sort: 'client.last_name' })).toEqual([ids.alvarez]);
    db.close();
  });
});
