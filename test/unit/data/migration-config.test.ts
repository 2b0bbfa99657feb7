// Schema version 3 gives configuration tables of its own. A database written by version 2 — the
// configuration as `meta` rows, beside the outbox with operations in every state, a conflict,
// records and sync bookkeeping — opened by the current AdvisorDb: the configuration is in its
// tables and reads back as it was, its `meta` rows are gone, and everything else is untouched.

import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CONFIG_KEYS,
  configEntry,
  putConfigEntry,
  type ConfigKey,
} from '../../../renderer/src/data/config.ts';
import { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { STORES_V1, STORES_V2 } from '../../../renderer/src/data/migrations/index.ts';
import type { Operation } from '../../../renderer/src/data/model.ts';
import { listAccountIds } from '../../../renderer/src/data/queries/index.ts';
import { SCHEMA_VERSION, clientFields, fakeIdb, openDb, syncedAccount } from '../../support/store.ts';

const names: string[] = [];
afterEach(async () => {
  for (const name of names.splice(0)) await new Dexie(name, fakeIdb).delete();
});

const pipelines = [
  { id: 'p-lead', type: 'PROSPECT', title: 'Lead', icon: 'i_lead', description: '' },
  { id: 'p-won', type: 'CLIENT', title: 'Won', icon: 'i_won', description: '' },
  { id: 'p-new', type: 'PROSPECT', title: 'New', icon: 'i_new', description: '' },
];
const teams = [
  { id: 12, name: 'North' },
  { id: 3, name: 'South' },
];
const user = {
  first_name: 'Alex',
  last_name: 'Morgan',
  team: teams[0],
  teams,
  pipelines,
  permissions: { 'accounts.create': true },
  templates: [{ id: 't1', title: 'Intake' }],
};
const CONFIG: Record<string, { pulledAt: number; data: unknown }> = {
  [CONFIG_KEYS.icons]: { pulledAt: 11, data: ['i_user', 'i_home'] },
  [CONFIG_KEYS.activities]: { pulledAt: 12, data: [{ type: 'engagement.created', title: 'Created' }] },
  [CONFIG_KEYS.dataset]: { pulledAt: 13, data: { panels: [], groups: [{ id: 'g1' }], elements: [] } },
  [CONFIG_KEYS.user]: { pulledAt: 14, data: user },
  [CONFIG_KEYS.templates]: { pulledAt: 15, data: { t1: { panels: [{ id: 'x' }] } } },
  [CONFIG_KEYS.userV0]: { pulledAt: 16, data: { company: 'Morgan & Co', phone: '555' } },
  [CONFIG_KEYS.formTemplates]: { pulledAt: 17, data: [{ key: 'intake', title: 'Intake' }] },
};

function operation(seq: number, state: Operation['state'], kind: Operation['kind']): Operation {
  return {
    id: `op-${seq}`,
    table: kind === 'create' ? 'sectionItems' : 'accounts',
    recordId: kind === 'create' ? 'item-1' : 'local-1',
    kind,
    fields:
      kind === 'create'
        ? { name: 'House', owner: { type: 'client', id: null } }
        : { 'client.first_name': `v${seq}` },
    base: kind === 'update' ? { 'client.first_name': 'Ann' } : {},
    parentId: null,
    state,
    attempts: state === 'retry' ? 3 : 0,
    nextAttemptAt: state === 'retry' ? 99 : 0,
    lastError:
      state === 'rejected' ? { kind: 'validation', status: 422, message: 'no', fields: { x: ['no'] } } : null,
    createdAt: seq,
    updatedAt: seq,
  };
}

/** A database as schema version 2 left it on disk. */
async function versionTwo(name: string) {
  const old = new Dexie(name, fakeIdb);
  old.version(1).stores(STORES_V1);
  old.version(2).stores(STORES_V2);
  const states: [Operation['state'], Operation['kind']][] = [
    ['inflight', 'create'],
    ['retry', 'update'],
    ['rejected', 'update'],
    ['conflict', 'update'],
    ['queued', 'update'],
  ];
  await old.table('outbox').bulkAdd(states.map(([state, kind], i) => operation(i + 1, state, kind)));
  await old
    .table('conflicts')
    .add({ id: 'op-4', table: 'accounts', recordId: 'local-1', fields: {}, detectedAt: 1 });
  for (const [key, value] of Object.entries(CONFIG)) await old.table('meta').add({ key, value });
  await old.table('meta').add({ key: 'pull.accounts', value: { pageSize: 200 } });
  await old.table('meta').add({ key: 'relationTargets:local-1', value: { 'a|b': 'x' } });
  const before = {
    outbox: await old.table('outbox').orderBy('seq').toArray(),
    conflicts: await old.table('conflicts').toArray(),
  };
  old.close();
  return before;
}

describe('schema version 3: configuration tables', () => {
  it('moves configuration out of meta, reads it back as it was, and carries the outbox untouched', async () => {
    const name = `v3-${crypto.randomUUID()}`;
    names.push(name);
    const before = await versionTwo(name);

    const db = new AdvisorDb(name, fakeIdb);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(await db.outbox.orderBy('seq').toArray()).toEqual(before.outbox);
    expect(await db.conflicts.toArray()).toEqual(before.conflicts);
    // Sync bookkeeping stays in meta; configuration has left it.
    expect((await db.meta.toArray()).map((r) => r.key).sort()).toEqual([
      'pull.accounts',
      'relationTargets:local-1',
    ]);

    for (const [key, entry] of Object.entries(CONFIG))
      expect(await configEntry(db, key as ConfigKey), key).toEqual(entry);
    expect((await db.config.toArray()).map((r) => r.kind).sort()).toEqual(
      ['activities', 'dataset', 'formTemplates', 'icons', 'templates'].sort(),
    );
    expect(await db.user.get('v0')).toMatchObject({ data: CONFIG[CONFIG_KEYS.userV0]?.data });
    // Teams and stages are rows of their own, in the user resource's order.
    expect((await db.teams.orderBy('position').toArray()).map((t) => t.id)).toEqual([12, 3]);
    expect((await db.pipelines.orderBy('position').toArray()).map((p) => p.id)).toEqual([
      'p-lead',
      'p-won',
      'p-new',
    ]);
    expect(await db.pipelines.where('type').equals('PROSPECT').count()).toBe(2);
    expect((await db.user.get('v2'))?.data).not.toHaveProperty('pipelines');
    db.close();
  });

  it('the account list sorts by pipeline stage in the order of the migrated stages', async () => {
    const name = `v3-${crypto.randomUUID()}`;
    names.push(name);
    await versionTwo(name);
    const db = new AdvisorDb(name, fakeIdb);
    const stage = (id: string) => ({ ...clientFields(id, `${id}@example.com`), 'pipeline.id': id });
    const won = await syncedAccount(db, 1, stage('p-won'));
    const lead = await syncedAccount(db, 2, stage('p-lead'));
    const fresh = await syncedAccount(db, 3, stage('p-new'));
    expect(await listAccountIds(db, { sort: 'pipeline' })).toEqual([lead.id, won.id, fresh.id]);
    db.close();
  });

  it('a new user resource replaces the teams and stages whole', async () => {
    const db = openDb();
    names.push(db.name);
    await putConfigEntry(db, CONFIG_KEYS.user, { pulledAt: 1, data: user });
    const next = { ...user, teams: [teams[1]], pipelines: [pipelines[2], pipelines[0]] };
    await putConfigEntry(db, CONFIG_KEYS.user, { pulledAt: 2, data: next });
    expect(await configEntry(db, CONFIG_KEYS.user)).toEqual({ pulledAt: 2, data: next });
    expect(await db.teams.count()).toBe(1);
    expect(await db.pipelines.orderBy('position').primaryKeys()).toEqual(['p-new', 'p-lead']);
    // A user without lists keeps none, and gains none on the way back.
    const bare = { first_name: 'Alex' };
    await putConfigEntry(db, CONFIG_KEYS.user, { pulledAt: 3, data: bare });
    expect(await configEntry(db, CONFIG_KEYS.user)).toEqual({ pulledAt: 3, data: bare });
    expect(await db.pipelines.count()).toBe(0);
  });
});
