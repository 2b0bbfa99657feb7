// The account list's index in memory (renderer/src/data/account-index/) against the reference, a
// plain filter and sort of the stored rows: after random pulls, edits through the change module
// and deletions, for every sort key, filter and search (one word or several, case and accents);
// a large pull (the orders sorted again), and another window of the same store kept in step.

import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { accountIndex, indexedIds } from '../../../renderer/src/data/account-index/index.ts';
import { storedEntryOf } from '../../../renderer/src/data/account-index/entry.ts';
import { forgetAccount, updateRecord } from '../../../renderer/src/data/changes/index.ts';
import { putConfigEntry, CONFIG_KEYS } from '../../../renderer/src/data/config.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { openDb } from '../../support/store.ts';
import { STAGES, account, query, reference, row, type Generated } from './account-reference.ts';

const edit = fc.oneof(
  fc.record({
    kind: fc.constant('pull' as const),
    accounts: fc.array(fc.tuple(fc.nat(60), account), { maxLength: 8 }),
  }),
  fc.record({
    kind: fc.constant('edit' as const),
    at: fc.nat(),
    patch: fc.oneof(
      fc.record({ favorited: fc.boolean() }),
      fc.record({ archived: fc.boolean() }),
      fc.record({ 'client.last_name': fc.constantFrom('', 'Ann', 'Émile', 'zoe', "O'Brien") }),
      fc.record({ type: fc.constantFrom('CLIENT', 'PROSPECT') }),
      fc.record({ 'pipeline.id': fc.constantFrom('', ...STAGES) }),
    ),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), local: fc.boolean() }),
);

/** A pull's rows: account `n` of the generated ones, keyed as the same account each time. */
const pulled = (accounts: [number, Generated][]) =>
  accounts.map(([n, a]) => ({ ...row(a, n), id: `acc-${String(n).padStart(2, '0')}`, serverId: n + 1 }));

async function stages(db: AdvisorDb) {
  await putConfigEntry(db, CONFIG_KEYS.user, {
    pulledAt: 1,
    data: { pipelines: STAGES.map((id) => ({ id })) },
  });
}

describe('the account list index', () => {
  it('answers every query as a plain filter and sort of the rows, after any pulls, edits and deletions', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(60), account), { maxLength: 30 }),
        fc.array(edit, { maxLength: 8 }),
        fc.array(query, { minLength: 1, maxLength: 6 }),
        async (first, edits, queries) => {
          const db = openDb();
          try {
            await stages(db);
            await db.accounts.bulkPut(pulled(first));
            const index = accountIndex(db);
            await index.whenReady;
            const check = async (label: string) => {
              const stored = await db.accounts.toArray();
              // The entries the index is read from when the store opens follow the rows.
              expect(await db.accountEntries.toArray(), `${label}: the stored entries`).toEqual(
                stored.map(storedEntryOf),
              );
              for (const q of queries)
                expect(await indexedIds(db, q), `${label}: ${JSON.stringify(q)}`).toEqual(
                  reference(stored, q),
                );
            };
            await check('as built');
            for (const e of edits) {
              const ids = (await db.accounts.toCollection().primaryKeys()).sort();
              const target = ids.length ? ids[('at' in e ? e.at : 0) % ids.length]! : null;
              if (e.kind === 'pull') await db.accounts.bulkPut(pulled(e.accounts));
              else if (e.kind === 'edit' && target) await updateRecord(db, 'accounts', target, e.patch);
              else if (e.kind === 'delete' && target) {
                if (e.local) await forgetAccount(db, target);
                else await db.accounts.delete(target);
              }
              await check(JSON.stringify(e));
            }
          } finally {
            await db.delete();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('merges a sync’s pages into the orders and search terms already sorted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.tuple(fc.nat(120), account), { minLength: 9, maxLength: 40 }), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.array(query, { minLength: 1, maxLength: 4 }),
        async (pages, queries) => {
          const db = openDb();
          try {
            await stages(db);
            await accountIndex(db).whenReady;
            for (const [n, page] of pages.entries()) {
              // Asked before each page: the orders and the search terms these queries read are
              // sorted, and the page (more rows than are patched one by one) is merged into them.
              for (const q of queries) await indexedIds(db, q);
              await db.accounts.bulkPut(pulled(page));
              const stored = await db.accounts.toArray();
              for (const q of queries)
                expect(await indexedIds(db, q), `page ${n}: ${JSON.stringify(q)}`).toEqual(
                  reference(stored, q),
                );
            }
          } finally {
            await db.delete();
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('sorts again after a pull too large to patch, and follows a cleared table', async () => {
    const db = openDb();
    await stages(db);
    const index = accountIndex(db);
    await index.whenReady;
    const sample = fc.sample(account, { numRuns: 600, seed: 7 });
    const q = { sort: 'client.first_name', filter: 'all' } as const;
    expect(index.list.ids(q)).toEqual([]);
    await db.accounts.bulkPut(pulled(sample.map((a, n) => [n, a])));
    expect(index.list.ids(q)).toEqual(reference(await db.accounts.toArray(), { ...q, search: '' }));
    expect(index.list.ids({ ...q, sort: '-quality' })).toEqual(
      reference(await db.accounts.toArray(), { ...q, sort: '-quality', search: '' }),
    );
    await db.accounts.clear();
    await vi.waitFor(() => expect(index.list.ids(q)).toEqual([]));
    expect(await db.accountEntries.count()).toBe(0);
    await db.delete();
  });

  it('follows the writes of another window of the same store', async () => {
    const db = openDb();
    const other = openDb(db.name);
    await Promise.all([accountIndex(db).whenReady, accountIndex(other).whenReady]);
    const [a] = fc.sample(account, { numRuns: 1, seed: 3 });
    await db.accounts.put({ ...row(a!, 1), serverId: 1 });
    const q = { filter: 'all', sort: 'created_at', search: '' } as const;
    await vi.waitFor(() => expect(accountIndex(other).list.ids(q)).toEqual([row(a!, 1).id]));
    await db.accounts.delete(row(a!, 1).id);
    await vi.waitFor(() => expect(accountIndex(other).list.ids(q)).toEqual([]));
    other.close();
    await db.delete();
  });
});
