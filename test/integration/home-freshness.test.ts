// Home's freshness rule against the sandbox platform over real HTTP: opening Home pulls the
// statistics and the feed only when their last successful pull is older than the minimum age
// (freshness.ts), so that opening it twice within that age costs nothing the second time; a
// Refresh asks whatever the age, and a new day's range is asked at once.

import { describe, expect, it } from 'vitest';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { STATS_KEY } from '../../renderer/src/data/queries/index.ts';
import { statsPullRange } from '../../renderer/src/home/stats.ts';
import type { SyncCoordinator, SyncState } from '../../renderer/src/sync/coordinator/index.ts';
import { ADVISOR_RECORDS_MIN_AGE_MS } from '../../renderer/src/sync/coordinator/freshness.ts';
import { USER_ACTIVITY_STATE } from '../../renderer/src/sync/pull/feed.ts';
import { loneCoordinator, onSandbox, untilState } from './coordinator-harness.ts';
import type { SandboxClient } from '../support/sandbox-client.ts';

let advisor: SandboxClient;
let db: AdvisorDb;
const cleanup: (() => Promise<void> | void)[] = [];

onSandbox(12, cleanup, (world) => ({ advisor, db } = world));

/** The requests for the statistics and the feed sent by `open`. */
async function asked(open: () => Promise<void>): Promise<string[]> {
  const from = advisor.requests.length;
  await open();
  return advisor.requests
    .slice(from)
    .map((r) => r.path)
    .filter((p) => p === '/user/stats' || p === '/user/activities');
}

describe('Home’s freshness rule', () => {
  it('opening Home twice within the minimum age costs nothing the second time; Refresh and age ask again', async () => {
    let now = Date.now();
    const c: SyncCoordinator = loneCoordinator(db, advisor.send, cleanup, {
      now: () => now,
      pull: { recentAccounts: 0 },
    });
    c.start();
    await untilState(c, (s: SyncState) => s.phase === 'idle' && s.lastSyncedAt !== null, cleanup, 20_000);
    const range = statsPullRange(new Date(now));
    const openHome = () => c.refreshAdvisorRecords({ feed: true, stats: range });

    // First opening: both pulled (the feed's first page probes its size: the sandbox refuses the
    // largest), each at interactive priority, and when noted.
    const from = advisor.requests.length;
    expect([...new Set(await asked(openHome))]).toEqual(['/user/stats', '/user/activities']);
    const sent = advisor.requests.slice(from).filter((r) => r.path.startsWith('/user/'));
    expect(new Set(sent.map((r) => r.priority))).toEqual(new Set(['interactive']));
    expect((await db.meta.get(STATS_KEY))?.value).toMatchObject({ pulledAt: now, ...range });
    expect((await db.meta.get(USER_ACTIVITY_STATE))?.value).toMatchObject({ pulledAt: now });

    // Opened again a minute short of the age: no request at all.
    now += ADVISOR_RECORDS_MIN_AGE_MS - 60_000;
    const total = advisor.requests.length;
    await openHome();
    expect(advisor.requests.length).toBe(total);

    // Refresh asks whatever the age.
    expect(await asked(() => c.refreshAdvisorRecords({ feed: true, stats: range, force: true }))).toEqual([
      '/user/stats',
      '/user/activities',
    ]);

    // The age passed since that pull: opening asks again.
    now += ADVISOR_RECORDS_MIN_AGE_MS;
    expect(await asked(openHome)).toEqual(['/user/stats', '/user/activities']);

    // Within the age, but for another range (the next day's): the statistics only.
    now += 60_000;
    const next = { start: '2020-01-01', end: '2020-12-31' };
    expect(await asked(() => c.refreshAdvisorRecords({ feed: true, stats: next }))).toEqual(['/user/stats']);
  });
});
