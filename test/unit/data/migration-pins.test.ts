// Schema version 5 keeps no PIN on disk. A database written by version 4 — members' security rows
// with their PINs beside unsent operations — opened by the current AdvisorDb: the PINs are gone,
// each member's status is kept, and the outbox is carried across untouched.

import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { STORES_V1, STORES_V2, STORES_V3, STORES_V4 } from '../../../renderer/src/data/migrations/index.ts';
import type { Operation } from '../../../renderer/src/data/model.ts';
import { SCHEMA_VERSION, fakeIdb, queuedOperation } from '../../support/store.ts';

const names: string[] = [];
afterEach(async () => {
  for (const name of names.splice(0)) await new Dexie(name, fakeIdb).delete();
});

const operation = (id: string, kind: Operation['kind'], fields: Operation['fields']): Operation => ({
  ...queuedOperation(id, fields),
  kind,
});

describe('schema version 5: no PIN on disk', () => {
  it('removes the stored PINs, keeps each member’s status and every queued operation', async () => {
    const name = `v5-${crypto.randomUUID()}`;
    names.push(name);
    const old = new Dexie(name, fakeIdb);
    old.version(1).stores(STORES_V1);
    old.version(2).stores(STORES_V2);
    old.version(3).stores(STORES_V3);
    old.version(4).stores(STORES_V4);
    // As version 4 stored them: the whole answer, the PIN in it (an integer, or text as version 2 gives it).
    await old.table('memberSecurity').bulkAdd([
      {
        id: '7:client',
        accountServerId: 7,
        member: 'client',
        status: 'NEW',
        server: { account_id: 7, type: 'client', status: 'NEW', pin: 482913 },
        pulledAt: 5,
      },
      {
        id: '7:coclient',
        accountServerId: 7,
        member: 'coclient',
        status: 'BLOCKED',
        server: { account_id: 7, type: 'co-client', status: 'BLOCKED', pin: '736251' },
        pulledAt: 6,
      },
    ]);
    await old
      .table('outbox')
      .bulkAdd([
        operation('op-1', 'update', { 'client.first_name': 'Ann' }),
        operation('op-2', 'resetPin', { member: 'client' }),
      ]);
    const outboxBefore = await old.table('outbox').orderBy('seq').toArray();
    old.close();

    const db = new AdvisorDb(name, fakeIdb);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(await db.memberSecurity.orderBy('id').toArray()).toEqual([
      {
        id: '7:client',
        accountServerId: 7,
        member: 'client',
        status: 'NEW',
        server: { account_id: 7, type: 'client', status: 'NEW' },
        pulledAt: 5,
      },
      {
        id: '7:coclient',
        accountServerId: 7,
        member: 'coclient',
        status: 'BLOCKED',
        server: { account_id: 7, type: 'co-client', status: 'BLOCKED' },
        pulledAt: 6,
      },
    ]);
    // The status is still found by its index.
    expect(await db.memberSecurity.where('status').equals('BLOCKED').count()).toBe(1);
    expect(await db.outbox.orderBy('seq').toArray()).toEqual(outboxBefore);
    // Nowhere on disk any more.
    const everything = JSON.stringify(await Promise.all(db.tables.map((t) => t.toArray())));
    expect(everything).not.toContain('482913');
    expect(everything).not.toContain('736251');
    db.close();
  });
});
