// Files and PIN resets in the change module, over fake-indexeddb: blob, operation and record in one
// transaction, and the coalescing rules per file field (a new file replaces one not yet sent, a
// removal cancels it, a Documents item carries its file in its create) and per member (one reset).

import { describe, expect, it } from 'vitest';
import {
  ChangeRefused,
  createRecord,
  deleteRecord,
  forgetAccount,
  queueRemoveFile,
  queueResetPin,
  queueUpload,
} from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import type { PendingFile } from '../../../renderer/src/data/files.ts';
import { clientFields, outbox, storePerTest, syncedAccount, syncedItem } from '../../support/store.ts';

let db: AdvisorDb;
storePerTest((fresh) => (db = fresh));

const png = (size: number, fill = 1) => ({
  name: `photo-${fill}.png`,
  type: 'image/png',
  bytes: new Uint8Array(size).fill(fill),
});
const serverFile = {
  type: 'image',
  url: 'https://x/files/1/old.png',
  filetype: 'image/png',
  filesize: 1,
  filename: 'old.png',
};

/** The full member details of the client of an account on the server, as a pull stores them. */
async function details(photo: unknown = null) {
  const account = await syncedAccount(db, 7);
  const id = `${account.id}:details:client`;
  const fields = { first_name: 'Ann', photo, 'drivers_license.document': null };
  await db.singles.add({
    id,
    serverId: id,
    accountId: account.id,
    key: 'details:client',
    fields,
    server: { ...fields },
    status: 'synced',
    changedAt: 0,
  });
  return { account, id };
}

const photoOf = (id: string) => ({ table: 'singles' as const, recordId: id, field: 'photo' });
const bytesOf = async (fileId: string) =>
  new Uint8Array(await (await db.files.get(fileId))!.blob.arrayBuffer());

describe('queueUpload', () => {
  it('keeps the blob, queues the upload and shows the file on the record, in one go', async () => {
    const { id } = await details();
    const { opId } = await queueUpload(db, { ...photoOf(id), file: png(3000) });
    const [op] = await outbox(db);
    const shown = (await db.singles.get(id))?.fields.photo as PendingFile;
    expect(op).toMatchObject({ id: opId, kind: 'upload', table: 'singles', recordId: id, state: 'queued' });
    expect(op?.fields).toEqual({ photo: shown });
    expect(shown).toMatchObject({ filename: 'photo-1.png', filesize: 3, filetype: 'image/png', url: null });
    expect(await bytesOf(shown.localFile)).toEqual(png(3000).bytes);
    expect((await db.files.get(shown.localFile))?.owner).toMatch(/^accounts:.*:details:client:photo$/);
    expect((await db.singles.get(id))?.status).toBe('pending');
  });

  it('a second file for the same field replaces the first one not yet sent, blob and all', async () => {
    const { id } = await details();
    await queueUpload(db, { ...photoOf(id), file: png(10, 1) });
    const { opId } = await queueUpload(db, { ...photoOf(id), file: png(20, 2) });
    const ops = await outbox(db);
    expect(ops).toHaveLength(1);
    expect(ops[0]?.id).toBe(opId);
    const file = ops[0]?.fields.photo as PendingFile;
    expect(await db.files.count()).toBe(1);
    expect(await bytesOf(file.localFile)).toEqual(png(20, 2).bytes);
  });

  it('never replaces an upload in flight: the new file queues behind it', async () => {
    const { id } = await details();
    await queueUpload(db, { ...photoOf(id), file: png(10, 1) });
    await db.outbox.toCollection().modify({ state: 'inflight' });
    await queueUpload(db, { ...photoOf(id), file: png(20, 2) });
    expect((await outbox(db)).map((op) => [op.kind, op.state])).toEqual([
      ['upload', 'inflight'],
      ['upload', 'queued'],
    ]);
    expect(await db.files.count()).toBe(2);
  });

  it('files of different fields stay apart; an edit of the record queues beside them', async () => {
    const { id } = await details();
    await queueUpload(db, { ...photoOf(id), file: png(10) });
    await queueUpload(db, { ...photoOf(id), field: 'drivers_license.document', file: png(10) });
    expect((await outbox(db)).map((op) => Object.keys(op.fields))).toEqual([
      ['photo'],
      ['drivers_license.document'],
    ]);
  });

  it('a file chosen for a record on the platform that was never read here starts its single record', async () => {
    const account = await syncedAccount(db, 7);
    const id = `${account.id}:details:coclient`;
    await queueUpload(db, { ...photoOf(id), file: png(10) });
    expect(await db.singles.get(id)).toMatchObject({
      accountId: account.id,
      key: 'details:coclient',
      status: 'pending',
    });
  });

  it('refuses what is not a file field, an empty file, and a record being deleted', async () => {
    const { id } = await details();
    await expect(queueUpload(db, { ...photoOf(id), field: 'first_name', file: png(10) })).rejects.toThrow(
      ChangeRefused,
    );
    await expect(queueUpload(db, { ...photoOf(id), file: png(0) })).rejects.toThrow(/empty/);
    const account = await syncedAccount(db, 8, clientFields('Bo'));
    const job = await syncedItem(db, account.id, 'employment:client', 'a|b', { employer: 'Acme' });
    await deleteRecord(db, 'sectionItems', job.id);
    await expect(
      queueUpload(db, { table: 'sectionItems', recordId: job.id, field: 'document', file: png(10) }),
    ).rejects.toThrow(/being deleted/);
    expect(await db.files.count()).toBe(0);
  });
});

describe('queueRemoveFile', () => {
  it('upload then removal before sending: nothing is sent, the blob is gone', async () => {
    const { id } = await details();
    const upload = await queueUpload(db, { ...photoOf(id), file: png(10) });
    const removal = await queueRemoveFile(db, photoOf(id));
    expect(removal.opId).toBeNull();
    expect(await outbox(db)).toEqual([]);
    expect(await db.files.count()).toBe(0);
    expect(await db.singles.get(id)).toMatchObject({ status: 'synced', fields: { photo: null } });
    expect(upload.opId).not.toBeNull();
  });

  it('removing a file the platform holds cancels a queued upload and queues one removal', async () => {
    const { id } = await details(serverFile);
    await queueUpload(db, { ...photoOf(id), file: png(10) });
    await queueRemoveFile(db, photoOf(id));
    const ops = await outbox(db);
    expect(ops.map((op) => [op.kind, op.fields])).toEqual([['removeFile', { photo: null }]]);
    expect(await db.files.count()).toBe(0);
    // A new file after the removal: one upload again.
    await queueUpload(db, { ...photoOf(id), file: png(10) });
    expect((await outbox(db)).map((op) => op.kind)).toEqual(['upload']);
  });

  it('nothing to remove when neither the record nor the platform has a file', async () => {
    const { id } = await details();
    expect((await queueRemoveFile(db, photoOf(id))).opId).toBeNull();
    expect(await outbox(db)).toEqual([]);
  });

  it('a removal after an upload in flight follows it', async () => {
    const { id } = await details();
    await queueUpload(db, { ...photoOf(id), file: png(10) });
    await db.outbox.toCollection().modify({ state: 'inflight' });
    await queueRemoveFile(db, photoOf(id));
    expect((await outbox(db)).map((op) => op.kind)).toEqual(['upload', 'removeFile']);
  });
});

describe('records created with their file', () => {
  it('a Documents item carries its file inside its create; a new file replaces it there', async () => {
    const account = await syncedAccount(db, 7);
    const relation = { type: 'client', id: null };
    const { id, opId } = await createRecord(db, 'sectionItems', {
      accountId: account.id,
      section: 'documents',
      fields: { relation },
      files: { file: { name: 'will.pdf', type: 'application/pdf', bytes: new Uint8Array(2048) } },
    });
    let ops = await outbox(db);
    expect(ops.map((op) => [op.id, op.kind])).toEqual([[opId, 'create']]);
    expect(ops[0]?.fields).toMatchObject({ relation, file: { filename: 'will.pdf', filesize: 2 } });
    expect((await db.sectionItems.get(id))?.fields.file).toMatchObject({ filename: 'will.pdf' });

    await queueUpload(db, { table: 'sectionItems', recordId: id, field: 'file', file: png(10) });
    ops = await outbox(db);
    expect(ops.map((op) => op.kind)).toEqual(['create']);
    expect(ops[0]?.fields.file).toMatchObject({ filename: 'photo-1.png' });
    expect(await db.files.count()).toBe(1);
    await expect(queueRemoveFile(db, { table: 'sectionItems', recordId: id, field: 'file' })).rejects.toThrow(
      /delete the document/,
    );

    // Create + delete before it was sent: nothing at all, the blob included.
    await deleteRecord(db, 'sectionItems', id);
    expect(await outbox(db)).toEqual([]);
    expect(await db.files.count()).toBe(0);
  });

  it('an employment item queues its create, then the upload of its document, which waits for it', async () => {
    const account = await syncedAccount(db, 7);
    const { id, opId } = await createRecord(db, 'sectionItems', {
      accountId: account.id,
      section: 'employment:client',
      fields: { employer: 'Acme' },
      files: { document: { name: 'contract.pdf', type: 'application/pdf', bytes: new Uint8Array(10) } },
    });
    const ops = await outbox(db);
    expect(ops.map((op) => [op.kind, op.recordId, op.parentId])).toEqual([
      ['create', id, null],
      ['upload', id, id],
    ]);
    expect(ops[0]?.id).toBe(opId);
    expect(ops[0]?.fields).toEqual({ employer: 'Acme' });
    expect((await db.sectionItems.get(id))?.fields).toMatchObject({
      employer: 'Acme',
      document: { filename: 'contract.pdf' },
    });
  });
});

describe('queueResetPin', () => {
  it('two resets not yet sent are one; a reset asked while one is in flight follows it', async () => {
    const account = await syncedAccount(db, 7);
    const first = await queueResetPin(db, account.id, 'client');
    const second = await queueResetPin(db, account.id, 'client');
    expect(second.opId).toBe(first.opId);
    expect((await outbox(db)).map((op) => [op.kind, op.table, op.fields])).toEqual([
      ['resetPin', 'accounts', { member: 'client' }],
    ]);
    expect((await db.accounts.get(account.id))?.status).toBe('pending');

    await db.outbox.toCollection().modify({ state: 'inflight' });
    const third = await queueResetPin(db, account.id, 'client');
    expect(third.opId).not.toBe(first.opId);
    expect((await outbox(db)).map((op) => op.state)).toEqual(['inflight', 'queued']);
  });

  it('refuses a co-client reset for an account without co-client; the account view is untouched', async () => {
    const account = await syncedAccount(db, 7);
    await expect(queueResetPin(db, account.id, 'coclient')).rejects.toThrow(/no co-client/);
    expect(await outbox(db)).toEqual([]);
  });
});

describe('forgetAccount', () => {
  it('removes the account with its items, single records, operations, conflicts and files', async () => {
    const { account, id } = await details();
    const other = await syncedAccount(db, 8, clientFields('Bo'));
    await createRecord(db, 'sectionItems', {
      accountId: account.id,
      section: 'employment:client',
      fields: { employer: 'Acme' },
      files: { document: { name: 'c.pdf', type: 'application/pdf', bytes: new Uint8Array(10) } },
    });
    await queueUpload(db, { ...photoOf(id), file: png(10) });
    await queueUpload(db, { ...photoOf(`${other.id}:details:client`), file: png(10) });
    await db.conflicts.add({ id: 'c1', table: 'singles', recordId: id, fields: {}, detectedAt: 0 });

    await forgetAccount(db, account.id);
    expect(await db.accounts.toCollection().primaryKeys()).toEqual([other.id]);
    expect(await db.sectionItems.count()).toBe(0);
    expect((await db.singles.toArray()).map((r) => r.accountId)).toEqual([other.id]);
    expect((await outbox(db)).map((op) => op.recordId)).toEqual([`${other.id}:details:client`]);
    expect(await db.conflicts.count()).toBe(0);
    expect((await db.files.toArray()).map((f) => f.owner)).toEqual([
      `accounts:${other.id}:details:client:photo`,
    ]);
  });
});
