// What this computer holds of an account (data/coverage.ts): a household known only from the
// list holds none of its parts; the parts a pull brings are recorded one by one; a co-client the
// platform adds later is missing until pulled, one it removes is forgotten; an account made here
// lacks nothing, before and after it is sent.

import { describe, expect, it } from 'vitest';
import { createRecord } from '../../../renderer/src/data/changes/index.ts';
import { accountCoverage, accountPartKeys, recordParts } from '../../../renderer/src/data/coverage.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { clientFields, openDb, syncedAccount } from '../../support/store.ts';

/** The parts of a household with a client only, as the 0.0.1 and v2 documents list its requests. */
const CLIENT_PARTS = [
  'details:client',
  'family',
  'contacts',
  'employment:client',
  'income:client',
  'expenses-fixed',
  'expenses-tax',
  'expenses-variable',
  'assets',
  'cash',
  'taxable',
  'plans',
  'annuities',
  'insurance',
  'liabilities',
  'goals',
  'documents',
  'security:client',
  'profile',
  'activity',
];
const COCLIENT_PARTS = ['details:coclient', 'employment:coclient', 'income:coclient', 'security:coclient'];

async function coverageOf(db: AdvisorDb, id: string) {
  return accountCoverage(await db.accounts.get(id));
}

describe('what of an account is on this computer', () => {
  it('the parts are every request of an account pull, per member where the section is', () => {
    expect(accountPartKeys(['client']).sort()).toEqual([...CLIENT_PARTS].sort());
    expect(accountPartKeys(['client', 'coclient']).sort()).toEqual(
      [...CLIENT_PARTS, ...COCLIENT_PARTS].sort(),
    );
  });

  it('a household known only from the list holds none of its parts', async () => {
    const db = openDb();
    const row = await syncedAccount(db, 7);
    expect(await coverageOf(db, row.id)).toEqual({ state: 'none', missing: accountPartKeys(['client']) });
  });

  it('records the parts as they arrive; the ones that did not stay missing', async () => {
    const db = openDb();
    const row = await syncedAccount(db, 7);
    await recordParts(
      db,
      row.id,
      CLIENT_PARTS.filter((p) => p !== 'cash' && p !== 'activity'),
      ['client'],
      5,
    );
    expect(await coverageOf(db, row.id)).toEqual({ state: 'partial', missing: ['cash', 'activity'] });
    await recordParts(db, row.id, ['cash', 'activity'], ['client'], 6);
    expect(await coverageOf(db, row.id)).toEqual({ state: 'complete', missing: [] });
    expect((await db.accounts.get(row.id))?.parts).toMatchObject({ assets: 5, cash: 6 });
  });

  it('a co-client added on the platform is missing until pulled; one removed is forgotten', async () => {
    const db = openDb();
    const row = await syncedAccount(db, 7);
    await recordParts(db, row.id, CLIENT_PARTS, ['client'], 5);
    await db.accounts.update(row.id, { meta: { ...row.meta, coclientId: 80 } });
    expect(await coverageOf(db, row.id)).toEqual({ state: 'partial', missing: COCLIENT_PARTS });

    await recordParts(db, row.id, COCLIENT_PARTS, ['client', 'coclient'], 6);
    expect((await coverageOf(db, row.id)).state).toBe('complete');
    // Removed on the platform: the next pull knows one member, and the co-client's parts go.
    await recordParts(db, row.id, [], ['client'], 7);
    await db.accounts.update(row.id, { meta: { ...row.meta, coclientId: 81 } });
    expect(await coverageOf(db, row.id)).toEqual({ state: 'partial', missing: COCLIENT_PARTS });
  });

  it('an account pulled in full before parts were recorded holds them all', async () => {
    const db = openDb();
    const row = await syncedAccount(db, 7);
    await db.accounts.update(row.id, { pulledAt: 1 });
    expect((await coverageOf(db, row.id)).state).toBe('complete');
  });

  it('an account made here lacks nothing, before it is sent and after', async () => {
    const db = openDb();
    const { id } = await createRecord(db, 'accounts', { fields: clientFields('Hana') });
    expect(await coverageOf(db, id)).toEqual({ state: 'complete', missing: [] });
    // Sent: the platform's ids are known, and nothing was pulled (there was nothing to pull).
    const row = (await db.accounts.get(id))!;
    await db.accounts.update(id, { serverId: 90, meta: { ...row.meta, clientId: 91, coclientId: 92 } });
    expect(await coverageOf(db, id)).toEqual({ state: 'complete', missing: [] });
  });
});
