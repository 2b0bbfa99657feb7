// The data-quality score estimated here (data/quality.ts): a local change of an account or of a
// member's details re-estimates it in the change's transaction, marked as an estimate; a change no
// rule reads leaves the platform's answer alone; and the platform's answer, once pulled, replaces
// the estimate, which no pull ever writes. Over fake-indexeddb, with the real change module and
// the real pull engine behind a scripted `send`.

import { describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import {
  DELETED_ON_SERVER,
  createRecord,
  resolveConflict,
  updateRecord,
} from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import type { AccountMeta, AccountRow, Fields } from '../../../renderer/src/data/model.ts';
import { PullEngine } from '../../../renderer/src/sync/pull/index.ts';
import { clientFields, outbox, storePerTest, syncedAccount } from '../../support/store.ts';

let db: AdvisorDb;
storePerTest((fresh) => (db = fresh));

const quality = async (id: string) => (await db.accounts.get(id))?.meta.quality ?? null;
const missing = (q: AccountMeta['quality']) => (q?.rules ?? []).filter((r) => !r.valid).map((r) => r.message);

/** The client's rules weigh 55 in all; the score is the valid share, rounded. */
const share = (weight: number, total = 55) => Math.round((100 * weight) / total);

const prospect: Fields = {
  type: 'PROSPECT',
  'client.first_name': 'Ann',
  'client.last_name': 'Tester',
  'client.email': 'ann@example.com',
  'client.phone.code': '+1',
  'client.phone.number': '5125550111',
  'client.phone.country': 'US',
};

/** The platform's answer as the version 2 interface gives it (the sandbox's rules would differ: it is the platform's word). */
const PLATFORM_QUALITY = {
  score: 63,
  rules: [
    { message: 'Client email address is on file', valid: true },
    { message: 'Client date of birth is on file', valid: true },
    { message: 'Client risk score is recorded', valid: false },
  ],
};

/** A synced account whose last pull brought the platform's quality answer. */
async function scoredAccount(serverId = 41, fields: Fields = clientFields()): Promise<AccountRow> {
  const row = await syncedAccount(db, serverId, fields);
  const meta = { ...row.meta, clientId: 7, quality: PLATFORM_QUALITY, updated_at: '2026-03-01 10:00:00' };
  await db.accounts.update(row.id, { meta });
  return { ...row, meta };
}

describe('a local change estimates the score at once', () => {
  it('a prospect created offline is scored from what the account says, marked as an estimate', async () => {
    const { id } = await createRecord(db, 'accounts', { fields: prospect });
    const q = await quality(id);
    // E-mail (10) and mobile phone (6) of 55.
    expect(q).toMatchObject({ score: share(16), estimated: true });
    expect(q?.rules.slice(0, 3)).toEqual([
      { message: 'Client email address is on file', valid: true },
      { message: 'Client mobile phone is on file', valid: true },
      { message: 'Client date of birth is on file', valid: false },
    ]);
    expect(q?.rules).toHaveLength(8);
  });

  it('details typed for the new prospect raise it, and clearing one lowers it again', async () => {
    const { id } = await createRecord(db, 'accounts', { fields: prospect });
    await createRecord(db, 'singles', {
      accountId: id,
      key: 'details:client',
      fields: { birth_date: '1975-09-30', marital_status: 'single' },
    });
    expect(await quality(id)).toMatchObject({ score: share(16 + 8 + 4), estimated: true });
    await createRecord(db, 'singles', {
      accountId: id,
      key: 'details:client',
      fields: {
        'address.line1': '5 Park Pl',
        'address.city': 'Albany',
        'address.zip': '12207',
        'address.country': 'US',
        'citizenship.country': 'US',
        'drivers_license.number': 'N7654321',
        'drivers_license.expire_date': '2029-05-01',
        risk_score: 0,
      },
    });
    expect(await quality(id)).toMatchObject({ score: 100, estimated: true });
    await createRecord(db, 'singles', { accountId: id, key: 'details:client', fields: { birth_date: null } });
    const q = await quality(id);
    expect(q?.score).toBe(share(55 - 8));
    expect(missing(q)).toEqual(['Client date of birth is on file']);
  });

  it('a co-client added on the account brings their two rules, and their details count for them', async () => {
    const { id } = await createRecord(db, 'accounts', { fields: prospect });
    await updateRecord(db, 'accounts', id, {
      'coclient.first_name': 'Bob',
      'coclient.last_name': 'Tester',
      'coclient.email': 'bob@example.com',
    });
    // 16 + 8 of 69.
    expect(await quality(id)).toMatchObject({ score: share(24, 69), estimated: true });
    expect(missing(await quality(id))).toContain('Co-client date of birth is on file');
    await createRecord(db, 'singles', {
      accountId: id,
      key: 'details:coclient',
      fields: { birth_date: '1977-01-02' },
    });
    expect((await quality(id))?.score).toBe(share(30, 69));
    // Taking the co-client off the account takes their rules away, whatever their details held.
    await updateRecord(db, 'accounts', id, {
      'coclient.first_name': null,
      'coclient.last_name': null,
      'coclient.email': null,
    });
    expect((await quality(id))?.rules.map((r) => r.message)).not.toContain(
      'Co-client date of birth is on file',
    );
    expect((await quality(id))?.score).toBe(share(16));
  });

  it('of a member whose details were never pulled, takes the account’s e-mail and phone and counts the rest missing', async () => {
    const account = await scoredAccount(41, clientFields('Ann'));
    await updateRecord(db, 'accounts', account.id, { 'client.phone.number': '5125550111' });
    const q = await quality(account.id);
    expect(q).toMatchObject({ score: share(16), estimated: true });
    expect(missing(q)).toHaveLength(6);
  });

  it('takes the e-mail and phone last changed here, in the account or in the member’s details', async () => {
    const account = await scoredAccount(41, clientFields('Ann'));
    await db.singles.add({
      id: `${account.id}:details:client`,
      serverId: `${account.id}:details:client`,
      accountId: account.id,
      key: 'details:client',
      fields: { email: 'ann@example.com', phone: '', birth_date: '1975-09-30 00:00:00' },
      server: { email: 'ann@example.com', phone: '', birth_date: '1975-09-30 00:00:00' },
      status: 'synced',
      changedAt: 0,
    });
    // The members tab gives a phone: the account row, not changed here, has none.
    await createRecord(db, 'singles', {
      accountId: account.id,
      key: 'details:client',
      fields: { phone: '+15125550111' },
    });
    expect(await quality(account.id)).toMatchObject({ score: share(10 + 6 + 8), estimated: true });
    // The account form then clears the e-mail's copy on the account: that change is the later one.
    await updateRecord(db, 'accounts', account.id, { 'client.email': '' });
    expect(missing(await quality(account.id))).toContain('Client email address is on file');
  });
});

describe('the platform’s answer', () => {
  it('stays while a change touches nothing the rules read', async () => {
    const account = await scoredAccount();
    await updateRecord(db, 'accounts', account.id, { favorited: true, 'client.first_name': 'Annie' });
    // A new e-mail address in place of another: the rule's verdict does not move either.
    await updateRecord(db, 'accounts', account.id, { 'client.email': 'annie@example.com' });
    await createRecord(db, 'singles', {
      accountId: account.id,
      key: 'details:client',
      fields: { comments: 'Met at the fair' },
    });
    expect(await quality(account.id)).toEqual(PLATFORM_QUALITY);
    expect(await outbox(db)).toHaveLength(2);
  });

  it('gives way to an estimate when a change moves a verdict, and back when resolving a conflict restores theirs', async () => {
    const account = await scoredAccount();
    const { opId } = await updateRecord(db, 'accounts', account.id, { 'client.phone.number': '5125550111' });
    expect(await quality(account.id)).toMatchObject({ score: share(16), estimated: true });

    await db.outbox
      .where('id')
      .equals(opId as string)
      .modify({ state: 'conflict' });
    await db.conflicts.put({
      id: opId as string,
      table: 'accounts',
      recordId: account.id,
      fields: { 'client.phone.number': { base: null, mine: '5125550111', theirs: null } },
      detectedAt: 0,
    });
    await resolveConflict(db, opId as string, 'theirs');
    // The phone is gone again here; the estimate follows the local view.
    expect(await quality(account.id)).toMatchObject({ score: share(10), estimated: true });
  });

  it('of an account recreated after the platform deleted it is gone: the recreated one is estimated', async () => {
    const account = await scoredAccount();
    const { opId } = await updateRecord(db, 'accounts', account.id, { favorited: true });
    expect(await quality(account.id)).toEqual(PLATFORM_QUALITY);
    await db.outbox
      .where('id')
      .equals(opId as string)
      .modify({ state: 'conflict' });
    await db.accounts.update(account.id, { deletedOnServer: 1 });
    await db.conflicts.put({
      id: opId as string,
      table: 'accounts',
      recordId: account.id,
      fields: { [DELETED_ON_SERVER]: { base: null, mine: null, theirs: null } },
      detectedAt: 0,
    });
    await resolveConflict(db, opId as string, 'mine');
    const row = await db.accounts.get(account.id);
    expect(row?.serverId).toBeNull();
    expect(row?.meta.quality).toMatchObject({ score: share(10), estimated: true });
  });
});

describe('a pull', () => {
  /** The version 2 account as the platform answers it, with its own quality. */
  const v2Account = (serverId: number, email: string) => ({
    id: serverId,
    type: 'PROSPECT',
    client: {
      id: 7,
      first_name: 'Ann',
      last_name: 'Tester',
      email,
      phone: { code: null, number: null, country: null },
      status: 'NEW',
      pin: '123456',
    },
    coclient: null,
    quality: PLATFORM_QUALITY,
    pipeline: null,
    favorited: false,
    archived: false,
    created_at: '2026-03-01 09:00:00',
    updated_at: '2026-03-02 10:00:00',
  });

  /** The platform behind `send`: the account, the client's details with a birth date, empty sections. */
  function platform(serverId: number, email: string) {
    return (req: ApiRequest): Promise<ApiResult> => {
      const data =
        req.path === `/accounts/${serverId}`
          ? v2Account(serverId, email)
          : req.path.endsWith('/client/details')
            ? { first_name: 'Ann', email, birth_date: '1975-09-30 00:00:00' }
            : /(expenses-fixed|expenses-tax|income|security)$/.test(req.path)
              ? {}
              : [];
      return Promise.resolve({ ok: true, status: 200, data });
    };
  }

  it('replaces the estimate with the platform’s answer, details and all, and writes no estimate', async () => {
    const account = await syncedAccount(db, 41, { ...clientFields('Ann'), type: 'PROSPECT' });
    await updateRecord(db, 'accounts', account.id, { 'client.phone.number': '5125550111' });
    expect(await quality(account.id)).toMatchObject({ estimated: true });
    // The change went out: the platform has it and the outbox is empty.
    await db.outbox.clear();
    await db.accounts.update(account.id, { status: 'synced' });

    await new PullEngine({ db, send: platform(41, 'ann@example.com') }).pullAccount(account.id);
    expect(await quality(account.id)).toEqual(PLATFORM_QUALITY);
    // The details arrived in the same pull, and did not bring an estimate back.
    expect((await db.singles.get(`${account.id}:details:client`))?.fields.birth_date).toBe(
      '1975-09-30 00:00:00',
    );
  });

  it('of an account with a change still pending takes the platform’s answer as before, and keeps the change', async () => {
    const account = await syncedAccount(db, 41, { ...clientFields('Ann'), type: 'PROSPECT' });
    await updateRecord(db, 'accounts', account.id, { 'client.phone.number': '5125550111' });

    await new PullEngine({ db, send: platform(41, 'ann@example.com') }).pullAccount(account.id);
    const row = await db.accounts.get(account.id);
    expect(row?.meta.quality).toEqual(PLATFORM_QUALITY);
    expect(row?.fields['client.phone.number']).toBe('5125550111');
    expect(row?.status).toBe('pending');
    expect(await outbox(db)).toHaveLength(1);
  });
});
