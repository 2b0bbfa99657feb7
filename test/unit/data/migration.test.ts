// Unsent changes survive a schema migration (DESIGN.md §3, Writes and the outbox): a database
// written by the version-1 schema — accounts, an item, single records, operations in every state
// and a conflict — opened by the current AdvisorDb keeps every row and operation as it was, and
// the push engine then sends them to the sandbox platform, once each.
//
// The version-1 schema is copied here on purpose: it is what an installed app left on disk, and
// must not follow later edits of db.ts. The test holds whatever the current version is.

import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { IDENTITY_META_KEY } from '../../../renderer/src/data/identity/index.ts';
import { accountIndex, emptyMeta } from '../../../renderer/src/data/accounts.ts';
import type {
  AccountRow,
  ConflictRow,
  Fields,
  MetaRow,
  Operation,
  SectionItemRow,
  SingleRow,
} from '../../../renderer/src/data/model.ts';
import { PushEngine } from '../../../renderer/src/sync/push/index.ts';
import { ADVISOR, sandboxUser } from '../../support/sandbox-client.ts';
import type { AccountRecord } from '../../platform/model.ts';
import { sandbox } from '../../support/sandbox.ts';
import { clientFields, fakeIdb, newUserKey, openDb } from '../../support/store.ts';

const VERSION_1 = {
  accounts:
    'id, &serverId, type, archived, favorited, pipelineId, createdAt, updatedAt, *search, status, availableOffline, openedAt, ' +
    '[archived+type], [archived+favorited], [archived+createdAt], [archived+updatedAt]',
  sectionItems: 'id, serverId, accountId, [accountId+section], status',
  singles: 'id, accountId, [accountId+key], status',
  outbox: '++seq, &id, recordId, [table+recordId], state, parentId',
  conflicts: 'id, recordId',
  files: 'id, owner',
  meta: 'key',
};

const platform = sandbox({ accounts: 10 });
const advisor = sandboxUser(platform, ADVISOR);

const NOW = 1_700_000_000_000;
const stamp = Date.now();

function accountRow(id: string, serverId: number | null, fields: Fields, server: Fields | null): AccountRow {
  const meta = emptyMeta();
  return {
    id,
    serverId,
    fields,
    server,
    status: serverId === null ? 'pending' : 'synced',
    changedAt: NOW,
    ...accountIndex(fields, meta),
    meta,
    availableOffline: serverId === null ? 1 : 0,
    openedAt: serverId === null ? NOW : null,
    pulledAt: null,
  };
}

function operation(
  table: Operation['table'],
  recordId: string,
  kind: Operation['kind'],
  state: Operation['state'],
  fields: Fields,
  extra: Partial<Operation> = {},
): Operation {
  return {
    id: crypto.randomUUID(),
    table,
    recordId,
    kind,
    fields,
    base: {},
    parentId: null,
    state,
    attempts: state === 'queued' ? 0 : 1,
    nextAttemptAt: 0,
    lastError: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...extra,
  };
}

/** What an installed version-1 app left behind: records, and changes in every state. */
function version1Data(s: AccountRecord, c: AccountRecord) {
  const made = clientFields('Mia', `mia-${stamp}@example.com`);
  const uncertain = clientFields('Uma', `uma-${stamp}@example.com`);
  const refused = clientFields('Rex', 'not-an-email');
  const theirs = clientFields(s.client.first_name, s.client.email);
  const conflicted = clientFields(c.client.first_name, c.client.email);

  const accounts = [
    accountRow('a-made', null, made, null),
    accountRow('a-uncertain', null, uncertain, null),
    accountRow('a-refused', null, refused, null),
    accountRow('a-server', s.id, { ...theirs, 'client.first_name': 'Migrated' }, theirs),
    accountRow('a-conflict', c.id, { ...conflicted, 'client.last_name': 'Mine' }, conflicted),
  ];
  const asset = { name: 'Car', type: 'vehicle', owner: 'client', current_value: 9000 };
  const sectionItems: SectionItemRow[] = [
    {
      id: 'i-car',
      serverId: null,
      fields: asset,
      server: null,
      status: 'pending',
      changedAt: NOW,
      accountId: 'a-made',
      section: 'assets',
    },
  ];
  const singles: SingleRow[] = [
    {
      id: 'a-server:expenses-fixed',
      serverId: 'a-server:expenses-fixed',
      fields: { rent: { value: 900, frequency: 'monthly' } },
      server: { rent: { value: 900, frequency: 'monthly' } },
      status: 'synced',
      changedAt: NOW,
      accountId: 'a-server',
      key: 'expenses-fixed',
    },
  ];
  const conflictOp = operation(
    'accounts',
    'a-conflict',
    'update',
    'conflict',
    { 'client.last_name': 'Mine' },
    {
      base: { 'client.last_name': 'Tester' },
    },
  );
  const outbox: Operation[] = [
    operation('accounts', 'a-made', 'create', 'queued', made),
    operation('sectionItems', 'i-car', 'create', 'queued', asset, { parentId: 'a-made' }),
    // Sent when the app died: the engine must look for it on the server before sending again.
    operation('accounts', 'a-uncertain', 'create', 'inflight', uncertain),
    operation(
      'accounts',
      'a-server',
      'update',
      'retry',
      { 'client.first_name': 'Migrated' },
      {
        base: { 'client.first_name': s.client.first_name },
        lastError: { kind: 'network', status: null, message: 'offline', fields: {} },
      },
    ),
    operation('accounts', 'a-refused', 'create', 'rejected', refused, {
      lastError: {
        kind: 'validation',
        status: 422,
        message: 'The given data was invalid.',
        fields: { 'client.email': ['The client.email must be a valid email address.'] },
      },
    }),
    conflictOp,
  ].map((op, i) => ({ ...op, seq: i + 1 }));
  const conflicts: ConflictRow[] = [
    {
      id: conflictOp.id,
      table: 'accounts',
      recordId: 'a-conflict',
      fields: { 'client.last_name': { base: 'Tester', mine: 'Mine', theirs: c.client.last_name } },
      detectedAt: NOW,
    },
  ];
  const meta: MetaRow[] = [{ key: 'pull.accounts', value: { pageSize: 500, newestUpdatedAt: null } }];
  return { accounts, sectionItems, singles, outbox, conflicts, files: [], meta };
}

describe('migrating from the version-1 schema', () => {
  it('keeps every row and operation unchanged, and the push sends them afterwards', async () => {
    const name = `migration-${crypto.randomUUID()}`;
    const state = platform.control.dump();
    const team = state.users.find((u) => u.email === ADVISOR)?.currentTeamId;
    const [s, c] = state.accounts.filter((a) => a.teamId === team);
    if (!s || !c) throw new Error('the sandbox has no accounts for the advisor');
    const before = version1Data(s, c);

    const v1 = new Dexie(name, fakeIdb);
    v1.version(1).stores(VERSION_1);
    await v1.open();
    for (const [table, rows] of Object.entries(before)) await v1.table(table).bulkAdd(rows);
    v1.close();

    const db = openDb(name);
    try {
      await db.open();
      expect(db.verno).toBeGreaterThanOrEqual(1);
      // Later versions may add tables and fields; nothing of version 1 may change or go.
      for (const [table, rows] of Object.entries(before)) {
        const store = db.table(table);
        const key = store.schema.primKey.keyPath as string;
        expect(await store.count(), table).toBe(rows.length);
        const keys = rows.map((row) => (row as unknown as Record<string, string | number>)[key]!);
        expect(await store.bulkGet(keys), table).toMatchObject(rows);
      }

      // Changes of an earlier version carry no stamp: they go once the store is adopted by its
      // identity (recorded, and its changes stamped with it), as the session adopts it.
      const identity = { user: newUserKey(), team: team! };
      await db.meta.put({ key: IDENTITY_META_KEY, value: identity });
      await db.outbox.toCollection().modify({ identity });
      const report = await new PushEngine({ db, send: advisor.send, backoff: { baseMs: 0 } }).run();
      // The create, its item, the uncertain create and the retried update; refused and conflict wait.
      expect(report).toMatchObject({ synced: 4, adopted: 0, rejected: 0, conflicts: 0, remaining: 2 });
      expect((await db.outbox.toArray()).map((op) => op.state).sort()).toEqual(['conflict', 'rejected']);

      const server = platform.control.dump().accounts;
      const made = server.filter((a) => a.client.email === `mia-${stamp}@example.com`);
      expect(made).toHaveLength(1);
      expect(made[0]?.sections?.assets?.map((item) => item.fields.name)).toEqual(['Car']);
      expect(server.filter((a) => a.client.email === `uma-${stamp}@example.com`)).toHaveLength(1);
      expect(server.find((a) => a.id === s.id)?.client.first_name).toBe('Migrated');
      expect(server.find((a) => a.id === c.id)?.client.last_name).toBe(c.client.last_name);
      // The refused create was not sent again.
      expect(advisor.requests.some((r) => JSON.stringify(r.body ?? '').includes('not-an-email'))).toBe(false);
      expect((await db.accounts.get('a-made'))?.serverId).toBe(made[0]?.id);
    } finally {
      await db.delete();
    }
  });
});
