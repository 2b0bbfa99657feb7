// listAccountIds (the account list's query) against a straightforward reference on random data:
// every filter, search (one word or several) and sort key of the interface, ties included (equal
// names, equal timestamps, accounts not on the server yet). A safety net for making it faster.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { putConfigEntry, CONFIG_KEYS } from '../../../renderer/src/data/config.ts';
import { firstAccounts, listAccountIds } from '../../../renderer/src/data/queries/index.ts';
import { openDb } from '../../support/store.ts';
import { STAGES, account, query, reference, row } from './account-reference.ts';

describe('listAccountIds', () => {
  it('gives the rows and order of the reference, for any data and query', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(account, { maxLength: 40 }),
        fc.array(query, { minLength: 1, maxLength: 8 }),
        async (accounts, queries) => {
          const db = openDb();
          try {
            const rows = accounts.map(row);
            await db.accounts.bulkAdd(
              rows.filter(
                (r, i) => rows.findIndex((o) => o.serverId === r.serverId && r.serverId !== null) === i,
              ),
            );
            const stored = await db.accounts.toArray();
            await putConfigEntry(db, CONFIG_KEYS.user, {
              pulledAt: 1,
              data: { pipelines: STAGES.map((id) => ({ id })) },
            });
            for (const q of queries) {
              const expected = reference(stored, q);
              expect(await listAccountIds(db, q), JSON.stringify(q)).toEqual(expected);
              // A search with many hits walks the date index instead of reading rows: same answer.
              expect(await listAccountIds(db, q, 0), `${JSON.stringify(q)}, index walk`).toEqual(expected);
              // The first rows the list shows before every id is read: the same accounts in the same
              // order, whether the walk finds them, runs out of rows, or gives up on its budget.
              // Sorts by groups (type, flags, stage) have no index to walk; in a name, email or
              // quality index, a walk that ends short proves nothing (empty values follow it).
              const byDate = /created_at|updated_at/.test(q.sort);
              const grouped = /^-?(type|favorited|archived|pipeline)$/.test(q.sort);
              for (const budget of [Infinity, 6, 0]) {
                const first = await firstAccounts(db, q, 4, budget);
                const label = `${JSON.stringify(q)}, first 4 within ${budget} rows`;
                // A date walk of the default, archived or whole list needs no budget: its first rows are the answer's.
                const plain =
                  byDate &&
                  q.search.trim() === '' &&
                  !q.pipeline &&
                  [undefined, 'all', 'archived'].includes(q.filter);
                if (grouped || (budget === 0 && expected.length > 0 && !plain))
                  expect(first, label).toBeNull();
                const key = q.sort.replace(/^-/, '');
                const valued = stored.filter(
                  (r) =>
                    expected.includes(r.id) &&
                    (key === 'quality' ? r.meta.quality !== null : Boolean(r.fields[key])),
                );
                if (budget === Infinity && (byDate || (!grouped && valued.length >= 4)))
                  expect(first, label).not.toBeNull();
                if (!first) continue;
                expect(
                  first.rows.map((r) => r.id),
                  label,
                ).toEqual(expected.slice(0, 4));
                if (first.total !== null) expect(first.total, label).toBe(expected.length);
              }
            }
          } finally {
            await db.delete();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
