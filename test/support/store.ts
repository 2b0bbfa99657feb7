// The store fixture: a fresh local store per test (fake-indexeddb), recording the identity it
// belongs to, and rows as a pull would have left them.

import * as fakeIndexedDb from 'fake-indexeddb';
import { afterEach, beforeEach } from 'vitest';
import { accountIndex, emptyMeta } from '../../renderer/src/data/accounts.ts';
import { sandboxProfile } from '@shared/settings.ts';
import { AdvisorDb } from '../../renderer/src/data/db.ts';
import { MIGRATIONS } from '../../renderer/src/data/migrations/index.ts';
import { IDENTITY_META_KEY, userKey, type StoreIdentity } from '../../renderer/src/data/identity/index.ts';
import { openStore } from '../../renderer/src/data/identity/current-store.ts';
import type {
  AccountRow,
  Fields,
  Operation,
  SectionItemRow,
  SingleRow,
} from '../../renderer/src/data/model.ts';

/** The schema version the current AdvisorDb opens a store at: the last migration's. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version;

// Its types name the DOM's IndexedDB types, which the Node configuration does not load.
const { indexedDB, IDBKeyRange } = fakeIndexedDb as unknown as NonNullable<
  ConstructorParameters<typeof AdvisorDb>[1]
>;

/** The fake IndexedDB every test database lives in (for a raw Dexie on the same databases). */
export const fakeIdb = { indexedDB, IDBKeyRange };

/** The sandbox's first team (Main Street Advisors), current for both seeded users. */
export const SANDBOX_TEAM = 1;

/** A user key (data/identity.ts) of its own: 32 hex characters. */
export const newUserKey = (): string => crypto.randomUUID().replaceAll('-', '');

/**
 * A store, recording `identity` when it is created (as the app's store does when first opened);
 * by default a user of its own in the sandbox's first team. `null`: a store of an earlier version,
 * recording none. Reopening an existing store keeps what it recorded.
 */
export function openDb(
  name = `test-${crypto.randomUUID()}`,
  identity: StoreIdentity | null = { user: newUserKey(), team: SANDBOX_TEAM },
): AdvisorDb {
  const db = new AdvisorDb(name, fakeIdb);
  if (identity)
    db.on('populate', (tx) => {
      void tx.table('meta').add({ key: IDENTITY_META_KEY, value: identity });
    });
  return db;
}

/**
 * Registers, for each test of the enclosing file or `describe`, a fresh store (`open`, by default
 * `openDb()`) handed to `use` before the test and deleted after it. Hooks run in the order they
 * are registered (after-hooks in the reverse): register it before the hooks that fill the store.
 */
export function storePerTest(use: (db: AdvisorDb) => void, open: () => AdvisorDb = () => openDb()): void {
  let db: AdvisorDb | undefined;
  beforeEach(() => {
    db = open();
    use(db);
  });
  afterEach(async () => {
    await db?.delete();
    db = undefined;
  });
}

/**
 * The store of one identity as the app opens it (named for it, the identity recorded): handed to
 * `useLocalDb`, the frame finds it open when it follows that identity.
 */
export function openIdentityDb(identity: StoreIdentity): Promise<AdvisorDb> {
  return openStore(identity, { dexie: fakeIdb });
}

/** The identity of a platform user (its email stands in for the id the platform does not send). */
export async function identityOf(
  user: { email: string; team: { id: number } },
  base = sandboxProfile().v2.baseUrl,
): Promise<StoreIdentity> {
  return { user: await userKey(base, user.email), team: user.team.id };
}

export const clientFields = (name = 'Ann', email = `${name.toLowerCase()}@example.com`): Fields => ({
  type: 'CLIENT',
  'client.first_name': name,
  'client.last_name': 'Tester',
  'client.email': email,
});

/** The row of an account already on the server, as a pull stores it (for a store of any version). */
export function syncedAccountRow(
  serverId: number,
  fields = clientFields(),
  id: string = crypto.randomUUID(),
): AccountRow {
  const meta = emptyMeta();
  return {
    id,
    serverId,
    fields: { ...fields },
    server: { ...fields },
    status: 'synced',
    changedAt: 0,
    ...accountIndex(fields, meta),
    meta,
    availableOffline: 0,
    openedAt: null,
    pulledAt: null,
  };
}

/** An account already on the server, as a pull stores it. */
export async function syncedAccount(
  db: AdvisorDb,
  serverId: number,
  fields = clientFields(),
): Promise<AccountRow> {
  const row = syncedAccountRow(serverId, fields);
  await db.accounts.add(row);
  // As the store gives it back.
  return (await db.accounts.get(row.id))!;
}

/** A section item already on the server. */
export async function syncedItem(
  db: AdvisorDb,
  accountId: string,
  section: string,
  serverId: string,
  fields: Fields,
): Promise<SectionItemRow> {
  const row: SectionItemRow = {
    id: crypto.randomUUID(),
    serverId,
    fields: { ...fields },
    server: { ...fields },
    status: 'synced',
    changedAt: 0,
    accountId,
    section,
  };
  await db.sectionItems.add(row);
  return row;
}

/** A single-record section (or member details) as a pull stores it. */
export async function syncedSingle(
  db: AdvisorDb,
  accountId: string,
  key: string,
  fields: Fields,
): Promise<SingleRow> {
  const row: SingleRow = {
    id: `${accountId}:${key}`,
    serverId: `${accountId}:${key}`,
    accountId,
    key,
    fields: { ...fields },
    server: { ...fields },
    status: 'synced',
    changedAt: 0,
  };
  await db.singles.add(row);
  return row;
}

export async function outbox(db: AdvisorDb) {
  return db.outbox.orderBy('seq').toArray();
}

/** An operation waiting in the outbox, as the change module queues it (an update of an account). */
export function queuedOperation(id: string, fields: Fields = { 'client.first_name': 'Ann' }): Operation {
  return {
    ...{ id, table: 'accounts', recordId: 'acc-1', kind: 'update', fields, base: {}, parentId: null },
    ...{ state: 'queued', attempts: 0, nextAttemptAt: 0, lastError: null, createdAt: 1, updatedAt: 1 },
  };
}
