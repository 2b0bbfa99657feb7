// Schema version 8 answers the account list from the index in memory and drops the accounts
// table's `*search` and `order.*` indexes. A database written by version 7 — accounts with their
// search terms and order keys, a section item, a single record, operations in several states and
// a conflict — opened by the current AdvisorDb: every record and every queued change is there as
// it was (the order keys aside), the indexes are gone, and the list, its search, its sorts, the
// palette's search and the duplicate check still answer.

import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { accountIndex, accountOrder, emptyMeta } from '../../../renderer/src/data/accounts.ts';
import { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { MIGRATIONS } from '../../../renderer/src/data/migrations/index.ts';
import type { AccountRow, Operation } from '../../../renderer/src/data/model.ts';
import {
  findDuplicates,
  firstAccounts,
  listAccountIds,
  searchAccounts,
} from '../../../renderer/src/data/queries/index.ts';
import { SCHEMA_VERSION, fakeIdb, queuedOperation } from '../../support/store.ts';

const names: string[] = [];
afterEach(async () => {
  for (const name of names.splice(0)) await new Dexie(name, fakeIdb).delete();
});

/** An account row as version 7 wrote it: search terms and order keys beside the fields. */
function v7Row(id: string, serverId: number | null, first: string, last: string, score: number | null) {
  const fields = {
    type: 'CLIENT',
    'client.first_name': first,
    'client.last_name': last,
    'client.email': `${id}@example.com`,
  };
  const meta = { ...emptyMeta(), quality: score === null ? null : { score, rules: [] } };
  const row: AccountRow = {
    id,
    serverId,
    fields,
    server: serverId === null ? null : fields,
    status: serverId === null ? 'pending' : 'synced',
    changedAt: 5,
    ...accountIndex(fields, meta),
    meta,
    availableOffline: 0,
    openedAt: null,
    pulledAt: null,
  };
  return { ...row, order: accountOrder(row) };
}

const operation = (id: string, state: Operation['state'], recordId: string): Operation => ({
  ...queuedOperation(id, { 'client.last_name': 'Öberg' }),
  recordId,
  state,
});

describe('schema version 8: the list answered from memory', () => {
  it('keeps every record and queued change, drops the search and order indexes, and the list answers', async () => {
    const name = `v8-${crypto.randomUUID()}`;
    names.push(name);
    const old = new Dexie(name, fakeIdb);
    for (const { version, stores } of MIGRATIONS.filter((m) => m.version <= 7))
      old.version(version).stores(stores);
    const accounts = [
      v7Row('zoe', 3, 'Zoë', 'Zimmer', 40),
      v7Row('ann', 1, 'Ann', 'Älvarez', 90),
      v7Row('bob', 2, 'Bob', 'Bauer', null),
      v7Row('local', null, 'Ann', 'Öberg', 10),
    ];
    await old.table('accounts').bulkAdd(accounts);
    await old
      .table('sectionItems')
      .add({ id: 'item-1', serverId: 'a|b', accountId: 'ann', section: 'assets' });
    await old.table('singles').add({ id: 'ann:details:client', accountId: 'ann', key: 'details:client' });
    const queued = [
      operation('op-1', 'inflight', 'ann'),
      operation('op-2', 'retry', 'zoe'),
      { ...operation('op-3', 'queued', 'local'), kind: 'create' as const },
    ];
    await old.table('outbox').bulkAdd(queued);
    await old.table('conflicts').add({ id: 'op-2', recordId: 'zoe', fields: {} });
    const outboxBefore = await old.table<Operation, number>('outbox').orderBy('seq').toArray();
    expect(outboxBefore).toHaveLength(3);
    old.close();

    const db = new AdvisorDb(name, fakeIdb);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    // Every queued change as it was, and the outbox keeps counting where it was.
    expect(await db.outbox.orderBy('seq').toArray()).toEqual(outboxBefore);
    expect(await db.conflicts.get('op-2')).toEqual({ id: 'op-2', recordId: 'zoe', fields: {} });
    expect(await db.outbox.add(operation('op-4', 'queued', 'bob'))).toBe(4);
    // Every record as it was, without the order keys nothing reads any more.
    const stored = await db.accounts.orderBy('id').toArray();
    expect(stored).toEqual(
      accounts.map(({ order: _order, ...row }) => row).sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    expect(await db.sectionItems.where('[accountId+section]').equals(['ann', 'assets']).count()).toBe(1);
    expect(await db.singles.get('ann:details:client')).toBeDefined();
    // The indexes the list no longer walks are gone; the engine's own stay.
    const indexes = db.accounts.schema.indexes.map((i) => i.name);
    expect(indexes.filter((i) => i === 'search' || i.startsWith('order.'))).toEqual([]);
    expect(indexes).toEqual(expect.arrayContaining(['serverId', 'status', 'archived', 'createdAt']));

    // Each account's entry is written beside it, for the index to read when the store opens.
    expect((await db.accountEntries.orderBy('id').primaryKeys()).sort()).toEqual([
      'ann',
      'bob',
      'local',
      'zoe',
    ]);
    // The list answers from the index: search (accents ignored, several words), sorts, first rows.
    expect(await listAccountIds(db, { search: 'ann', sort: 'client.last_name' })).toEqual(['ann', 'local']);
    expect(await listAccountIds(db, { search: 'ann ob' })).toEqual(['local']);
    expect(await listAccountIds(db, { search: 'zoe' })).toEqual(['zoe']);
    expect(await listAccountIds(db, { sort: 'client.last_name' })).toEqual(['ann', 'bob', 'local', 'zoe']);
    expect(await listAccountIds(db, { sort: '-quality' })).toEqual(['ann', 'zoe', 'local', 'bob']);
    expect((await firstAccounts(db, { sort: 'client.last_name' }, 2))?.rows.map((r) => r.id)).toEqual([
      'ann',
      'bob',
    ]);
    expect((await searchAccounts(db, 'alv')).map((r) => r.id)).toEqual(['ann']);
    const duplicates = await findDuplicates(db, {
      members: { client: { first_name: 'Bob', last_name: 'Bauer', email: 'nobody@example.com' } },
    });
    expect(duplicates.map((d) => d.account.id)).toEqual(['bob']);
    db.close();
  });
});
