// The read-only records an account pull brings, against the sandbox platform over real HTTP,
// through the real main-side transport, into Dexie over fake-indexeddb: member security, profile
// values and activity, compared with what the platform answers through its own API, with their
// removals and request counts.

import { beforeAll, describe, expect, it } from 'vitest';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { accountActivity, memberSecurity, profileValues } from '../../renderer/src/data/queries/index.ts';
import { PullEngine } from '../../renderer/src/sync/pull/index.ts';
import type { AccountRecord } from '../platform/model.ts';
import { ASSISTANT } from '../support/sandbox-client.ts';
import {
  accountOf,
  activitiesOf,
  api,
  freshDb,
  get,
  ids,
  KNOWN_PAGE_SIZES,
  platform,
  readOnlyPulls,
  requestsSince,
  send,
  teamAccounts,
  teamEngagements,
  withoutPin,
  type Listed,
} from './read-only-pulls.ts';

readOnlyPulls();

describe('an account pull brings security, profile values and activity', () => {
  let db: AdvisorDb;
  let engine: PullEngine;
  let account: AccountRecord;

  beforeAll(async () => {
    db = await freshDb();
    // Counted here: the requests once every list's page size is known (the probe of a list's
    // largest size, refused once by the sandbox, is tested with the account list).
    engine = new PullEngine({ db, send, pageSizes: KNOWN_PAGE_SIZES });
    await engine.pullAccountList();
    // A co-client, activity of several types and profile values written by completed engagements.
    account = teamAccounts().find(
      (a) => a.coclient && a.profile.length > 0 && new Set(activitiesOf(a.id).map((x) => x.type)).size >= 3,
    )!;
  });

  it('in 25 requests with a co-client: the 21 of its data and 4 more', async () => {
    const row = await accountOf(db, account.id);
    const count = requestsSince();
    const report = await engine.pullAccount(row.id, { priority: 'interactive' });
    expect(report.failures).toEqual([]);
    expect(report.requests).toBe(25);
    expect(count()).toBe(25);

    const security = await memberSecurity(db, row.id);
    // Stored as the platform answers it, but for the PIN: no PIN is written to disk.
    for (const member of ['client', 'coclient'] as const)
      expect(security[member]?.server).toEqual(
        withoutPin(await get(`/api/v0/accounts/${account.id}/${member}/security`)),
      );

    const profile = await get<{ id: string }[]>(`/api/v2/accounts/${account.id}/profile`);
    const local = await profileValues(db, row.id);
    expect(ids(local)).toEqual(ids(profile));
    expect(local.map((r) => r.server).sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(
      [...profile].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    const member = account.coclient!.id;
    expect(ids(await profileValues(db, row.id, { memberId: member }))).toEqual(
      ids(profile.filter((v) => (v as unknown as { member_id: number }).member_id === member)),
    );

    const activity = await get<Listed<{ id: number }>>(`/api/v2/accounts/${account.id}/activity?limit=500`);
    const page = await accountActivity(db, row.id, { limit: 500 });
    expect(page.total).toBe(activity.items.length);
    expect(page.items.map((r) => r.server)).toEqual(activity.items);
  });

  it('queries the activity as the interface sorts and filters it', async () => {
    const row = await accountOf(db, account.id);
    const types = new Set((await accountActivity(db, row.id, { limit: 500 })).items.map((r) => r.type));
    for (const type of [undefined, ...types]) {
      for (const sort of ['created_at', '-created_at'] as const) {
        const query = `sort=${sort}&limit=500${type ? `&type=${type}` : ''}`;
        const served = await get<Listed<{ id: number }>>(`/api/v2/accounts/${account.id}/activity?${query}`);
        const local = await accountActivity(db, row.id, { sort, limit: 500, ...(type ? { type } : {}) });
        expect(
          local.items.map((r) => r.id),
          query,
        ).toEqual(served.items.map((a) => a.id));
        const window = await accountActivity(db, row.id, {
          sort,
          offset: 1,
          limit: 2,
          ...(type ? { type } : {}),
        });
        expect(
          window.items.map((r) => r.id),
          query,
        ).toEqual(served.items.slice(1, 3).map((a) => a.id));
      }
    }
  });

  it('takes changes and removes what the platform no longer has, in 4 requests without the rest', async () => {
    const row = await accountOf(db, account.id);
    // The co-client was blocked (too many wrong passwords), as the app last saw; the reset lets them
    // in again. (The new PIN alone changes nothing stored: no PIN is written to disk.)
    account.coclient!.status = 'BLOCKED';
    await engine.pullAccountExtras(row.id);
    expect((await memberSecurity(db, row.id)).coclient?.status).toBe('BLOCKED');
    await api('POST', `/api/v0/accounts/${account.id}/coclient/security/reset`, undefined, ASSISTANT);
    const count = requestsSince();
    const report = await engine.pullAccountExtras(row.id);
    expect(report).toMatchObject({ requests: 4, failures: [] });
    expect(count()).toBe(4);
    // The new status (the reset recorded its activity in the advisor's feed, not the account's).
    expect(report.written).toBe(1);
    expect((await memberSecurity(db, row.id)).coclient?.server).toEqual(
      withoutPin(await get(`/api/v0/accounts/${account.id}/coclient/security`)),
    );
    expect((await engine.pullAccountExtras(row.id)).written).toBe(0);

    // Rows the platform does not list any more: a stray activity and profile value are removed.
    const [activity] = (await accountActivity(db, row.id, { limit: 1 })).items;
    await db.accountActivity.put({ ...activity!, id: 10_000_000 });
    const [value] = await profileValues(db, row.id);
    await db.profileValues.put({ ...value!, id: 'gone-value' });
    expect(await engine.pullAccountExtras(row.id)).toMatchObject({ removed: 2, written: 0 });
    expect(await db.accountActivity.get(10_000_000)).toBeUndefined();
    expect(await db.profileValues.get('gone-value')).toBeUndefined();

    // The co-client is removed: their security goes, and only the client's is asked.
    await api('POST', `/api/v2/accounts/${account.id}`, { coclient: null });
    const without = await engine.pullAccount(row.id);
    expect(without).toMatchObject({ requests: 21, failures: [] });
    expect(Object.keys(await memberSecurity(db, row.id))).toEqual(['client']);
    expect((await engine.pullAccountExtras(row.id)).requests).toBe(3);
  });

  it('reads only the newest page of activity with the account, all of it on demand', async () => {
    const fresh = await freshDb();
    const small = new PullEngine({ db: fresh, send, pageSizes: [2] });
    await small.pullAccountList();
    const target = teamAccounts().find((a) => activitiesOf(a.id).length >= 5)!;
    const row = await accountOf(fresh, target.id);
    const all = await get<Listed<{ id: number; created_at: string }>>(
      `/api/v2/accounts/${target.id}/activity?limit=500`,
    );
    // Two rows the platform does not have: one among the newest page's times, one older than it.
    const stray = (id: number, created_at: string) => ({
      id,
      accountServerId: target.id,
      type: 'account.updated',
      createdAt: created_at,
      server: { ...all.items[0]!, id, created_at } as never,
      pulledAt: 0,
    });
    await fresh.accountActivity.bulkPut([
      stray(20_000_001, '9999-01-01 00:00:00'),
      stray(20_000_002, '0001-01-01 00:00:00'),
    ]);

    const count = requestsSince();
    const extras = await small.pullAccountExtras(row.id);
    expect(extras.failures).toEqual([]);
    // Security of each member, the profile, one page of activity.
    expect(count()).toBe(target.coclient ? 4 : 3);
    expect(await fresh.accountActivity.get(20_000_001)).toBeUndefined();
    expect(await fresh.accountActivity.get(20_000_002)).toBeDefined();
    expect((await accountActivity(fresh, row.id, { limit: 2 })).items.map((r) => r.id)).toEqual(
      all.items.slice(0, 2).map((a) => a.id),
    );

    const more = requestsSince();
    const report = await small.pullAccountActivity(row.id);
    // Pages of 2 up to the first short one (an empty one when they come out even): no total here.
    expect(more()).toBe(Math.floor(all.items.length / 2) + 1);
    expect(report.removed).toBe(1);
    const local = await accountActivity(fresh, row.id, { limit: 500 });
    expect(local.items.map((r) => r.server)).toEqual(all.items);
  });

  it('removes the records of an account deleted on the server, with its engagements and forms', async () => {
    const victim = teamAccounts().find(
      (a) =>
        a.id !== account.id &&
        teamEngagements().some((e) => e.account_id === a.id && e.status === 'COMPLETED') &&
        platform.control.dump().forms.some((f) => f.account_id === a.id),
    )!;
    const row = await accountOf(db, victim.id);
    await engine.pullAccount(row.id);
    await engine.pullEngagements({ accountId: row.id });
    await engine.pullForms({ accountId: row.id });
    const engagement = teamEngagements().find((e) => e.account_id === victim.id && e.status === 'COMPLETED')!;
    await engine.pullEngagement(engagement.id);
    const held = async () => ({
      security: await db.memberSecurity.where('accountServerId').equals(victim.id).count(),
      profile: await db.profileValues.where('accountServerId').equals(victim.id).count(),
      activity: await db.accountActivity.where('accountServerId').equals(victim.id).count(),
      forms: await db.forms.where('accountServerId').equals(victim.id).count(),
      engagements: await db.engagements.where('accountServerId').equals(victim.id).count(),
      parts: await db.engagementParts.where('engagementId').equals(engagement.id).count(),
    });
    const before = await held();
    expect(Object.values(before).every((n) => n > 0)).toBe(true);
    const data =
      (await db.sectionItems.where('accountId').equals(row.id).count()) +
      (await db.singles.where('accountId').equals(row.id).count());

    await api('DELETE', `/api/v2/accounts/${victim.id}`, { password: 'sandbox' });
    const report = await engine.pullAccountList({ full: true });
    const records = Object.values(before).reduce((a, b) => a + b, 0);
    expect(report.removed).toBe(1 + data + records);
    expect(await held()).toEqual({
      security: 0,
      profile: 0,
      activity: 0,
      forms: 0,
      engagements: 0,
      parts: 0,
    });
  });
});
