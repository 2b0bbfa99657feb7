// What an account's screen shows besides its data, read-only: each member's security (0.0.1), the
// profile values and the account's activity (version 2). They have no outbox: a pull stores what
// the server listed and removes what it no longer has.

import type { Priority } from '@shared/api/request.ts';
import type { MemberRole } from '@shared/sections.ts';
import { parseWire, readWire } from '@shared/wire/parse.ts';
import { AccountActivity } from '@shared/wire/v2/activity.ts';
import { MemberSecurity } from '@shared/wire/v0/member.ts';
import { ACTIVITY_PART, PROFILE_PART, recordParts, securityPart } from '../../data/coverage.ts';
import { accountActivity } from '../../data/queries/read-only.ts';
import { accountActivityRow, memberSecurityRow, profileValueRow, rowsOf } from '../../data/records.ts';
import { membersOf } from './account-parts.ts';
import { allParts, fetchArray, fetchParsed, pullOfAccount, storeList, type PullContext } from './context.ts';
import { heldEntries, namedPageSize, readList, readOlderPage, type ListSpec } from './paging.ts';
import type { PullReport } from './report.ts';

/**
 * Each member's security, the profile values and the newest page of activity. 3 requests, 4
 * with a co-client. Part of every account pull; on its own for a screen that needs only these.
 */
export async function pullAccountExtras(
  ctx: PullContext,
  localId: string,
  options: { priority?: Priority } = {},
): Promise<PullReport> {
  return pullOfAccount(ctx, localId, async (account, report) => {
    const members = membersOf(account.meta);
    const arrived = await accountExtras(
      ctx,
      account.serverId,
      members,
      report,
      options.priority ?? 'background',
    );
    await recordParts(ctx.db, localId, arrived, members, ctx.now());
  });
}

/**
 * An account's activity, newest first: `pages` pages (default all), for a screen scrolled past
 * what the account pull brought. Rows the pages reach that the server no longer lists go.
 */
export async function pullAccountActivity(
  ctx: PullContext,
  localId: string,
  options: { pages?: number; priority?: Priority } = {},
): Promise<PullReport> {
  return pullOfAccount(ctx, localId, async (account, report) => {
    if (await readAccountActivity(ctx, account.serverId, options.pages ?? Infinity, report, options.priority))
      await recordParts(ctx.db, localId, [ACTIVITY_PART], membersOf(account.meta), ctx.now());
  });
}

/** The requests of `accountExtras`: each member's security, the profile, one page of activity. */
export const extrasRequests = (members: readonly MemberRole[]): number => members.length + 2;

/** The extras of an account; resolves with the keys of the parts that arrived (data/coverage.ts). */
export async function accountExtras(
  ctx: PullContext,
  serverId: number,
  members: readonly MemberRole[],
  report: PullReport,
  priority: Priority,
): Promise<string[]> {
  const [security, profile, activity] = await allParts([
    pullSecurity(ctx, serverId, members, report, priority),
    pullProfile(ctx, serverId, report, priority),
    readAccountActivity(ctx, serverId, 1, report, priority),
  ]);
  return [...security, ...(profile ? [PROFILE_PART] : []), ...(activity ? [ACTIVITY_PART] : [])];
}

/** Each member's security; a member the account no longer has loses theirs. Resolves with the parts that arrived. */
async function pullSecurity(
  ctx: PullContext,
  serverId: number,
  members: readonly MemberRole[],
  report: PullReport,
  priority: Priority,
): Promise<string[]> {
  const answers = await allParts(
    members.map((member) =>
      fetchParsed(
        ctx,
        report,
        { api: 'v0', method: 'GET', path: `/accounts/${serverId}/${member}/security`, priority },
        (data) => parseWire(MemberSecurity, data, 'member security'),
      ),
    ),
  );
  const now = ctx.now();
  const rows = rowsOf(answers, (answer, i) => memberSecurityRow(answer, serverId, members[i]!, now));
  const failed = new Set(members.filter((_, i) => answers[i] === null));
  await storeList(report, ctx.db.memberSecurity, rows, {
    scope: (t) => t.where('accountServerId').equals(serverId),
    covers: (row) => !failed.has(row.member),
  });
  return members.filter((m) => !failed.has(m)).map(securityPart);
}

async function pullProfile(
  ctx: PullContext,
  serverId: number,
  report: PullReport,
  priority: Priority,
): Promise<boolean> {
  const path = `/accounts/${serverId}/profile`;
  const values = await fetchArray(ctx, report, { api: 'v2', method: 'GET', path, priority });
  if (!values) return false;
  const now = ctx.now();
  await storeList(
    report,
    ctx.db.profileValues,
    rowsOf(values, (value) => profileValueRow(value, serverId, now)),
    { scope: (t) => t.where('accountServerId').equals(serverId) },
  );
  return true;
}

async function readAccountActivity(
  ctx: PullContext,
  serverId: number,
  pages: number,
  report: PullReport,
  priority: Priority = 'background',
): Promise<boolean> {
  const spec = activitySpec(ctx, serverId, priority);
  const list = await readList(ctx, report, spec, { pages });
  if (!list) return false;
  const now = ctx.now();
  const rows = rowsOf(list.items, (item) => accountActivityRow(item, serverId, now));
  // Newest first: a part read speaks for every row after its oldest (that second's others may
  // be on the next page).
  const oldest = rows.at(-1)?.createdAt ?? '';
  await storeList(report, ctx.db.accountActivity, rows, {
    scope: (t) => t.where('accountServerId').equals(serverId),
    ...(list.complete ? {} : { covers: (row) => row.createdAt > oldest }),
  });
  return true;
}

/** An account's activity list (version 2), newest first, of one type when asked. */
function activitySpec(ctx: PullContext, serverId: number, priority: Priority, type?: string): ListSpec {
  return {
    name: 'AccountActivity',
    api: 'v2',
    path: `/accounts/${serverId}/activity`,
    query: { sort: '-created_at', ...(type ? { type } : {}) },
    priority,
    pageSize: namedPageSize(ctx.db, 'activity'),
  };
}

/**
 * The next older page of an account's activity (of one type, when the screen filters by it): right
 * below the entries of it stored here (paging.ts `readOlderPage`), added to them (nothing is
 * removed). The account pull brings only the newest page. `olderEnd`: nothing older is left.
 */
export async function pullOlderAccountActivity(
  ctx: PullContext,
  localId: string,
  options: { type?: string; priority?: Priority } = {},
): Promise<PullReport> {
  return pullOfAccount(
    ctx,
    localId,
    async (account, report) => {
      const held = await heldEntries((window) =>
        accountActivity(ctx.db, localId, { type: options.type, ...window }),
      );
      const spec = activitySpec(ctx, account.serverId, options.priority ?? 'interactive', options.type);
      const stamp = (item: unknown) => readWire(AccountActivity, item)?.created_at || null;
      const older = await readOlderPage(ctx, report, spec, held, stamp);
      if (!older) return;
      const now = ctx.now();
      await storeList(
        report,
        ctx.db.accountActivity,
        rowsOf(older.items, (i) => accountActivityRow(i, account.serverId, now)),
      );
      if (older.end) report.olderEnd = true;
    },
    { olderEnd: true },
  );
}
