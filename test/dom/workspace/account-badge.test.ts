// @vitest-environment happy-dom
// The account header's sync badge sums up the account's own records — the account, its members'
// details and every section item — so it never says "Synced" above a form the platform refused:
// the most urgent state anywhere wins (conflict, then refused, then pending), and its hint says
// how many records are in which state. The push engine's part is played by writing the outbox.

import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { recordOps, refreshRow, updateRecord } from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import type { Operation } from '../../../renderer/src/data/model.ts';
import { household, mountWorkspace, one, openDb, settle, syncedItem, syncedSingle } from './harness.ts';

unmountAfterEach();

const cabin = {
  type: 'secondary-residence',
  name: 'Lake cabin',
  owner: { type: 'client', id: null },
  current_value: { value: 420000, frequency: 'one-time' },
};

/** Moves a record's last operation to a state, as the push engine does, with the row's badge. */
async function settleOp(
  db: AdvisorDb,
  table: 'sectionItems' | 'singles',
  id: string,
  change: Partial<Operation>,
) {
  const ops = await recordOps(db, table, id);
  await db.outbox.put({ ...ops.at(-1)!, ...change });
  if (table === 'singles') {
    const stored = (await db.singles.get(id))!;
    await db.singles.put(refreshRow('singles', stored, await recordOps(db, table, id)));
  } else {
    const stored = (await db.sectionItems.get(id))!;
    await db.sectionItems.put(refreshRow('sectionItems', stored, await recordOps(db, table, id)));
  }
}

const header = () => one('account-sync');
const headerBadge = () => header().getAttribute('data-account-badge');
const headerHint = () => header().querySelector('[data-testid="sync-badge"]')?.getAttribute('title') ?? '';

describe("the account header's sync badge", () => {
  it('says Synced only when every record of the account is on the platform', async () => {
    const db = openDb();
    const account = await household(db);
    await syncedItem(db, account.id, 'assets', 'a|1', cabin);
    await mountWorkspace(db, account.id);
    expect(headerBadge()).toBe('synced');
    expect(header().textContent).toContain('Synced');
    expect(headerHint()).toBe('Everything in this account is on the platform.');
  });

  it('a change waiting in a section makes the account pending', async () => {
    const db = openDb();
    const account = await household(db);
    const item = await syncedItem(db, account.id, 'assets', 'a|1', cabin);
    await updateRecord(db, 'sectionItems', item.id, { name: 'Lake cabin (north)' });
    await mountWorkspace(db, account.id);
    expect(headerBadge()).toBe('pending');
    expect(headerHint()).toBe('In this account: 1 record waiting to be sent.');
  });

  it('a refused member details form makes the account Refused, not Synced, and says so beside what waits', async () => {
    const db = openDb();
    const account = await household(db);
    const details = await syncedSingle(db, account.id, 'details:coclient', {
      first_name: 'Bob',
      'citizenship.country': 'US',
    });
    const item = await syncedItem(db, account.id, 'assets', 'a|1', cabin);
    await updateRecord(db, 'sectionItems', item.id, { name: 'Lake cabin (north)' });
    await updateRecord(db, 'singles', details.id, { 'citizenship.country': 'Sweden' });
    await settleOp(db, 'singles', details.id, {
      state: 'rejected',
      lastError: {
        kind: 'validation',
        status: 422,
        message: 'The given data was invalid.',
        fields: { 'citizenship.country': ['citizenship.country is invalid.'] },
      },
    });
    await mountWorkspace(db, account.id, { tab: 'members', member: 'coclient' });
    await settle();
    // The account record itself is synced; the header still tells the truth about the account.
    expect((await db.accounts.get(account.id))?.status).toBe('synced');
    expect(headerBadge()).toBe('rejected');
    expect(header().textContent).toContain('Refused');
    expect(headerHint()).toBe(
      'In this account: 1 record refused by the platform, 1 record waiting to be sent.',
    );
  });

  it('a conflict anywhere outranks the rest', async () => {
    const db = openDb();
    const account = await household(db);
    const item = await syncedItem(db, account.id, 'assets', 'a|1', cabin);
    const other = await syncedItem(db, account.id, 'assets', 'a|2', { ...cabin, name: 'Sailboat' });
    await updateRecord(db, 'sectionItems', item.id, { name: 'Lake cabin (north)' });
    await updateRecord(db, 'sectionItems', other.id, { name: 'Sailboat II' });
    await settleOp(db, 'sectionItems', other.id, { state: 'conflict' });
    await mountWorkspace(db, account.id);
    expect(headerBadge()).toBe('conflict');
    expect(headerHint()).toBe('In this account: 1 record in conflict, 1 record waiting to be sent.');
  });
});
