// The engagement list's index in memory (renderer/src/data/engagement-index.ts) against the
// reference, a plain filter and sort of the stored rows: after random pulls, edits and deletions
// (small ones patched, a large one sorted again), for every sort key in both directions, every
// filter and the prefix search of the title or the engaged member's name (any case).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import type { EngagementRow } from '../../../renderer/src/data/model.ts';
import {
  ENGAGEMENT_SORT_KEYS,
  engagementComparator,
  listEngagements,
  type EngagementQuery,
  type EngagementSort,
} from '../../../renderer/src/data/queries/index.ts';
import { engagementIndex } from '../../../renderer/src/data/engagement-index.ts';
import { engagementRow } from '../../../renderer/src/data/records.ts';
import { openDb, syncedAccount } from '../../support/store.ts';

const ACCOUNTS = [11, 12, 13];
const TITLES = ['Risk profile', 'risk review', 'Évaluation', 'Annual check', 'annual Check', ''];
const NAMES = ['Ann Lee', 'ann lee', 'Émile Zola', 'Bob', ''];
const STAMPS = [
  '2026-01-01T10:00:00Z',
  '2026-01-01T10:00:00Z',
  '2026-02-03T08:30:00Z',
  '2025-12-31T23:59:59Z',
];

const engagement = fc.record({
  account: fc.constantFrom(...ACCOUNTS),
  member: fc.constantFrom(null, 101, 102),
  template: fc.constantFrom('tpl-a', 'tpl-b'),
  title: fc.constantFrom(...TITLES),
  name: fc.constantFrom(...NAMES),
  email: fc.constantFrom('', 'ann@example.com', 'bob@example.com'),
  security: fc.constantFrom('LOW', 'HIGH'),
  status: fc.constantFrom('NEW', 'COMPLETED'),
  filled: fc.nat(5),
  created: fc.constantFrom(...STAMPS),
  opened: fc.constantFrom(null, ...STAMPS),
});
type Generated = typeof engagement extends fc.Arbitrary<infer T> ? T : never;

/** Engagement `n` as the platform sends it, and the row a pull stores. */
function row(n: number, g: Generated): EngagementRow {
  const r = engagementRow(
    {
      id: `eng-${String(n).padStart(3, '0')}`,
      account_id: g.account,
      member_id: g.member,
      template_id: g.template,
      title: g.title,
      description: '',
      security: g.security,
      name: g.name,
      email: g.email,
      url: 'https://example.com/e',
      status: g.status,
      filled: g.filled,
      time: 0,
      created_at: g.created,
      opened_at: g.opened,
      email_reminders: false,
      reminded_at: null,
      email_completed: false,
      completed_at: g.status === 'COMPLETED' ? g.created : null,
    },
    1,
  );
  if (!r) throw new Error('not an engagement');
  return r;
}

const step = fc.oneof(
  fc.record({
    kind: fc.constant('pull' as const),
    rows: fc.array(fc.tuple(fc.nat(40), engagement), { maxLength: 8 }),
  }),
  fc.record({ kind: fc.constant('edit' as const), at: fc.nat(), title: fc.constantFrom(...TITLES) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('large' as const), from: fc.nat(40), g: engagement }),
);

const sort = fc.constantFrom(
  ...ENGAGEMENT_SORT_KEYS.flatMap((k): EngagementSort[] => [k, `-${k}`]),
  undefined,
);
const query = fc.record(
  {
    account: fc.constantFrom(...ACCOUNTS),
    memberId: fc.constantFrom(101, 102),
    templateId: fc.constantFrom('tpl-a', 'tpl-b'),
    type: fc.constantFrom('completed' as const, 'in-progress' as const),
    search: fc.constantFrom('risk', 'RISK ', 'ann', 'annual c', 'é', 'émile', 'z', 'bob'),
    sort,
    offset: fc.nat(6),
    limit: fc.integer({ min: 1, max: 60 }),
  },
  { requiredKeys: [] },
);
type Query = typeof query extends fc.Arbitrary<infer T> ? T : never;

/** The reference: every stored row, filtered and sorted plainly. */
function reference(rows: EngagementRow[], q: Query) {
  const search = q.search?.trim().toLowerCase() ?? '';
  const selected = rows
    .filter(
      (r) =>
        (q.account === undefined || r.accountServerId === q.account) &&
        (q.memberId === undefined || r.memberId === q.memberId) &&
        (q.templateId === undefined || r.templateId === q.templateId) &&
        (q.type === undefined || (r.server.status === 'COMPLETED') === (q.type === 'completed')) &&
        (search === '' ||
          [r.server.title, r.server.name].some((v) => v.trim().toLowerCase().startsWith(search))),
    )
    .sort(engagementComparator(q.sort ?? '-created_at'));
  const offset = q.offset ?? 0;
  return { ids: selected.slice(offset, offset + (q.limit ?? 50)).map((r) => r.id), total: selected.length };
}

async function check(db: AdvisorDb, accountIds: Map<number, string>, q: Query) {
  const { account, ...rest } = q;
  const asked: EngagementQuery = {
    ...rest,
    ...(account === undefined ? {} : { accountId: accountIds.get(account)! }),
  };
  const page = await listEngagements(db, asked);
  expect({ ids: page.items.map((r) => r.id), total: page.total }).toEqual(
    reference(await db.engagements.toArray(), q),
  );
}

describe('the engagement index', () => {
  it('answers every query as a plain filter and sort of the rows, after pulls, edits and deletions', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(40), engagement), { maxLength: 20 }),
        fc.array(fc.tuple(step, fc.array(query, { minLength: 1, maxLength: 3 })), { maxLength: 8 }),
        async (first, steps) => {
          const db = openDb();
          await db.open();
          try {
            const accountIds = new Map<number, string>();
            for (const id of ACCOUNTS) accountIds.set(id, (await syncedAccount(db, id)).id);
            await db.engagements.bulkPut(first.map(([n, g]) => row(n, g)));
            await engagementIndex(db).whenReady;
            for (const [s, queries] of steps) {
              const ids = (await db.engagements.toCollection().primaryKeys()).sort();
              if (s.kind === 'pull') await db.engagements.bulkPut(s.rows.map(([n, g]) => row(n, g)));
              else if (s.kind === 'large')
                // Past the patch limit: the orders and terms are sorted again.
                await db.engagements.bulkPut(Array.from({ length: 300 }, (_, i) => row(s.from + i, s.g)));
              else if (ids.length > 0) {
                const id = ids[s.at % ids.length]!;
                if (s.kind === 'delete') await db.engagements.delete(id);
                else
                  await db.engagements
                    .where('id')
                    .equals(id)
                    .modify((r) => {
                      r.server = { ...r.server, title: s.title };
                      r.search = [
                        ...new Set([s.title, r.server.name].map((v) => v.trim().toLowerCase())),
                      ].filter((v) => v !== '');
                    });
              }
              for (const q of queries) await check(db, accountIds, q);
            }
          } finally {
            await db.delete();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('follows a transaction undone: what it wrote is not listed', async () => {
    const db = openDb();
    await db.open();
    const g: Generated = {
      account: 11,
      member: 101,
      template: 'tpl-a',
      title: 'Risk profile',
      name: 'Ann Lee',
      email: '',
      security: 'LOW',
      status: 'NEW',
      filled: 0,
      created: STAMPS[0]!,
      opened: null,
    };
    await db.engagements.put(row(1, g));
    await engagementIndex(db).whenReady;
    await db
      .transaction('rw', db.engagements, async () => {
        await db.engagements.put(row(2, { ...g, title: 'Risk review' }));
        throw new Error('undone');
      })
      .catch(() => undefined);
    const page = await listEngagements(db, { search: 'risk' });
    expect(page.items.map((r) => r.id)).toEqual(['eng-001']);
    expect(page.total).toBe(1);
    await db.delete();
  });
});
