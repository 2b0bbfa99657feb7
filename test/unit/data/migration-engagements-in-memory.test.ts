// Schema version 9 answers the engagement list from the index in memory and drops the engagements
// table's `*search` index (its keys held titles and members' names). A database written by version
// 8 — engagements of two accounts, their outputs, an account, and operations in several states,
// among them an engagement send and close — opened by the current AdvisorDb: every record and every
// queued change is there as it was, the index is gone, and the list's search, sorts, filters and
// paging still answer.

import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { MIGRATIONS } from '../../../renderer/src/data/migrations/index.ts';
import type { Operation } from '../../../renderer/src/data/model.ts';
import { listEngagements, pendingEngagementChanges } from '../../../renderer/src/data/queries/index.ts';
import { engagementRow } from '../../../renderer/src/data/records.ts';
import {
  SCHEMA_VERSION,
  clientFields,
  fakeIdb,
  queuedOperation,
  syncedAccountRow,
} from '../../support/store.ts';

const names: string[] = [];
afterEach(async () => {
  for (const name of names.splice(0)) await new Dexie(name, fakeIdb).delete();
});

/** An engagement as a pull of version 8 stored it (search terms beside the platform's copy). */
function engagement(id: string, account: number, title: string, name: string, created: string, done = false) {
  const row = engagementRow(
    {
      id,
      account_id: account,
      member_id: account * 10,
      template_id: 'tpl-1',
      title,
      description: '',
      security: 'LOW',
      name,
      email: '',
      url: 'https://example.com/e',
      status: done ? 'COMPLETED' : 'NEW',
      filled: done ? 100 : 0,
      time: 0,
      created_at: created,
      opened_at: null,
      email_reminders: false,
      reminded_at: null,
      email_completed: false,
      completed_at: done ? created : null,
    },
    7,
  );
  if (!row) throw new Error('not an engagement');
  return row;
}

describe('schema version 9: the engagement list answered from memory', () => {
  it('keeps every engagement and queued change, drops the search index, and the list answers', async () => {
    const name = `v9-${crypto.randomUUID()}`;
    names.push(name);
    const old = new Dexie(name, fakeIdb);
    for (const { version, stores } of MIGRATIONS.filter((m) => m.version <= 8))
      old.version(version).stores(stores);
    await old.table('accounts').add(syncedAccountRow(5, clientFields('Ann'), 'ann'));
    const engagements = [
      engagement('e-1', 5, 'Risk profile', 'Ann Tester', '2026-01-02T09:00:00Z'),
      engagement('e-2', 5, 'Annual review', 'Ann Tester', '2026-01-05T09:00:00Z', true),
      engagement('e-3', 6, 'Risk review', 'Émile Zola', '2026-01-03T09:00:00Z'),
    ];
    await old.table('engagements').bulkAdd(engagements);
    await old
      .table('engagementParts')
      .add({ id: 'e-2:data:0', engagementId: 'e-2', kind: 'data', position: 0 });
    const queued: Operation[] = [
      {
        ...queuedOperation('op-1', {}),
        recordId: 'ann',
        kind: 'sendEngagement',
        state: 'inflight',
      },
      {
        ...queuedOperation('op-2', { engagement: 'e-1' }),
        recordId: 'ann',
        kind: 'closeEngagement',
        state: 'retry',
      },
      { ...queuedOperation('op-3', { 'client.last_name': 'Öberg' }), recordId: 'ann', state: 'queued' },
    ];
    await old.table('outbox').bulkAdd(queued);
    const outboxBefore = await old.table<Operation, number>('outbox').orderBy('seq').toArray();
    expect(outboxBefore).toHaveLength(3);
    old.close();

    const db = new AdvisorDb(name, fakeIdb);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    // Every queued change as it was, and the outbox keeps counting where it was.
    expect(await db.outbox.orderBy('seq').toArray()).toEqual(outboxBefore);
    expect(await db.outbox.add({ ...queuedOperation('op-4', {}), recordId: 'ann' })).toBe(4);
    expect((await pendingEngagementChanges(db, 'ann')).map((c) => c.opId)).toEqual(['op-1', 'op-2']);
    // Every engagement and output as it was.
    expect(await db.engagements.orderBy('id').toArray()).toEqual(engagements);
    expect(await db.engagementParts.where('engagementId').equals('e-2').count()).toBe(1);
    // No index keyed by titles or names; the filters' and the default order's stay.
    const indexes = db.engagements.schema.indexes.map((i) => i.name);
    expect(indexes).not.toContain('search');
    expect(indexes).toEqual(
      expect.arrayContaining(['accountServerId', 'completed', 'createdAt', '[accountServerId+createdAt]']),
    );

    // The list answers: the default order, a prefix of a title or a name (any case), sorts, filters.
    const ids = async (q: Parameters<typeof listEngagements>[1]) =>
      (await listEngagements(db, q)).items.map((r) => r.id);
    expect(await ids({})).toEqual(['e-2', 'e-3', 'e-1']);
    expect(await ids({ search: 'RISK' })).toEqual(['e-3', 'e-1']);
    expect(await ids({ search: 'émile' })).toEqual(['e-3']);
    expect(await ids({ search: 'ann', sort: 'title' })).toEqual(['e-2', 'e-1']);
    expect(await ids({ accountId: 'ann', type: 'in-progress' })).toEqual(['e-1']);
    expect(await ids({ sort: 'title', offset: 1, limit: 1 })).toEqual(['e-1']);
    expect((await listEngagements(db, { search: 'r' })).total).toBe(2);
    db.close();
  });
});
