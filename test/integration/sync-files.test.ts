// Files, PIN resets and password deletes against the sandbox platform over real HTTP, through the
// real main-side transport, with the local store in fake-indexeddb: uploads queued offline survive
// a reload and go out once, coalescing counted in requests, records created with their file,
// an uncertain Documents create reconciled, PIN resets coalesced, and account and engagement
// deletes that need the password and a connection and leave the password nowhere.

import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import {
  createRecord,
  queueRemoveFile,
  queueResetPin,
  queueUpload,
  updateRecord,
  whenSynced,
} from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import type { AccountRow, Fields } from '../../renderer/src/data/model.ts';
import { engagementRow } from '../../renderer/src/data/records.ts';
import {
  DeleteRefused,
  deleteAccountOnline,
  deleteEngagementOnline,
} from '../../renderer/src/sync/online-only.ts';
import { PushEngine } from '../../renderer/src/sync/push/index.ts';
import { askPin } from '../../renderer/src/sync/pins.ts';
import type { Send } from '../../renderer/src/sync/send.ts';
import type { AccountRecord, MemberRecord } from '../platform/model.ts';
import { SANDBOX_PASSWORD } from '../platform/seed.ts';
import { sandbox } from '../support/sandbox.ts';
import { openDb, storePerTest } from '../support/store.ts';
import { ADVISOR, sandboxUser } from '../support/sandbox-client.ts';

const platform = sandbox({ accounts: 10 });
const advisor = sandboxUser(platform, ADVISOR, { perTest: true });
let db: AdvisorDb;
/** While set, every request fails as it does without a network, and never reaches the platform. */
let offline = false;

const send: Send = (req) =>
  offline
    ? Promise.resolve<ApiResult>({
        ok: false,
        kind: 'network',
        status: null,
        message: 'No connection.',
        fields: {},
        retryAfterMs: 1_000,
      })
    : advisor.send(req);

const engine = () => new PushEngine({ db, send, backoff: { baseMs: 0 } });

storePerTest((fresh) => (db = fresh));
beforeEach(() => {
  offline = false;
  platform.control.setFaults({ probability: 0, queue: [], retryAfter: 0 });
});

/** The app restarts: the database is opened again and a new engine takes over the outbox. */
async function reload(): Promise<void> {
  db.close();
  db = openDb(db.name);
  await db.open();
}

let unique = 0;
function newClient(): Fields {
  unique++;
  return {
    type: 'CLIENT',
    'client.first_name': 'Fay',
    'client.last_name': `Files${unique}`,
    'client.email': `files-${unique}-${Date.now()}@example.com`,
  };
}

/** Bytes the sandbox takes as a PNG picture or a PDF document (it reads the type from the bytes). */
function png(size: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(size).map((_, i) => (i * 31 + seed) % 256);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}
function pdf(size: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(size).map((_, i) => (i * 7 + seed) % 256);
  bytes.set(new TextEncoder().encode('%PDF-1.4\n'));
  return bytes;
}

async function pushedAccount(): Promise<AccountRow> {
  const { id } = await createRecord(db, 'accounts', { fields: newClient() });
  await engine().run();
  const row = await db.accounts.get(id);
  if (!row?.serverId) throw new Error('the account did not reach the sandbox');
  advisor.requests.length = 0;
  return row;
}

const stored = (serverId: unknown): AccountRecord => {
  const account = platform.control.dump().accounts.find((a) => a.id === serverId);
  if (!account) throw new Error(`account ${String(serverId)} is not on the sandbox`);
  return account;
};
const client = (serverId: unknown): MemberRecord => stored(serverId).client;

/** The bytes of a file the sandbox stores, by its id there. */
function storedBytes(fileId: string | null | undefined): Uint8Array {
  const file = fileId ? platform.control.dump().files[fileId] : undefined;
  if (!file) throw new Error(`file ${String(fileId)} is not on the sandbox`);
  return new Uint8Array(Buffer.from(file.data, 'base64'));
}

/** Downloads a File object's address from the sandbox, as the app would show it. */
async function download(file: unknown): Promise<Uint8Array> {
  const url = (file as { url?: unknown } | null)?.url;
  if (typeof url !== 'string') throw new Error(`not a stored file: ${JSON.stringify(file)}`);
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${platform.control.token(ADVISOR).access_token}` },
  });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

const writes = (requests: readonly ApiRequest[]) =>
  requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

const detailsOf = (account: AccountRow, member = 'client') => ({
  table: 'singles' as const,
  recordId: `${account.id}:details:${member}`,
});

describe('uploads', () => {
  it('a photo chosen offline survives a reload and goes out once when online; the platform serves its bytes', async () => {
    const account = await pushedAccount();
    const bytes = png(5_000);
    offline = true;
    await queueUpload(db, {
      ...detailsOf(account),
      field: 'photo',
      file: { name: 'fay.png', type: 'image/png', bytes },
    });
    expect((await db.singles.get(`${account.id}:details:client`))?.fields.photo).toMatchObject({
      filename: 'fay.png',
      filesize: 5,
      url: null,
    });
    expect(await engine().run()).toMatchObject({ synced: 0, remaining: 1 });

    await reload();
    offline = false;
    expect(await engine().run()).toMatchObject({ synced: 1, remaining: 0 });
    expect(advisor.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `PUT /accounts/${account.serverId}/client/details/photo`,
    ]);
    expect(advisor.requests[0]).toMatchObject({
      priority: 'upload',
      files: [{ field: 'file', name: 'fay.png' }],
    });
    expect(advisor.requests[0]?.timeoutMs).toBeGreaterThan(30_000);

    const row = await db.singles.get(`${account.id}:details:client`);
    expect(row?.status).toBe('synced');
    expect(row?.server?.photo).toMatchObject({ filename: 'fay.png', filetype: 'image/png' });
    expect(row?.fields.photo).toEqual(row?.server?.photo);
    expect(await download(row?.fields.photo)).toEqual(bytes);
    expect(storedBytes(client(account.serverId).photo)).toEqual(bytes);
    expect(await db.files.count()).toBe(0);
  });

  it('coalescing counted in requests: two photos make one upload, an upload then a removal makes none', async () => {
    const account = await pushedAccount();
    const second = png(3_000, 2);
    await queueUpload(db, {
      ...detailsOf(account),
      field: 'photo',
      file: { name: 'a.png', type: 'image/png', bytes: png(3_000, 1) },
    });
    await queueUpload(db, {
      ...detailsOf(account),
      field: 'photo',
      file: { name: 'b.png', type: 'image/png', bytes: second },
    });
    const license = { ...detailsOf(account), field: 'drivers_license.document' };
    await queueUpload(db, {
      ...license,
      file: { name: 'dl.pdf', type: 'application/pdf', bytes: pdf(2_000) },
    });
    await queueRemoveFile(db, license);
    expect(await db.files.count()).toBe(1);

    await engine().run();
    expect(writes(advisor.requests)).toEqual([`PUT /accounts/${account.serverId}/client/details/photo`]);
    expect(storedBytes(client(account.serverId).photo)).toEqual(second);
    expect(client(account.serverId).drivers_license.document).toBeNull();
    expect(await db.files.count()).toBe(0);
  });

  it("removes a file the platform holds, and a driver's-license document goes to its own path", async () => {
    const account = await pushedAccount();
    const license = { ...detailsOf(account), field: 'drivers_license.document' };
    const bytes = pdf(4_000);
    await queueUpload(db, { ...license, file: { name: 'dl.pdf', type: 'application/pdf', bytes } });
    await engine().run();
    expect(storedBytes(client(account.serverId).drivers_license.document)).toEqual(bytes);

    advisor.requests.length = 0;
    const { opId } = await queueRemoveFile(db, license);
    await engine().run();
    await whenSynced(db, opId as string);
    expect(writes(advisor.requests)).toEqual([
      `DELETE /accounts/${account.serverId}/client/details/drivers_license/document`,
    ]);
    expect(client(account.serverId).drivers_license.document).toBeNull();
    const row = await db.singles.get(license.recordId);
    expect(row).toMatchObject({ status: 'synced', fields: { 'drivers_license.document': null } });
  });

  it('an upload whose answer was lost is simply sent again: the platform holds the file once in the field', async () => {
    const account = await pushedAccount();
    const bytes = png(2_000);
    await queueUpload(db, {
      ...detailsOf(account),
      field: 'photo',
      file: { name: 'p.png', type: 'image/png', bytes },
    });
    platform.control.setFaults({
      queue: [{ kind: 'drop-after', methods: ['PUT'], path: '/details/photo$' }],
    });
    expect(await engine().run()).toMatchObject({ remaining: 0 });
    expect(writes(advisor.requests)).toEqual([
      `PUT /accounts/${account.serverId}/client/details/photo`,
      `PUT /accounts/${account.serverId}/client/details/photo`,
    ]);
    expect(storedBytes(client(account.serverId).photo)).toEqual(bytes);
  });
  it('a file chosen while a refused one was in flight replaces it: the refusal holds back nothing of the record', async () => {
    const account = await pushedAccount();
    const license = { ...detailsOf(account), field: 'drivers_license.document' };
    const text = { name: 'notes.txt', type: 'text/plain', bytes: new TextEncoder().encode('not a document') };
    const { opId: refused } = await queueUpload(db, { ...license, file: text });
    // While the text file is in flight, the user chooses a PDF for the field and edits the record:
    // both queue behind it.
    await db.outbox
      .where('id')
      .equals(refused as string)
      .modify({ state: 'inflight' });
    const bytes = pdf(3_000);
    await queueUpload(db, { ...license, file: { name: 'dl.pdf', type: 'application/pdf', bytes } });
    await updateRecord(db, 'singles', license.recordId, { comments: 'Seen in person' });
    await db.outbox
      .where('id')
      .equals(refused as string)
      .modify({ state: 'queued' });

    // The platform refuses the text file; the PDF chosen since is the fix, and goes with the edit.
    expect(await engine().run()).toMatchObject({ rejected: 1, remaining: 0 });
    expect(writes(advisor.requests)).toEqual([
      `PUT /accounts/${account.serverId}/client/details/drivers_license/document`,
      `PUT /accounts/${account.serverId}/client/details/drivers_license/document`,
      `PUT /accounts/${account.serverId}/client/details`,
    ]);
    expect(storedBytes(client(account.serverId).drivers_license.document)).toEqual(bytes);
    const row = await db.singles.get(license.recordId);
    expect(row).toMatchObject({ status: 'synced', fields: { comments: 'Seen in person' } });
    expect(row?.fields['drivers_license.document']).toMatchObject({ filename: 'dl.pdf' });
    expect(await db.files.count()).toBe(0);
  });
});

describe('records created with their file', () => {
  it('an account, its employment item with a document and a Documents item, all made offline, reach the platform with their files', async () => {
    offline = true;
    const fields = newClient();
    const { id: account } = await createRecord(db, 'accounts', { fields });
    const contract = pdf(3_000, 3);
    const { id: job } = await createRecord(db, 'sectionItems', {
      accountId: account,
      section: 'employment:client',
      fields: { employer: 'Acme', position: 'Engineer' },
      files: { document: { name: 'contract.pdf', type: 'application/pdf', bytes: contract } },
    });
    const will = pdf(6_000, 4);
    const { id: doc } = await createRecord(db, 'sectionItems', {
      accountId: account,
      section: 'documents',
      fields: { relation: { type: 'client', id: null } },
      files: { file: { name: 'will.pdf', type: 'application/pdf', bytes: will } },
    });
    await engine().run();
    await reload();
    offline = false;

    expect(await engine().run()).toMatchObject({ remaining: 0, rejected: 0 });
    const serverId = (await db.accounts.get(account))?.serverId;
    expect(writes(advisor.requests).sort()).toEqual(
      [
        'POST /accounts',
        `POST /accounts/${serverId}/client/employment`,
        `PUT /accounts/${serverId}/client/employment/${encodeURIComponent(String((await db.sectionItems.get(job))?.serverId))}/document`,
        `POST /accounts/${serverId}/documents`,
      ].sort(),
    );
    const onServer = stored(serverId).sections ?? {};
    const [employment] = onServer['employment:client'] ?? [];
    expect(employment?.fields.employer).toBe('Acme');
    expect(storedBytes(employment?.fields.document as string)).toEqual(contract);
    const documents = onServer.documents ?? [];
    expect(documents).toHaveLength(1);
    expect(storedBytes(documents[0]?.fields.file as string)).toEqual(will);

    const local = await db.sectionItems.get(doc);
    expect(local).toMatchObject({ status: 'synced', serverId: documents[0]?.id });
    expect(local?.fields.file).toMatchObject({ filename: 'will.pdf' });
    expect(await download(local?.fields.file)).toEqual(will);
    expect(await download((await db.sectionItems.get(job))?.fields.document)).toEqual(contract);
    expect(await db.files.count()).toBe(0);
  });

  it('a Documents create whose answer was lost is found by its file and relation, not made twice', async () => {
    const account = await pushedAccount();
    const { id } = await createRecord(db, 'sectionItems', {
      accountId: account.id,
      section: 'documents',
      fields: { relation: { type: 'client', id: null } },
      files: { file: { name: 'scan.pdf', type: 'application/pdf', bytes: pdf(1_500) } },
    });
    platform.control.setFaults({ queue: [{ kind: 'drop-after', methods: ['POST'], path: '/documents$' }] });
    expect(await engine().run()).toMatchObject({ adopted: 1, remaining: 0 });
    const documents = stored(account.serverId).sections?.documents ?? [];
    expect(documents).toHaveLength(1);
    expect((await db.sectionItems.get(id))?.serverId).toBe(documents[0]?.id);
    expect(writes(advisor.requests)).toEqual([`POST /accounts/${account.serverId}/documents`]);
    expect(await db.files.count()).toBe(0);
  });
});

describe('PIN reset', () => {
  it('two resets queued offline are one request once online; the new PIN is kept in memory, not stored', async () => {
    const account = await pushedAccount();
    const before = client(account.serverId).pin;
    offline = true;
    await queueResetPin(db, account.id, 'client');
    const { opId } = await queueResetPin(db, account.id, 'client');
    await engine().run();
    await reload();
    offline = false;

    await engine().run();
    await whenSynced(db, opId as string);
    expect(writes(advisor.requests)).toEqual([`POST /accounts/${account.serverId}/client/security/reset`]);
    const after = client(account.serverId);
    expect(after.pin).not.toBe(before);
    const security = await db.memberSecurity.get(`${account.serverId}:client`);
    expect(security?.server).toEqual({ account_id: account.serverId, type: 'client', status: 'NEW' });
    // The new PIN is in memory, shown once when asked: no request needed for it.
    const unreachable = () => Promise.reject(new Error('no request expected'));
    expect(await askPin(unreachable, account.serverId as number, 'client')).toEqual({
      ok: true,
      pin: after.pin,
    });
    expect((await db.accounts.get(account.id))?.status).toBe('synced');
  });
});

describe('deletes with the password', () => {
  /** Every row of every table, as text: where a stored password would show. */
  async function everything(): Promise<string> {
    const tables = await Promise.all(db.tables.map((table) => table.toArray()));
    return JSON.stringify(tables);
  }

  async function accountWithData() {
    const account = await pushedAccount();
    await createRecord(db, 'sectionItems', {
      accountId: account.id,
      section: 'assets',
      fields: {
        name: 'House',
        type: 'primary-residence',
        owner: { type: 'client', id: null },
        current_value: 1,
      },
    });
    await engine().run();
    // Pending work of the account: an upload not sent yet, with its blob.
    await queueUpload(db, {
      ...detailsOf(account),
      field: 'photo',
      file: { name: 'p.png', type: 'image/png', bytes: png(100) },
    });
    advisor.requests.length = 0;
    return account;
  }

  it('a wrong password: refused with the password field named, nothing removed here or there', async () => {
    const account = await accountWithData();
    const password = `wrong-${crypto.randomUUID()}`;
    const error = await deleteAccountOnline(db, send, account.id, password).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeleteRefused);
    expect(error).toMatchObject({
      reason: 'password',
      fields: { password: [expect.stringMatching(/password/i)] },
    });
    expect((error as Error).message).not.toContain(password);
    expect(await db.accounts.get(account.id)).toBeDefined();
    expect(await db.sectionItems.count()).toBe(1);
    expect(await db.outbox.count()).toBe(1);
    expect(stored(account.serverId).id).toBe(account.serverId);
    expect(await everything()).not.toContain(password);
  });

  it('the right password: gone on the platform, and here with its items, single records, operations and files', async () => {
    const account = await accountWithData();
    await deleteAccountOnline(db, send, account.id, SANDBOX_PASSWORD);
    expect(writes(advisor.requests)).toEqual([`DELETE /accounts/${account.serverId}`]);
    expect(advisor.requests[0]).toMatchObject({ api: 'v2', body: { password: SANDBOX_PASSWORD } });
    expect(platform.control.dump().accounts.some((a) => a.id === account.serverId)).toBe(false);
    expect(await db.accounts.get(account.id)).toBeUndefined();
    expect(await db.sectionItems.count()).toBe(0);
    expect(await db.singles.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.files.count()).toBe(0);
  });

  it('offline: refused in plain words, nothing queued, and the password is in no table', async () => {
    const account = await accountWithData();
    const password = `secret-${crypto.randomUUID()}`;
    const outboxBefore = await db.outbox.count();
    offline = true;
    const error = await deleteAccountOnline(db, send, account.id, password).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'DeleteRefused', reason: 'offline' });
    // The connection failed: asking the platform whether it is still there failed too.
    expect((error as Error).message).toMatch(/offline.*may or may not be deleted.*needs a connection/);
    // Known to be offline: the password is not even sent.
    offline = false;
    await expect(
      deleteAccountOnline(db, send, account.id, password, { online: false }),
    ).rejects.toMatchObject({
      reason: 'offline',
    });
    expect(advisor.requests).toEqual([]);
    expect(await db.outbox.count()).toBe(outboxBefore);
    expect(await db.accounts.get(account.id)).toBeDefined();
    expect(await everything()).not.toContain(password);
  });

  it('refused while the account has not reached the platform', async () => {
    offline = true;
    const { id } = await createRecord(db, 'accounts', { fields: newClient() });
    await expect(deleteAccountOnline(db, send, id, SANDBOX_PASSWORD)).rejects.toMatchObject({
      reason: 'unsent',
    });
    expect(await db.accounts.get(id)).toBeDefined();
  });

  it('an engagement: a wrong password names the field; the right one deletes it there and here', async () => {
    const [engagement] = platform.control.dump().engagements;
    if (!engagement) throw new Error('the sandbox has no engagement');
    const read = await advisor.send({ api: 'v2', method: 'GET', path: `/engagements/${engagement.id}` });
    const row = read.ok ? engagementRow(read.data, Date.now()) : null;
    if (!row) throw new Error('the advisor cannot read the seeded engagement');
    await db.engagements.put(row);

    await expect(deleteEngagementOnline(db, send, engagement.id, 'nope')).rejects.toMatchObject({
      reason: 'password',
      fields: { password: [expect.any(String)] },
    });
    expect(await db.engagements.get(engagement.id)).toBeDefined();

    await deleteEngagementOnline(db, send, engagement.id, SANDBOX_PASSWORD);
    expect(platform.control.dump().engagements.some((e) => e.id === engagement.id)).toBe(false);
    expect(await db.engagements.get(engagement.id)).toBeUndefined();
  });
});
