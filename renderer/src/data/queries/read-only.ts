// The read-only records as the screens read them: the advisor's statistics, a member's security,
// profile values, account activity and the feed, forms and reports. Rows of an account carry its
// server id (model.ts): these take the local account id, and give nothing for an account not on
// the server yet.

import Dexie from 'dexie';
import type { AdvisorDb } from '../db.ts';
import type {
  AccountActivityRow,
  FormRow,
  MemberSecurityRow,
  ProfileValueRow,
  ReportRow,
  UserActivityRow,
  UserStats,
} from '../model.ts';
import { compareValues, indexPage, type Page } from './order.ts';
import { accountServerId } from './records.ts';

/** The advisor's statistics in `meta` (by `PullEngine.pullStats`). */
export const STATS_KEY = 'user.stats';

export interface StatsEntry {
  pulledAt: number;
  /** The range asked for; null where the platform's default was used. */
  start: string | null;
  end: string | null;
  data: UserStats;
}

export async function userStats(db: AdvisorDb): Promise<StatsEntry | undefined> {
  return (await db.meta.get(STATS_KEY))?.value as StatsEntry | undefined;
}

/** The form-access security of an account's members, by member. */
export async function memberSecurity(
  db: AdvisorDb,
  accountId: string,
): Promise<Partial<Record<MemberSecurityRow['member'], MemberSecurityRow>>> {
  const serverId = await accountServerId(db, accountId);
  if (serverId === null) return {};
  const rows = await db.memberSecurity.where('accountServerId').equals(serverId).toArray();
  return Object.fromEntries(rows.map((r) => [r.member, r]));
}

/** An account's profile values, or one member's (`memberId`, the member's server id). */
export async function profileValues(
  db: AdvisorDb,
  accountId: string,
  options: { memberId?: number } = {},
): Promise<ProfileValueRow[]> {
  const serverId = await accountServerId(db, accountId);
  if (serverId === null) return [];
  if (options.memberId === undefined)
    return db.profileValues.where('accountServerId').equals(serverId).toArray();
  return db.profileValues.where('[accountServerId+memberId]').equals([serverId, options.memberId]).toArray();
}

export interface ActivityQuery {
  /** An activity type (`engagement.created` …); the types come with `CONFIG_KEYS.activities`. */
  type?: string;
  /** Default `-created_at`, as the interface. */
  sort?: 'created_at' | '-created_at';
  offset?: number;
  /** Default 50, as the interface. */
  limit?: number;
}

/** A page of an account's activity, by time, optionally of one type. Equal times follow the id. */
export async function accountActivity(
  db: AdvisorDb,
  accountId: string,
  q: ActivityQuery = {},
): Promise<Page<AccountActivityRow>> {
  const serverId = await accountServerId(db, accountId);
  if (serverId === null) return { items: [], total: 0 };
  const range =
    q.type === undefined
      ? db.accountActivity
          .where('[accountServerId+createdAt]')
          .between([serverId, Dexie.minKey], [serverId, Dexie.maxKey])
      : db.accountActivity
          .where('[accountServerId+type+createdAt]')
          .between([serverId, q.type, Dexie.minKey], [serverId, q.type, Dexie.maxKey]);
  return indexPage(range, q.sort !== 'created_at', q);
}

/** A page of the advisor's feed, newest first, optionally of one type. */
export async function userActivity(
  db: AdvisorDb,
  q: Omit<ActivityQuery, 'sort'> = {},
): Promise<Page<UserActivityRow>> {
  const range =
    q.type === undefined
      ? db.userActivity.orderBy('createdAt')
      : db.userActivity.where('[type+createdAt]').between([q.type, Dexie.minKey], [q.type, Dexie.maxKey]);
  return indexPage(range, true, q);
}

/** Forms, newest first: an account's or every one pulled, optionally in one status. */
export async function listForms(
  db: AdvisorDb,
  q: { accountId?: string; status?: string } = {},
): Promise<FormRow[]> {
  const account = q.accountId === undefined ? undefined : await accountServerId(db, q.accountId);
  if (account === null) return [];
  const { forms } = db;
  const rows =
    account !== undefined
      ? q.status === undefined
        ? await forms.where('accountServerId').equals(account).toArray()
        : await forms.where('[accountServerId+status]').equals([account, q.status]).toArray()
      : q.status === undefined
        ? await forms.toArray()
        : await forms.where('status').equals(q.status).toArray();
  return rows.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}

/** The user's reports, by title. */
export async function listReports(db: AdvisorDb): Promise<ReportRow[]> {
  const rows = await db.reports.toArray();
  return rows.sort((a, b) => compareValues(a.server.title ?? '', b.server.title ?? ''));
}
