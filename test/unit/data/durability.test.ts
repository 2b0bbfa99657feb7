// Outbox transactions use strict durability (DESIGN.md §3): the change a caller was told is saved
// is on disk. Dexie hands the option to IndexedDB with every transaction it opens; this watches
// the transactions the database really opens (fake-indexeddb underneath) while a change is made.

import { afterEach, describe, expect, it } from 'vitest';
import { createRecord, updateRecord } from '../../../renderer/src/data/changes/index.ts';
import { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { IDENTITY_META_KEY } from '../../../renderer/src/data/identity/index.ts';
import { SANDBOX_TEAM, clientFields, fakeIdb, newUserKey } from '../../support/store.ts';

interface Opened {
  stores: string[];
  mode: string;
  durability: string | undefined;
}

// The Node configuration loads no DOM types: the little of IndexedDB this touches, by shape.
type Transaction = (stores: string | string[], mode?: string, options?: { durability?: string }) => unknown;
interface OpenRequest {
  result: { transaction: Transaction };
  addEventListener(type: 'success', listener: () => void): void;
}
interface Factory {
  open(name: string, version?: number): OpenRequest;
}

/** fake-indexeddb, with every transaction a database opens recorded. */
function recordingIdb(opened: Opened[]): typeof fakeIdb {
  const factory = fakeIdb.indexedDB as unknown as Factory;
  const open = (name: string, version?: number): OpenRequest => {
    const request = factory.open(name, version);
    request.addEventListener('success', () => {
      const idb = request.result;
      const transaction = idb.transaction.bind(idb);
      idb.transaction = (stores, mode, options) => {
        opened.push({ stores: [stores].flat(), mode: mode ?? 'readonly', durability: options?.durability });
        return transaction(stores, mode, options);
      };
    });
    return request;
  };
  const indexedDB = new Proxy(factory, {
    get: (target, key): unknown => (key === 'open' ? open : Reflect.get(target, key, target)),
  });
  return { ...fakeIdb, indexedDB };
}

let db: AdvisorDb | null = null;
afterEach(async () => {
  await db?.delete();
  db = null;
});

describe('strict durability', () => {
  it('every transaction that writes the outbox is opened with durability "strict"', async () => {
    const opened: Opened[] = [];
    db = new AdvisorDb(`durable-${crypto.randomUUID()}`, recordingIdb(opened));
    await db.open();
    await db.meta.put({ key: IDENTITY_META_KEY, value: { user: newUserKey(), team: SANDBOX_TEAM } });
    opened.length = 0;
    const { id } = await createRecord(db, 'accounts', { fields: clientFields() });
    await updateRecord(db, 'accounts', id, { 'client.first_name': 'Bea' });
    const writes = opened.filter((t) => t.mode === 'readwrite' && t.stores.includes('outbox'));
    expect(writes.length).toBeGreaterThanOrEqual(2);
    expect(writes.every((t) => t.durability === 'strict')).toBe(true);
  });
});
