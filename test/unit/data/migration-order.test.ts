// Schema version 4 gives the account list an index per text and quality order (`order.*`). A
// database written by version 3 — accounts without those keys, beside unsent operations — opened
// by the current AdvisorDb: every account has its keys, the list sorts by them with the platform's
// rules, and the outbox is carried across untouched. Then every later write keeps the keys true.

import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { accountIndex, emptyMeta } from '../../../renderer/src/data/accounts.ts';
import { updateRecord } from '../../../renderer/src/data/changes/index.ts';
import { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { MIGRATIONS, STORES_V1, STORES_V2, STORES_V3 } from '../../../renderer/src/data/migrations/index.ts';
import { IDENTITY_META_KEY } from '../../../renderer/src/data/identity/index.ts';
import type { AccountRow, Operation } from '../../../renderer/src/data/model.ts';
import { listAccountIds } from '../../../renderer/src/data/queries/index.ts';
import { SANDBOX_TEAM, SCHEMA_VERSION, fakeIdb, newUserKey, queuedOperation } from '../../support/store.ts';

const names: string[] = [];
afterEach(async () => {
  for (const name of names.splice(0)) await new Dexie(name, fakeIdb).delete();
});

/** An account row as version 3 wrote it: no `order` column. */
function oldRow(id: string, serverId: number | null, last: string, score: number | null): AccountRow {
  const fields = {
    type: 'CLIENT',
    'client.first_name': 'A',
    'client.last_name': last,
    'client.email': `${id}@x.com`,
  };
  const meta = { ...emptyMeta(), quality: score === null ? null : { score, rules: [] } };
  return {
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
}

const queued: Operation = {
  ...queuedOperation('op-1', { type: 'CLIENT', 'client.last_name': 'álvarez' }),
  recordId: 'local',
  kind: 'create',
};

describe('schema version 4: the list’s order indexes', () => {
  it('writes the order keys of the accounts already there, and the list sorts by them', async () => {
    const name = `v4-${crypto.randomUUID()}`;
    names.push(name);
    const old = new Dexie(name, fakeIdb);
    old.version(1).stores(STORES_V1);
    old.version(2).stores(STORES_V2);
    old.version(3).stores(STORES_V3);
    await old
      .table('accounts')
      .bulkAdd([
        oldRow('zed', 3, 'Zimmer', 40),
        oldRow('ann', 1, 'Alvarez', 90),
        oldRow('empty', 2, '', null),
        oldRow('local', null, 'álvarez', 10),
        oldRow('bob', 4, 'bauer', 90),
      ]);
    await old.table('outbox').add(queued);
    old.close();

    // Upgraded as far as version 7, the last to keep the keys (version 8 answers the list from memory).
    const v7 = new Dexie(name, fakeIdb);
    for (const { version, stores, upgrade } of MIGRATIONS.filter((m) => m.version <= 7)) {
      const declared = v7.version(version).stores(stores);
      if (upgrade) declared.upgrade(upgrade);
    }
    await v7.open();
    expect(v7.verno).toBe(7);
    expect(await v7.table('outbox').toArray()).toEqual([{ ...queued, seq: 1 }]);
    const upgraded = await v7.table<AccountRow & { order?: { made?: unknown } }>('accounts').toArray();
    expect(upgraded.every((r) => r.order?.made !== undefined)).toBe(true);
    v7.close();

    const db = new AdvisorDb(name, fakeIdb);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(await db.outbox.toArray()).toEqual([{ ...queued, seq: 1 }]);
    // Accents and case ignored, code units break ties ('A' before 'á'), the empty name last both ways.
    expect(await listAccountIds(db, { sort: 'client.last_name' })).toEqual([
      'ann',
      'local',
      'bob',
      'zed',
      'empty',
    ]);
    expect(await listAccountIds(db, { sort: '-client.last_name' })).toEqual([
      'zed',
      'bob',
      'local',
      'ann',
      'empty',
    ]);
    // Equal scores in the order the accounts were made (server id), in the key's direction.
    expect(await listAccountIds(db, { sort: '-quality' })).toEqual(['bob', 'ann', 'zed', 'local', 'empty']);
    expect(await listAccountIds(db, { sort: 'quality' })).toEqual(['local', 'zed', 'ann', 'bob', 'empty']);

    // A change made here moves the account in the index at once (in a store adopted by its identity).
    await db.meta.put({ key: IDENTITY_META_KEY, value: { user: newUserKey(), team: SANDBOX_TEAM } });
    await updateRecord(db, 'accounts', 'zed', { 'client.last_name': 'Abbott' });
    expect((await listAccountIds(db, { sort: 'client.last_name' }))[0]).toBe('zed');
    db.close();
  });
});
