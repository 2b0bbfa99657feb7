// listAccountIds (the account list's query) against a straightforward reference on random data:
// every filter, search (one word or several) and sort key of the interface, ties included (equal
// names, equal timestamps, accounts not on the server yet). A safety net for making it faster.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountIndex, emptyMeta } from '../../../renderer/src/data/accounts.ts';
import { putConfigEntry, CONFIG_KEYS } from '../../../renderer/src/data/config.ts';
import type { AccountRow } from '../../../renderer/src/data/model.ts';
import {
  ACCOUNT_SORT_KEYS,
  accountComparator,
  firstAccounts,
  listAccountIds,
  type AccountFilter,
  type AccountSort,
} from '../../../renderer/src/data/queries/index.ts';
import { openDb } from '../../support/store.ts';

const STAGES = ['s1', 's2', 's3'];
const names = fc.constantFrom('', 'Ann', 'ann', 'Anna', 'Bob', 'Émile', 'emile', 'Zoe', 'Al Bo');
const stamp = fc.constantFrom('2024-01-01 10:00:00', '2024-01-02 09:00:00', '2023-12-31 23:59:59', null);

const account = fc.record({
  serverId: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
  changedAt: fc.integer({ min: 0, max: 5 }),
  type: fc.constantFrom('CLIENT', 'PROSPECT'),
  first: names,
  last: names,
  email: fc.constantFrom('', 'a@x.com', 'b@x.com', 'ann@x.com'),
  cofirst: names,
  archived: fc.boolean(),
  favorited: fc.boolean(),
  pipeline: fc.constantFrom('', ...STAGES, 'unknown'),
  created: stamp,
  updated: stamp,
  quality: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
});

function row(a: Generated, i: number): AccountRow {
  const fields = {
    type: a.type,
    'client.first_name': a.first,
    'client.last_name': a.last,
    'client.email': a.email,
    'coclient.first_name': a.cofirst || null,
    archived: a.archived,
    favorited: a.favorited,
    'pipeline.id': a.pipeline,
  };
  const meta = {
    ...emptyMeta(),
    created_at: a.created,
    updated_at: a.updated,
    quality: a.quality === null ? null : { score: a.quality, rules: [] },
  };
  return {
    id: `id-${String(i).padStart(3, '0')}-${a.first}`,
    serverId: a.serverId === null ? null : a.serverId * 100 + i,
    fields,
    server: fields,
    status: 'synced',
    changedAt: a.changedAt,
    ...accountIndex(fields, meta),
    meta,
    availableOffline: 0,
    openedAt: null,
    pulledAt: null,
  };
}

type Generated = typeof account extends fc.Arbitrary<infer T> ? T : never;

const inFilter = (filter: AccountFilter | undefined, r: AccountRow) =>
  filter === 'all'
    ? true
    : filter === 'archived'
      ? r.archived === 1
      : r.archived === 0 &&
        (filter === 'client'
          ? r.type === 'CLIENT'
          : filter === 'prospect'
            ? r.type === 'PROSPECT'
            : filter === 'favorite'
              ? r.favorited === 1
              : true);

function matches(search: string, r: AccountRow): boolean {
  const whole = search.trim().toLowerCase();
  if (whole === '') return true;
  const starts = (w: string) => r.search.some((s) => s.startsWith(w));
  return starts(whole) || whole.split(/\s+/).every(starts);
}

/** What the list must show: every row of the query, sorted with the platform's comparator. */
function reference(
  rows: AccountRow[],
  q: { search: string; filter?: AccountFilter; pipeline?: string; sort: AccountSort },
) {
  const stage = (id: string) => (STAGES.includes(id) ? STAGES.indexOf(id) + 1 : null);
  const key = q.sort.replace(/^-/, '');
  const sign = q.sort.startsWith('-') ? -1 : 1;
  // Timestamps are walked in an index's order (queries.ts): equal ones follow the local id there,
  // with or without a search, a filter or a pipeline.
  if (key === 'created_at' || key === 'updated_at') {
    const column = key === 'created_at' ? 'createdAt' : 'updatedAt';
    return rows
      .filter(
        (r) => inFilter(q.filter, r) && matches(q.search, r) && (!q.pipeline || r.pipelineId === q.pipeline),
      )
      .sort((a, b) => (a[column] < b[column] ? -1 : a[column] > b[column] ? 1 : a.id < b.id ? -1 : 1) * sign)
      .map((r) => r.id);
  }
  return rows
    .filter(
      (r) => inFilter(q.filter, r) && matches(q.search, r) && (!q.pipeline || r.pipelineId === q.pipeline),
    )
    .sort(accountComparator(q.sort, stage))
    .map((r) => r.id);
}

const query = fc.record({
  search: fc.constantFrom('', 'a', 'an', 'ANN', 'em', 'al b', 'ann b', 'z', 'x@'),
  filter: fc.constantFrom<AccountFilter | undefined>(
    undefined,
    'all',
    'archived',
    'client',
    'prospect',
    'favorite',
  ),
  pipeline: fc.constantFrom<string | undefined>(undefined, 's2'),
  sort: fc.constantFrom<AccountSort>(...ACCOUNT_SORT_KEYS.flatMap((k): AccountSort[] => [k, `-${k}`])),
});

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
