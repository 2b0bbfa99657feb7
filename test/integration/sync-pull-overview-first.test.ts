// Issue 23 point 8: a household opened for the first time took 21–22 s to show its net worth and
// cash flow, its 25 requests asked at once and stored only once all had come (at the platform's
// 60 a minute). The pull now asks first for what the overview shows — the members' details and the
// sections net worth and cash flow are made of — stores them, and only then asks for the rest.
// Against the sandbox platform over real HTTP, into Dexie over fake-indexeddb.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import type { AccountRow } from '../../renderer/src/data/model.ts';
import { PullEngine } from '../../renderer/src/sync/pull/index.ts';
import type { Send } from '../../renderer/src/sync/send.ts';
import { sandbox } from '../support/sandbox.ts';
import { ADVISOR, sandboxUser } from '../support/sandbox-client.ts';
import { openDb } from '../support/store.ts';

const platform = sandbox({ accounts: 8 });
const advisor = sandboxUser(platform, ADVISOR);
let db: AdvisorDb;
let account: AccountRow;

beforeAll(async () => {
  db = openDb();
  await db.open();
  await new PullEngine({ db, send: advisor.send }).pullAccountList();
  const withCoclient = (await db.accounts.toArray()).find((a) => a.meta.coclientId !== null);
  if (!withCoclient) throw new Error('The sandbox seeded no household with a co-client.');
  account = withCoclient;
});

afterAll(async () => {
  await db.delete();
});

/**
 * The parts of the overview's figures, as the 0.0.1 document names their paths: each member's
 * details and income, the seven sections of net worth (assets, cash, taxable accounts, plans,
 * annuities, insurance for its cash value, liabilities) and the three of expenses.
 */
const OVERVIEW = [
  'details:client',
  'details:coclient',
  'assets',
  'cash',
  'taxable',
  'plans',
  'annuities',
  'insurance',
  'liabilities',
  'income:client',
  'income:coclient',
  'expenses-fixed',
  'expenses-tax',
  'expenses-variable',
];
const pathOf = (serverId: number, key: string) => {
  const [section, member] = key.split(':');
  return member ? `/accounts/${serverId}/${member}/${section}` : `/accounts/${serverId}/${section}`;
};

describe('a household opened for the first time', () => {
  it('is asked first for the overview’s parts, which are stored before the rest is asked for', async () => {
    const serverId = account.serverId as number;
    const asked: { api: string; path: string; here: string[] }[] = [];
    const send: Send = async (req) => {
      // What this computer holds of the household at the moment the request goes out.
      const here = Object.keys((await db.accounts.get(account.id))?.parts ?? {});
      asked.push({ api: req.api, path: req.path, here });
      return advisor.send(req);
    };
    const report = await new PullEngine({ db, send }).pullAccount(account.id, { priority: 'interactive' });
    expect(report.failures).toEqual([]);
    expect(asked).toHaveLength(25);

    // The account itself (version 2), then the fourteen parts of the figures, in any order.
    expect(asked[0]).toMatchObject({ api: 'v2', path: `/accounts/${serverId}` });
    const overview = OVERVIEW.map((key) => pathOf(serverId, key));
    expect(
      asked
        .slice(1, 15)
        .map((a) => a.path)
        .sort(),
    ).toEqual([...overview].sort());
    // Nothing of them is asked again later; everything later is the rest of the household.
    const later = asked.slice(15);
    expect(later.filter((a) => overview.includes(a.path))).toEqual([]);
    expect(later.map((a) => a.path)).toEqual(
      expect.arrayContaining([pathOf(serverId, 'goals'), pathOf(serverId, 'contacts')]),
    );
    // Each later request leaves with the figures' parts already stored here: the overview shows
    // them while the rest comes.
    for (const request of later) expect(request.here).toEqual(expect.arrayContaining(OVERVIEW));
    // And once the pull has ended, every part is here.
    const after = (await db.accounts.get(account.id))!;
    expect(after.pulledAt).not.toBeNull();
    expect(Object.keys(after.parts ?? {})).toEqual(
      expect.arrayContaining([...OVERVIEW, 'goals', 'contacts', 'family', 'employment:coclient']),
    );
  });
});
