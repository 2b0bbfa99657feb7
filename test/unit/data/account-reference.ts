// Random accounts and queries of the account list, and the reference answer a query must give:
// a plain filter and sort of the rows (every filter, search of one word or several, sort key,
// ties included: equal names, equal timestamps, accounts not on the server yet). Shared by the
// tests of listAccountIds and of the list's index in memory.

import fc from 'fast-check';
import { accountIndex, emptyMeta } from '../../../renderer/src/data/accounts.ts';
import type { AccountRow } from '../../../renderer/src/data/model.ts';
import {
  ACCOUNT_SORT_KEYS,
  accountComparator,
  type AccountFilter,
  type AccountSort,
} from '../../../renderer/src/data/queries/index.ts';
import { searchQuery } from '@shared/search-text.ts';

export const STAGES = ['s1', 's2', 's3'];
const names = fc.constantFrom('', 'Ann', 'ann', 'Anna', 'Bob', 'Émile', 'emile', 'Zoe', 'Al Bo', "O'Brien");
const stamp = fc.constantFrom('2024-01-01 10:00:00', '2024-01-02 09:00:00', '2023-12-31 23:59:59', null);

export const account = fc.record({
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

export function row(a: Generated, i: number): AccountRow {
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

export type Generated = typeof account extends fc.Arbitrary<infer T> ? T : never;

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

/** The interface's rule: what is typed, folded (shared/search-text.ts), starts a name or email. */
function matches(search: string, r: AccountRow): boolean {
  const whole = searchQuery(search);
  if (whole === '') return true;
  const starts = (w: string) => r.search.some((s) => s.startsWith(w));
  return starts(whole) || whole.split(/\s+/).every(starts);
}

/** What the list must show: every row of the query, sorted with the platform's comparator. */
export function reference(
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

export const query = fc.record({
  search: fc.constantFrom('', 'a', 'an', 'ANN', 'em', 'ÉMI', 'al b', 'ann  b', 'z', 'x@', "o'b", 'obr'),
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
