// A store made at schema version 1 opens at the current version with its rows and its outbox as
// they were, and with the tables added since, empty (fake-indexeddb).

import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { STORES_V1 } from '../../../renderer/src/data/migrations/index.ts';
import type { EngagementRow, Operation } from '../../../renderer/src/data/model.ts';
import { fakeIdb } from '../../support/store.ts';

describe('schema version 2', () => {
  it('opens a version 1 database with its rows and its outbox as they were', async () => {
    const name = `upgrade-${crypto.randomUUID()}`;
    const old = new Dexie(name, fakeIdb);
    old.version(1).stores(STORES_V1);
    const account = {
      id: 'local-1',
      serverId: 7,
      fields: { 'client.first_name': 'Ann' },
      server: { 'client.first_name': 'Ann' },
      status: 'pending',
      type: 'CLIENT',
      archived: 0,
      favorited: 0,
      search: ['ann'],
    };
    const op = (id: string, state: Operation['state'], kind: Operation['kind']): Operation => ({
      id,
      table: 'accounts',
      recordId: 'local-1',
      kind,
      fields: { 'client.first_name': id },
      base: { 'client.first_name': 'Ann' },
      parentId: null,
      state,
      attempts: state === 'retry' ? 2 : 0,
      nextAttemptAt: 0,
      lastError: null,
      createdAt: 1,
      updatedAt: 1,
    });
    await old.table('accounts').add(account);
    await old
      .table('sectionItems')
      .add({ id: 'item-1', serverId: 'a|b', accountId: 'local-1', section: 'assets' });
    await old
      .table('outbox')
      .bulkAdd([
        op('op-1', 'inflight', 'update'),
        op('op-2', 'retry', 'update'),
        op('op-3', 'queued', 'delete'),
      ]);
    await old.table('conflicts').add({ id: 'op-2', recordId: 'local-1', fields: {} });
    await old.table('meta').add({ key: 'pull.accounts', value: { pageSize: 200 } });
    const outboxBefore = await old.table<Operation, number>('outbox').orderBy('seq').toArray();
    old.close();

    const db = new AdvisorDb(name, fakeIdb);
    await db.open();
    expect(db.verno).toBeGreaterThanOrEqual(2);
    expect(await db.outbox.orderBy('seq').toArray()).toEqual(outboxBefore);
    // As it was: the list's order keys that version 4 wrote beside it went with version 8.
    expect(await db.accounts.get('local-1')).toEqual(account);
    expect(await db.accounts.where('serverId').equals(7).count()).toBe(1);
    expect(await db.sectionItems.where('[accountId+section]').equals(['local-1', 'assets']).count()).toBe(1);
    expect(await db.conflicts.get('op-2')).toBeDefined();
    expect((await db.meta.get('pull.accounts'))?.value).toEqual({ pageSize: 200 });
    // The outbox keeps counting where it was.
    const seq = await db.outbox.add(op('op-4', 'queued', 'update'));
    expect(seq).toBeGreaterThan(Math.max(...outboxBefore.map((o) => o.seq!)));
    // The new tables are there, empty, and take rows.
    for (const table of [
      'memberSecurity',
      'profileValues',
      'accountActivity',
      'engagements',
      'engagementParts',
      'forms',
      'reports',
      'userActivity',
    ])
      expect(await db.table(table).count(), table).toBe(0);
    const engagement = {
      id: 'e-1',
      accountServerId: 7,
      completed: 0,
      createdAt: '2024-01-01 00:00:00',
      search: ['intake'],
    };
    await db.engagements.add(engagement as unknown as EngagementRow);
    expect(
      await db.engagements.where('[accountServerId+createdAt]').equals([7, '2024-01-01 00:00:00']).count(),
    ).toBe(1);
    db.close();
  });
});
