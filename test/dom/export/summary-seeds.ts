// Households for the financial summary's tests and bench, stored as a pull leaves them: a full one
// (every section filled), an empty one, one never downloaded, and one with 500 goals.

import { accountPartKeys, membersOf } from '../../../renderer/src/data/coverage.ts';
import { CONFIG_KEYS, putConfigEntries } from '../../../renderer/src/data/config.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import type { AccountRow } from '../../../renderer/src/data/model.ts';
import {
  clientFields,
  queuedOperation,
  syncedAccount,
  syncedItem,
  syncedSingle,
} from '../../support/store.ts';

/** 2026-11-25 14:30 local time: the summary's date. */
export const NOW = new Date(2026, 10, 25, 14, 30);
/** The last sync: 2026-11-24 09:15 local time. */
export const PULLED_AT = new Date(2026, 10, 24, 9, 15).getTime();

const once = (value: number) => ({ value, frequency: 'one-time' });
const monthly = (value: number) => ({ value, frequency: 'monthly' });
const yearly = (value: number) => ({ value, frequency: 'yearly' });
const rel = (type: string) => ({ type, id: null });

export async function advisorConfig(db: AdvisorDb): Promise<void> {
  await putConfigEntries(db, [
    [CONFIG_KEYS.userV0, { pulledAt: 1, data: { company: 'Main Street Advisors', first_name: 'Eve' } }],
    [CONFIG_KEYS.user, { pulledAt: 1, data: { currency: 'USD' } }],
  ]);
}

async function couple(db: AdvisorDb, serverId: number, parts: 'all' | 'none'): Promise<AccountRow> {
  const account = await syncedAccount(db, serverId, {
    ...clientFields('Ann'),
    'coclient.first_name': 'Bob',
    'coclient.last_name': 'Tester',
    'coclient.email': 'bob@example.com',
  });
  await db.accounts.update(account.id, {
    meta: { ...account.meta, clientId: serverId * 10, coclientId: serverId * 10 + 1 },
  });
  const members = membersOf({ coclientId: 1 });
  const keys = parts === 'all' ? accountPartKeys(members) : [];
  await db.accounts.update(account.id, {
    pulledAt: parts === 'all' ? PULLED_AT : null,
    parts: Object.fromEntries(keys.map((k) => [k, PULLED_AT])),
  });
  return (await db.accounts.get(account.id))!;
}

/** Every section filled; one change still queued. */
export async function fullHousehold(db: AdvisorDb, serverId = 7): Promise<AccountRow> {
  const account = await couple(db, serverId, 'all');
  const id = account.id;
  await syncedSingle(db, id, 'details:client', {
    first_name: 'Ann',
    last_name: 'Tester',
    birth_date: '1978-03-14',
  });
  await syncedSingle(db, id, 'details:coclient', {
    first_name: 'Bob',
    last_name: 'Tester',
    birth_date: '1980-12-01',
  });
  await syncedItem(db, id, 'assets', 'a1', {
    name: 'Family home',
    type: 'primary-residence',
    owner: rel('joint'),
    current_value: once(450000),
  });
  await syncedItem(db, id, 'cash', 'c1', {
    name: 'Everyday checking',
    type: 'checking',
    owner: rel('client'),
    current_value: once(12500),
  });
  await syncedItem(db, id, 'taxable', 't1', {
    name: 'Brokerage account',
    owner: rel('coclient'),
    current_value: once(80000),
  });
  await syncedItem(db, id, 'plans', 'p1', {
    name: 'Acme 401(k)',
    type: '401k',
    owner: rel('client'),
    provider: 'Fidelity',
    contribution_value: monthly(500),
    current_value: once(150000),
  });
  await syncedItem(db, id, 'annuities', 'n1', {
    name: 'Fixed annuity',
    type: 'fixed',
    owner: rel('client'),
    current_value: once(40000),
  });
  await syncedItem(db, id, 'insurance', 'i1', {
    name: 'Whole life policy',
    type: 'whole',
    owner: rel('client'),
    insured: rel('client'),
    coverage_value: once(1000000),
    premium_value: monthly(90),
    cash_value: once(5000),
  });
  await syncedItem(db, id, 'liabilities', 'l1', {
    name: 'Home mortgage',
    type: 'fixed',
    owner: rel('joint'),
    current_value: once(300000),
  });
  await syncedSingle(db, id, 'income:client', { employment: yearly(120000) });
  await syncedSingle(db, id, 'income:coclient', { social_security: monthly(2000), other: once(5000) });
  await syncedSingle(db, id, 'expenses-fixed', { mortgage: monthly(2500) });
  await syncedSingle(db, id, 'expenses-tax', { federal_income: yearly(24000) });
  await syncedItem(db, id, 'expenses-variable', 'v1', { type: 'groceries', value: monthly(900) });
  await syncedItem(db, id, 'goals', 'g1', {
    name: 'Lake house',
    type: 'home',
    owner: rel('joint'),
    priority: 'high',
    target: { value: 250000, date: '2031-06-01' },
  });
  await syncedItem(db, id, 'family', 'f1', {
    first_name: 'Cara',
    last_name: 'Tester',
    relationship: 'child',
    birth_date: '2012-05-20',
    dependent: true,
  });
  await syncedItem(db, id, 'contacts', 'k1', {
    first_name: 'Dana',
    last_name: 'Price',
    type: 'accountant',
    company: 'Price & Co',
    email: 'dana@price.example',
  });
  await db.outbox.add({ ...queuedOperation('op-1', { 'client.first_name': 'Ann' }), recordId: id });
  return account;
}

/** Pulled in full, nothing recorded. */
export const emptyHousehold = (db: AdvisorDb, serverId = 8) => couple(db, serverId, 'all');

/** On the platform, never downloaded here: only its row in the list. */
export const notDownloadedHousehold = (db: AdvisorDb, serverId = 9) => couple(db, serverId, 'none');

/** Pulled in full, 500 goals. */
export async function manyGoals(db: AdvisorDb, serverId = 10): Promise<AccountRow> {
  const account = await couple(db, serverId, 'all');
  await db.sectionItems.bulkAdd(
    Array.from({ length: 500 }, (_, n) => ({
      id: crypto.randomUUID(),
      serverId: `goal-${n}`,
      fields: {
        name: `Goal ${n + 1}`,
        type: 'other',
        owner: rel('client'),
        target: { value: 1000 * (n + 1), date: '2030-01-01' },
      },
      server: null,
      status: 'synced' as const,
      changedAt: n,
      accountId: account.id,
      section: 'goals',
    })),
  );
  return account;
}

/**
 * Pulled in full; income and variable expenses partly at frequencies the platform allows and the
 * app does not know: Ann's $1,000 a month of salary and $3,000 of dividends a quarter, $400 a month
 * of groceries and $80 of domestic help "biweekly".
 */
export async function unconvertibleFrequencies(db: AdvisorDb, serverId = 12): Promise<AccountRow> {
  const account = await couple(db, serverId, 'all');
  await syncedSingle(db, account.id, 'income:client', {
    employment: monthly(1000),
    dividends: { value: 3000, frequency: 'quarterly' },
  });
  await syncedItem(db, account.id, 'expenses-variable', 'v1', { type: 'groceries', value: monthly(400) });
  await syncedItem(db, account.id, 'expenses-variable', 'v2', {
    type: 'domestic-help',
    value: { value: 80, frequency: 'biweekly' },
  });
  return account;
}

/** Pulled in full once, but its cash, its goals and Bob's income never arrived here. */
export async function partlyDownloaded(db: AdvisorDb, serverId = 11): Promise<AccountRow> {
  const account = await fullHousehold(db, serverId);
  const absent = ['cash', 'goals', 'income:coclient'];
  await db.sectionItems
    .where('accountId')
    .equals(account.id)
    .filter((i) => absent.includes(i.section))
    .delete();
  await db.singles.delete(`${account.id}:income:coclient`);
  const parts = Object.fromEntries(
    Object.entries(account.parts ?? {}).filter(([key]) => !absent.includes(key)),
  );
  await db.accounts.update(account.id, { parts });
  return (await db.accounts.get(account.id))!;
}
