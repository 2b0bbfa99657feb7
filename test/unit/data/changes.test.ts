// The change module: record and outbox in one transaction, and every coalescing rule of
// DESIGN.md §3 (Writes and the outbox), over fake-indexeddb.

import { describe, expect, it } from 'vitest';
import {
  ChangeRefused,
  DELETED_ON_SERVER,
  OperationRejected,
  createRecord,
  deleteRecord,
  filesGoneWith,
  queueResetPin,
  resolveConflict,
  signalOutbox,
  updateRecord,
  whenSynced,
} from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { clientFields, outbox, storePerTest, syncedAccount, syncedItem } from '../../support/store.ts';

let db: AdvisorDb;
storePerTest((fresh) => (db = fresh));

const asset = { name: 'House', type: 'primary-residence', owner: { type: 'client', id: null } };

describe('createRecord', () => {
  it('writes the record and its create in one go, with the index columns of an account', async () => {
    const { id, opId } = await createRecord(db, 'accounts', { fields: clientFields('Ann') });
    const row = await db.accounts.get(id);
    expect(row).toMatchObject({ serverId: null, server: null, status: 'pending', type: 'CLIENT' });
    // Each as typed, lower-cased, and the e-mail folded as the search reads it (issue 23, point 15).
    expect(row?.search).toEqual(['ann', 'tester', 'ann@example.com', 'annexamplecom']);
    const [op] = await outbox(db);
    expect(op).toMatchObject({ id: opId, kind: 'create', table: 'accounts', recordId: id, state: 'queued' });
    expect(op?.fields).toEqual(clientFields('Ann'));
  });

  it('gives items of an unsent account that account as parent, and none once it is on the server', async () => {
    const { id: fresh } = await createRecord(db, 'accounts', { fields: clientFields() });
    const synced = await syncedAccount(db, 7);
    await createRecord(db, 'sectionItems', { accountId: fresh, section: 'assets', fields: asset });
    await createRecord(db, 'sectionItems', { accountId: synced.id, section: 'assets', fields: asset });
    const [, child, other] = await outbox(db);
    expect(child?.parentId).toBe(fresh);
    expect(other?.parentId).toBeNull();
  });

  it('upserts single records: one row, one update, whatever the number of writes', async () => {
    const account = await syncedAccount(db, 7);
    const first = await createRecord(db, 'singles', {
      accountId: account.id,
      key: 'expenses-fixed',
      fields: { rent: { value: 900, frequency: 'monthly' } },
    });
    const second = await createRecord(db, 'singles', {
      accountId: account.id,
      key: 'expenses-fixed',
      fields: { loan: { value: 100, frequency: 'monthly' } },
    });
    expect(first.id).toBe(`${account.id}:expenses-fixed`);
    expect(second).toEqual(first);
    const ops = await outbox(db);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ kind: 'update', base: { rent: null, loan: null } });
    expect((await db.singles.get(first.id))?.fields).toEqual({
      rent: { value: 900, frequency: 'monthly' },
      loan: { value: 100, frequency: 'monthly' },
    });
  });

  it('refuses an item without its account', async () => {
    await expect(createRecord(db, 'sectionItems', { section: 'assets', fields: asset })).rejects.toThrow(
      ChangeRefused,
    );
    expect(await outbox(db)).toEqual([]);
  });
});

describe('coalescing', () => {
  it('create + later edits → one create carrying the final fields', async () => {
    const { id, opId } = await createRecord(db, 'accounts', { fields: clientFields('Ann') });
    const edit = await updateRecord(db, 'accounts', id, { 'client.first_name': 'Anne' });
    await updateRecord(db, 'accounts', id, { 'client.last_name': 'Other' });
    const ops = await outbox(db);
    expect(ops).toHaveLength(1);
    expect(edit.opId).toBe(opId);
    expect(ops[0]).toMatchObject({ kind: 'create' });
    expect(ops[0]?.fields).toMatchObject({ 'client.first_name': 'Anne', 'client.last_name': 'Other' });
    expect((await db.accounts.get(id))?.search).toContain('anne');
  });

  it('edit + edit → one update; the base of each field is the server value of its FIRST change', async () => {
    const account = await syncedAccount(db, 7);
    await updateRecord(db, 'accounts', account.id, { 'client.first_name': 'B' });
    // A pull moves the snapshot meanwhile: the base of the field already changed stays as it was.
    await db.accounts.update(account.id, {
      server: { ...account.server, 'client.first_name': 'Pulled', 'client.last_name': 'Pulled' },
    });
    await updateRecord(db, 'accounts', account.id, { 'client.first_name': 'C', 'client.last_name': 'D' });
    const ops = await outbox(db);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({
      kind: 'update',
      fields: { 'client.first_name': 'C', 'client.last_name': 'D' },
      base: { 'client.first_name': 'Ann', 'client.last_name': 'Pulled' },
    });
  });

  it('a patch that changes nothing queues nothing', async () => {
    const account = await syncedAccount(db, 7);
    const change = await updateRecord(db, 'accounts', account.id, { 'client.first_name': 'Ann' });
    expect(change.opId).toBeNull();
    expect(await outbox(db)).toEqual([]);
    expect((await db.accounts.get(account.id))?.status).toBe('synced');
  });

  it('an edit taken back drops the field, and the operation with its last field', async () => {
    const account = await syncedAccount(db, 7);
    const { opId } = await updateRecord(db, 'accounts', account.id, { 'client.first_name': 'B' });
    await updateRecord(db, 'accounts', account.id, { 'client.first_name': 'Ann' });
    expect(await outbox(db)).toEqual([]);
    expect((await db.accounts.get(account.id))?.status).toBe('synced');
    await expect(whenSynced(db, opId as string)).resolves.toBeUndefined();
  });

  it('create + delete before it was sent → nothing at all, the record removed', async () => {
    const account = await syncedAccount(db, 7);
    const { id, opId } = await createRecord(db, 'sectionItems', {
      accountId: account.id,
      section: 'assets',
      fields: asset,
    });
    await updateRecord(db, 'sectionItems', id, { name: 'Flat' });
    const gone = await deleteRecord(db, 'sectionItems', id);
    expect(gone.opId).toBeNull();
    expect(await outbox(db)).toEqual([]);
    expect(await db.sectionItems.get(id)).toBeUndefined();
    await expect(whenSynced(db, opId as string)).resolves.toBeUndefined();
  });

  it('update + delete → a delete; the row stays until the server confirms', async () => {
    const account = await syncedAccount(db, 7);
    const item = await syncedItem(db, account.id, 'assets', 'a|1', asset);
    await updateRecord(db, 'sectionItems', item.id, { name: 'Flat' });
    const { opId } = await deleteRecord(db, 'sectionItems', item.id);
    const ops = await outbox(db);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ id: opId, kind: 'delete' });
    expect(await db.sectionItems.get(item.id)).toMatchObject({ status: 'pending', serverId: 'a|1' });
    await expect(updateRecord(db, 'sectionItems', item.id, { name: 'X' })).rejects.toThrow(/being deleted/);
  });

  it('never merges into an operation in flight: new edits and deletes queue behind it', async () => {
    const account = await syncedAccount(db, 7);
    const item = await syncedItem(db, account.id, 'assets', 'a|1', asset);
    const first = await updateRecord(db, 'sectionItems', item.id, { name: 'Flat' });
    await db.outbox
      .where('id')
      .equals(first.opId as string)
      .modify({ state: 'inflight' });
    const second = await updateRecord(db, 'sectionItems', item.id, { name: 'Loft' });
    expect(second.opId).not.toBe(first.opId);
    let ops = await outbox(db);
    expect(ops.map((op) => [op.kind, op.state, op.fields.name])).toEqual([
      ['update', 'inflight', 'Flat'],
      ['update', 'queued', 'Loft'],
    ]);
    // Back to the server's value behind an operation in flight is still a change to send.
    await updateRecord(db, 'sectionItems', item.id, { name: 'House' });
    expect((await outbox(db))[1]?.fields).toEqual({ name: 'House' });

    await deleteRecord(db, 'sectionItems', item.id);
    ops = await outbox(db);
    expect(ops.map((op) => [op.kind, op.state])).toEqual([
      ['update', 'inflight'],
      ['delete', 'queued'],
    ]);
  });

  it('a create in flight is not undone by a delete: the delete follows it', async () => {
    const account = await syncedAccount(db, 7);
    const { id, opId } = await createRecord(db, 'sectionItems', {
      accountId: account.id,
      section: 'assets',
      fields: asset,
    });
    await db.outbox
      .where('id')
      .equals(opId as string)
      .modify({ state: 'inflight' });
    await deleteRecord(db, 'sectionItems', id);
    expect((await outbox(db)).map((op) => op.kind)).toEqual(['create', 'delete']);
  });

  it('an edit of a rejected change fixes it: merged and queued again', async () => {
    const { id, opId } = await createRecord(db, 'accounts', { fields: clientFields('Ann', 'not-an-email') });
    const error = { kind: 'validation', status: 422, message: 'bad', fields: { 'client.email': ['bad'] } };
    await db.outbox
      .where('id')
      .equals(opId as string)
      .modify({ state: 'rejected', lastError: error });
    await db.accounts.update(id, { status: 'rejected' });
    await updateRecord(db, 'accounts', id, { 'client.email': 'ann@example.com' });
    const [op] = await outbox(db);
    expect(op).toMatchObject({ id: opId, kind: 'create', state: 'queued', lastError: null });
    expect((await db.accounts.get(id))?.status).toBe('pending');
  });

  it('an edit fixes the rejected change even with another kind of change queued behind it', async () => {
    const account = await syncedAccount(db, 7);
    const { opId } = await updateRecord(db, 'accounts', account.id, { 'client.email': 'nope' });
    const { opId: reset } = await queueResetPin(db, account.id, 'client');
    const error = { kind: 'validation', status: 422, message: 'bad', fields: { 'client.email': ['bad'] } };
    await db.outbox
      .where('id')
      .equals(opId as string)
      .modify({ state: 'rejected', lastError: error });
    const fix = await updateRecord(db, 'accounts', account.id, { 'client.email': 'ann.fixed@example.com' });
    expect(fix.opId).toBe(opId);
    const ops = await outbox(db);
    expect(ops.map((op) => [op.id, op.state])).toEqual([
      [opId, 'queued'],
      [reset, 'queued'],
    ]);
    expect(ops[0]?.fields).toEqual({ 'client.email': 'ann.fixed@example.com' });
  });

  it('refuses account deletes (password and connection needed) and single-record deletes', async () => {
    const account = await syncedAccount(db, 7);
    await expect(deleteRecord(db, 'accounts', account.id)).rejects.toThrow(/password/);
    await expect(deleteRecord(db, 'singles', `${account.id}:expenses-fixed`)).rejects.toThrow(ChangeRefused);
    expect(await outbox(db)).toEqual([]);
  });
});

describe('whenSynced', () => {
  it('resolves when the push engine says the operation left the outbox', async () => {
    const { opId } = await createRecord(db, 'accounts', { fields: clientFields() });
    let done = false;
    const waiting = whenSynced(db, opId as string).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(done).toBe(false);
    await db.outbox
      .where('id')
      .equals(opId as string)
      .delete();
    signalOutbox(db, { type: 'settled', opId: opId as string, error: null });
    await waiting;
    expect(done).toBe(true);
  });

  it('rejects with the field messages when the server refused the change, also after a reload', async () => {
    const { opId } = await createRecord(db, 'accounts', { fields: clientFields() });
    const error = { kind: 'validation', status: 422, message: 'bad', fields: { 'client.email': ['bad'] } };
    const waiting = whenSynced(db, opId as string);
    signalOutbox(db, { type: 'settled', opId: opId as string, error });
    await expect(waiting).rejects.toMatchObject({ name: 'OperationRejected', fields: error.fields });

    await db.outbox
      .where('id')
      .equals(opId as string)
      .modify({ state: 'rejected', lastError: error });
    const again = whenSynced(db, opId as string);
    await expect(again).rejects.toBeInstanceOf(OperationRejected);
  });
});

describe('resolveConflict', () => {
  async function conflicted() {
    const account = await syncedAccount(db, 7);
    const { opId } = await updateRecord(db, 'accounts', account.id, {
      'client.first_name': 'Mine',
      'client.last_name': 'MyLast',
    });
    await db.outbox
      .where('id')
      .equals(opId as string)
      .modify({ state: 'conflict' });
    await db.conflicts.put({
      id: opId as string,
      table: 'accounts',
      recordId: account.id,
      fields: {
        'client.first_name': { base: 'Ann', mine: 'Mine', theirs: 'Theirs' },
        'client.last_name': { base: 'Tester', mine: 'MyLast', theirs: 'TheirLast' },
      },
      detectedAt: 0,
    });
    const theirs = { ...account.server, 'client.first_name': 'Theirs', 'client.last_name': 'TheirLast' };
    await db.accounts.update(account.id, { server: theirs, status: 'conflict' });
    return { account, opId: opId as string };
  }

  it('mine: the base becomes theirs and the change is queued again', async () => {
    const { account, opId } = await conflicted();
    await resolveConflict(db, opId, 'mine');
    const [op] = await outbox(db);
    expect(op).toMatchObject({
      state: 'queued',
      fields: { 'client.first_name': 'Mine', 'client.last_name': 'MyLast' },
      base: { 'client.first_name': 'Theirs', 'client.last_name': 'TheirLast' },
    });
    expect(await db.conflicts.count()).toBe(0);
    expect((await db.accounts.get(account.id))?.status).toBe('pending');
  });

  it('theirs: the change is dropped and the record shows the server', async () => {
    const { account, opId } = await conflicted();
    await resolveConflict(db, opId, 'theirs');
    expect(await outbox(db)).toEqual([]);
    const row = await db.accounts.get(account.id);
    expect(row).toMatchObject({ status: 'synced' });
    expect(row?.fields['client.first_name']).toBe('Theirs');
    await expect(whenSynced(db, opId)).resolves.toBeUndefined();
  });

  it('field by field', async () => {
    const { account, opId } = await conflicted();
    await resolveConflict(db, opId, { 'client.first_name': 'mine', 'client.last_name': 'theirs' });
    const [op] = await outbox(db);
    expect(op?.fields).toEqual({ 'client.first_name': 'Mine' });
    expect(op?.base).toEqual({ 'client.first_name': 'Theirs' });
    const row = await db.accounts.get(account.id);
    expect(row?.fields).toMatchObject({ 'client.first_name': 'Mine', 'client.last_name': 'TheirLast' });
  });

  it('deleted on the server: mine recreates the record, theirs discards it', async () => {
    const account = await syncedAccount(db, 7);
    const items = [
      await syncedItem(db, account.id, 'assets', 'a|1', asset),
      await syncedItem(db, account.id, 'assets', 'a|2', asset),
    ];
    const opIds: string[] = [];
    for (const item of items) {
      const { opId } = await updateRecord(db, 'sectionItems', item.id, { name: 'Flat' });
      await db.outbox
        .where('id')
        .equals(opId as string)
        .modify({ state: 'conflict' });
      await db.conflicts.put({
        id: opId as string,
        table: 'sectionItems',
        recordId: item.id,
        fields: { [DELETED_ON_SERVER]: { base: asset, mine: { name: 'Flat' }, theirs: null } },
        detectedAt: 0,
      });
      opIds.push(opId as string);
    }
    await resolveConflict(db, opIds[0] as string, 'mine');
    await resolveConflict(db, opIds[1] as string, 'theirs');
    const ops = await outbox(db);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ kind: 'create', fields: { ...asset, name: 'Flat' }, state: 'queued' });
    expect(await db.sectionItems.get(items[0]?.id as string)).toMatchObject({ serverId: null, server: null });
    expect(await db.sectionItems.get(items[1]?.id as string)).toBeUndefined();
  });

  it('a single record "deleted on the server" (its member was not there): mine sends the change again, never a create', async () => {
    const account = await syncedAccount(db, 7);
    const { id, opId } = await createRecord(db, 'singles', {
      accountId: account.id,
      key: 'details:coclient',
      fields: { comments: 'Mine' },
    });
    await db.outbox
      .where('id')
      .equals(opId as string)
      .modify({ state: 'conflict' });
    await db.singles.update(id, { deletedOnServer: 1 });
    await db.conflicts.put({
      id: opId as string,
      table: 'singles',
      recordId: id,
      fields: { [DELETED_ON_SERVER]: { base: null, mine: { comments: 'Mine' }, theirs: null } },
      detectedAt: 0,
    });
    await resolveConflict(db, opId as string, 'mine');
    const [op] = await outbox(db);
    expect(op).toMatchObject({
      id: opId,
      kind: 'update',
      fields: { comments: 'Mine' },
      base: {},
      state: 'queued',
    });
    expect(await db.singles.get(id)).toMatchObject({
      serverId: id,
      deletedOnServer: null,
      status: 'pending',
    });
  });
});

describe('files that went with a record deleted on the server', () => {
  const held = (filename: string) => ({
    type: 'document',
    url: `https://platform.example/api/v0/files/0b6c3f1e-2a7d-4e1b-9c55-6f0e8d1a2b3c/${filename}`,
    filetype: 'application/pdf',
    filesize: 12,
    filename,
  });

  /** Moves a record's change into a "deleted on the server" conflict, as the push engine does. */
  async function deletedThere(table: 'sectionItems' | 'singles', recordId: string, opId: string) {
    await db.outbox.where('id').equals(opId).modify({ state: 'conflict' });
    await db.table(table).update(recordId, { deletedOnServer: 1 });
    await db.conflicts.put({
      id: opId,
      table,
      recordId,
      fields: { [DELETED_ON_SERVER]: { base: null, mine: null, theirs: null } },
      detectedAt: 0,
    });
  }

  it('an item: its file is named, and keeping mine leaves it out of the recreate and the record', async () => {
    const account = await syncedAccount(db, 7);
    const job = await syncedItem(db, account.id, 'employment:client', 'e|1', {
      employer: 'Acme',
      document: held('contract.pdf'),
    });
    const { opId } = await updateRecord(db, 'sectionItems', job.id, { employer: 'Acme Inc' });
    await deletedThere('sectionItems', job.id, opId as string);

    expect(await filesGoneWith(db, 'sectionItems', job.id)).toEqual([
      { table: 'sectionItems', recordId: job.id, field: 'document', filename: 'contract.pdf' },
    ]);
    await resolveConflict(db, opId as string, 'mine');
    const [op] = await outbox(db);
    expect(op).toMatchObject({ kind: 'create', fields: { employer: 'Acme Inc' } });
    expect(op?.fields).not.toHaveProperty('document');
    expect((await db.sectionItems.get(job.id))?.fields.document ?? null).toBeNull();
  });

  it('a member’s details: the photo the platform held shows as gone once the change is kept', async () => {
    const account = await syncedAccount(db, 7);
    const id = `${account.id}:details:coclient`;
    const photo = { ...held('bob.jpg'), type: 'image', filetype: 'image/jpeg' };
    const fields = { comments: 'Old', photo };
    await db.singles.add({
      id,
      serverId: id,
      accountId: account.id,
      key: 'details:coclient',
      fields,
      server: fields,
      status: 'synced',
      changedAt: 0,
    });
    const { opId } = await updateRecord(db, 'singles', id, { comments: 'Mine' });
    await deletedThere('singles', id, opId as string);

    expect((await filesGoneWith(db, 'singles', id)).map((f) => f.filename)).toEqual(['bob.jpg']);
    await resolveConflict(db, opId as string, 'mine');
    expect((await db.singles.get(id))?.fields).toMatchObject({ comments: 'Mine', photo: null });
  });

  it('an account deleted there: every file of what is recreated with it, not of an item being deleted', async () => {
    const account = await syncedAccount(db, 7);
    const kept = await syncedItem(db, account.id, 'documents', 'd|1', {
      file: held('mk53.pdf'),
      relation: { type: 'client', id: null },
    });
    const leaving = await syncedItem(db, account.id, 'documents', 'd|2', {
      file: held('old.pdf'),
      relation: { type: 'client', id: null },
    });
    const { opId } = await updateRecord(db, 'sectionItems', kept.id, {
      relation: { type: 'joint', id: null },
    });
    await deleteRecord(db, 'sectionItems', leaving.id);
    await deletedThere('sectionItems', kept.id, opId as string);
    await db.accounts.update(account.id, { deletedOnServer: 1 });

    expect((await filesGoneWith(db, 'sectionItems', kept.id)).map((f) => f.filename)).toEqual(['mk53.pdf']);
    expect((await filesGoneWith(db, 'accounts', account.id)).map((f) => f.filename)).toEqual(['mk53.pdf']);
  });
});
