// Storage problems in plain words: Dexie's and IndexedDB's errors classified (wrapped ones too),
// a failing open with a clear answer, and a change that meets a full disk surfacing as one plain
// error with nothing half written.

import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeRefused, updateRecord } from '../../../renderer/src/data/changes/index.ts';
import { AdvisorDb } from '../../../renderer/src/data/db.ts';
import {
  openStorage,
  StorageError,
  storageProblem,
  withStorage,
} from '../../../renderer/src/data/storage.ts';
import { clientFields, openDb, outbox, syncedAccount } from '../../support/store.ts';

const dom = (name: string, message = name) => new DOMException(message, name);

let db: AdvisorDb | null = null;
afterEach(async () => {
  await db?.delete();
  db = null;
});

describe('classifying errors', () => {
  it.each([
    ['Dexie QuotaExceededError', new Dexie.QuotaExceededError()],
    ['IndexedDB DOMException', dom('QuotaExceededError', 'The quota has been exceeded.')],
    ['Firefox before the standard name', dom('NS_ERROR_DOM_QUOTA_REACHED')],
    [
      'a transaction aborted by a full disk (Dexie AbortError, inner DOMException)',
      new Dexie.AbortError('Transaction aborted', dom('QuotaExceededError')),
    ],
    [
      'one failure of a bulk write',
      new Dexie.BulkError('bulkPut failed', { 0: new Dexie.ConstraintError(), 3: dom('QuotaExceededError') }),
    ],
    ['an error given as the cause', new Error('save failed', { cause: dom('QuotaExceededError') })],
  ])('quota: %s', (_, error) => {
    const problem = storageProblem(error);
    expect(problem?.kind).toBe('quota');
    expect(problem?.message).toMatch(/no room left/);
    expect(problem?.whatToDo).toMatch(/Free some disk space/);
  });

  it.each([
    ['version', new Dexie.VersionError()],
    ['version', dom('VersionError')],
    ['unavailable', new Dexie.MissingAPIError()],
    // A private window refusing IndexedDB, as Dexie reports the failed open.
    ['unavailable', new Dexie.OpenFailedError(dom('InvalidStateError'))],
    ['unavailable', dom('SecurityError')],
    ['open-failed', new Dexie.OpenFailedError(dom('UnknownError', 'Internal error opening backing store'))],
    ['open-failed', new Dexie.UpgradeError('Not yet support for changing primary key')],
    // After a failed open, every query fails with DatabaseClosedError carrying the open's error.
    ['open-failed', new Dexie.DatabaseClosedError(new Dexie.OpenFailedError(dom('UnknownError')))],
    ['closed', new Dexie.DatabaseClosedError()],
    ['closed', new Dexie.VersionChangeError()],
  ] as const)('%s: %s', (kind, error) => {
    const problem = storageProblem(error);
    expect(problem?.kind).toBe(kind);
    expect(problem?.message.length).toBeGreaterThan(20);
    expect(problem?.whatToDo.length).toBeGreaterThan(20);
  });

  it('is not a storage problem: a refused change, a bug, a constraint', () => {
    expect(storageProblem(new ChangeRefused('The record is being deleted.'))).toBeNull();
    expect(storageProblem(new TypeError('x is undefined'))).toBeNull();
    expect(storageProblem(new Dexie.ConstraintError())).toBeNull();
    expect(storageProblem('nope')).toBeNull();
    expect(storageProblem(null)).toBeNull();
  });

  it('survives an error chain that points back at itself', () => {
    const a = new Dexie.AbortError('aborted') as Error & { inner: unknown };
    a.inner = new Error('loop', { cause: a });
    expect(storageProblem(a)).toBeNull();
  });
});

describe('real failures of the store', () => {
  it('no IndexedDB at all: the open answers "unavailable" instead of throwing', async () => {
    const result = await openStorage(new AdvisorDb(`no-idb-${crypto.randomUUID()}`, {}));
    expect(result).toMatchObject({ ok: false, problem: { kind: 'unavailable' } });
  });

  it('a database that opens: ok', async () => {
    db = openDb();
    expect(await openStorage(db)).toEqual({ ok: true });
    expect(db.isOpen()).toBe(true);
  });

  it('a query on a closed database: "closed", with a way out', async () => {
    db = openDb();
    await db.open();
    db.close({ disableAutoOpen: true });
    const error: unknown = await db.accounts.count().catch((e: unknown) => e);
    expect(storageProblem(error)?.kind).toBe('closed');
    expect(storageProblem(error)?.whatToDo).toMatch(/Reload/);
    await db.open();
  });

  it('a duplicate key is a bug, passed through unchanged', async () => {
    db = openDb();
    const row = await syncedAccount(db, 1);
    const error: unknown = await withStorage(() => db!.accounts.add(row)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Dexie.ConstraintError);
  });

  it('a change that meets a full disk: one plain-words error, and nothing half written', async () => {
    db = openDb();
    // The disk fills up under the account table: the change's outbox write goes through, the
    // record's does not (a DBCore middleware, as IndexedDB itself would fail the request).
    let full = false;
    db.use({
      stack: 'dbcore',
      name: 'full-disk',
      create: (down) => ({
        ...down,
        table: (name) => {
          const table = down.table(name);
          return {
            ...table,
            mutate: (req) =>
              full && name === 'accounts'
                ? Promise.reject(dom('QuotaExceededError', 'The quota has been exceeded.'))
                : table.mutate(req),
          };
        },
      }),
    });
    const row = await syncedAccount(db, 7, clientFields('Ann'));
    full = true;

    const error: unknown = await withStorage(() =>
      updateRecord(db!, 'accounts', row.id, { 'client.first_name': 'Anna' }),
    ).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).problem.kind).toBe('quota');
    expect((error as StorageError).message).toMatch(/no room left.*Nothing was half saved/);
    full = false;
    expect(await outbox(db)).toEqual([]);
    expect(await db.accounts.get(row.id)).toEqual(row);
  });
});
