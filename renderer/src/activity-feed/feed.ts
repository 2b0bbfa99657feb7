// What the Activity screens show of the local store: the advisor's feed (`userActivity` rows) and
// an account's activity as entries in the advisor's words, the account each entry is about, and
// since when the feed on this computer is current ("as of" its last pull).

import { SECTION_FORMS } from '@shared/section-forms/build.ts';
import type { AdvisorDb } from '../data/db.ts';
import { accountsWithTerms } from '../data/account-index/index.ts';
import type { AccountActivityRow, AccountRow, UserActivityRow } from '../data/model.ts';
import { platformIcon } from '../common/icons.ts';
import { accountActivity, userActivity } from '../data/queries/index.ts';
import { USER_ACTIVITY_STATE, type UserActivityState } from '../sync/pull/feed.ts';
import { PAGE_SIZES_STATE } from '../sync/pull/paging.ts';
import { activityType, type ActivityTypeInfo } from './activity-types.ts';

export interface ActivityEntry {
  id: number;
  kind: ActivityTypeInfo;
  /** What happened, as the platform described it (the type's name when it sent none). */
  description: string;
  /** When, in the advisor's words and time zone. */
  when: string;
  /** The local id of the account it is about, when this computer can tell which one. */
  accountId: string | null;
  /**
   * What the entry's options say beside its description, in words: a questionnaire's template,
   * who did it and for which member (`“Client intake” · by Alex Morgan · for Bob Tester`).
   */
  details?: string[];
}

export interface EntryPage {
  entries: ActivityEntry[];
  /** Entries the store holds for the query, beyond those read. */
  total: number;
}

/** `2026-03-14 09:30:00` (UTC, as both documents write times) in the user's words and time zone. */
export function activityTime(stamp: string): string {
  const ms = Date.parse(stamp.replace(' ', 'T') + (/Z|[+-]\d\d:?\d\d$/.test(stamp) ? '' : 'Z'));
  if (Number.isNaN(ms)) return stamp;
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The newest `limit` entries of the feed, of one type or every type, without their accounts
 * (`withAccounts` adds them): a screen reads this live, and the accounts apart, since Dexie's
 * cache of live reads kept answering the account table as it was when the screen opened.
 */
export async function feedPage(db: AdvisorDb, q: { type?: string; limit: number }): Promise<EntryPage> {
  const page = await userActivity(db, { type: q.type, limit: q.limit });
  return { entries: page.items.map(feedEntry), total: page.total };
}

/** The entries, each with the account its description names where this computer holds it. */
export async function withAccounts(db: AdvisorDb, page: EntryPage): Promise<EntryPage> {
  const accounts = await accountsNamed(
    db,
    page.entries.map((e) => e.description),
  );
  return {
    ...page,
    entries: page.entries.map((e) => ({ ...e, accountId: e.accountId ?? accounts.find(e.description) })),
  };
}

/** The sections' names by the platform's type names (`ExpenseFixed` → "Fixed expenses"). */
const SECTION_TITLES = new Map(SECTION_FORMS.map((f) => [f.entity, f.title] as const));
const TYPE_NAMED = new RegExp(`\\b(${[...SECTION_TITLES.keys()].join('|')})(?= data\\b)`, 'g');

/**
 * A description in the advisor's words: the platform names a section by its type
 * ("ExpenseFixed data of Ann Tester was updated"), the app by its title, as the section's heading
 * does ("Fixed expenses data of Ann Tester was updated").
 */
export function inAdvisorWords(description: string): string {
  return description.replace(TYPE_NAMED, (type) => SECTION_TITLES.get(type) ?? type);
}

function descriptionOf(row: UserActivityRow): string {
  return inAdvisorWords(text(row.server.description));
}

function feedEntry(row: UserActivityRow): ActivityEntry {
  const kind = activityType(row.type);
  const description = descriptionOf(row);
  return {
    id: row.id,
    kind,
    description: description || text(row.server.title) || kind.label,
    when: activityTime(row.createdAt),
    accountId: null,
  };
}

/** The newest `limit` entries of an account's activity (version 2), of one type or every type. */
export async function accountPage(
  db: AdvisorDb,
  accountId: string,
  q: { type?: string; limit: number },
): Promise<EntryPage> {
  const page = await accountActivity(db, accountId, { type: q.type, limit: q.limit });
  return { entries: page.items.map((row) => accountEntry(row, accountId)), total: page.total };
}

function accountEntry(row: AccountActivityRow, accountId: string): ActivityEntry {
  const a = row.server;
  const kind = activityType(row.type, platformIcon(a.icon));
  const author = text(a.options?.author);
  const description = inAdvisorWords(text(a.description));
  const details = questionnaireDetails(a.options ?? {});
  // The author said once: descriptions often name them already.
  const by = author && !details && !description.includes(author) ? ` · ${author}` : '';
  return {
    id: row.id,
    kind,
    description: description || kind.label,
    when: activityTime(row.createdAt) + by,
    accountId,
    ...(details ? { details } : {}),
  };
}

/**
 * An entry about a questionnaire (its options name a `template`: `engagement.created` and the
 * like): the template, its author and the member, as the options give them, whatever the
 * description says.
 */
function questionnaireDetails(options: Record<string, unknown>): string[] | undefined {
  const template = text(options.template);
  if (!template) return undefined;
  const author = text(options.author);
  const member = text(options.name);
  return [`“${template}”`, ...(author ? [`by ${author}`] : []), ...(member ? [`for ${member}`] : [])];
}

/** The activity types an account's rows hold (the filter offers them beside the known ones). */
export async function accountTypesHeld(db: AdvisorDb, accountId: string): Promise<string[]> {
  const page = await accountActivity(db, accountId, { limit: 10_000 });
  return [...new Set(page.items.map((r) => r.type))];
}

/**
 * Whether the platform may hold activity of the account older than what is stored: the account
 * pull brings its newest page only, so fewer entries than that page's size were the whole list.
 */
export async function accountActivityMayGoOn(db: AdvisorDb, accountId: string): Promise<boolean> {
  const account = await db.accounts.get(accountId);
  if (typeof account?.serverId !== 'number') return false;
  const { total } = await accountActivity(db, accountId, { limit: 0 });
  const sizes = (await db.meta.get(PAGE_SIZES_STATE))?.value as Record<string, unknown> | undefined;
  const size = sizes?.activity;
  return typeof size !== 'number' || total >= size;
}

/** When the feed on this computer was last pulled (ms), or null when it never was. */
export async function feedPulledAt(db: AdvisorDb): Promise<number | null> {
  const state = (await db.meta.get(USER_ACTIVITY_STATE))?.value as UserActivityState | undefined;
  return state?.pulledAt ?? null;
}

// ---- which account an entry is about -----------------------------------------------------------

/**
 * The feed names no account id (the document's Activity has none): an entry is about the account
 * whose client's or co-client's full name its description names ("“Risk profile” was sent to
 * Jonas Lindqvist"). Only accounts on this computer are known; when two accounts with different
 * names match, the longer name wins, and when the same name belongs to two accounts the entry
 * links to none rather than to the wrong one.
 */
export interface AccountNames {
  find(description: string): string | null;
}

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? [];

export async function accountsNamed(db: AdvisorDb, descriptions: readonly string[]): Promise<AccountNames> {
  const asked = [...new Set(descriptions.flatMap(words))];
  const rows = asked.length ? await accountsWithTerms(db, asked) : [];
  const names = rows.flatMap((row) =>
    memberNames(row).map((name) => ({ name: name.toLowerCase(), id: row.id })),
  );
  return {
    find(description) {
      const said = description.toLowerCase();
      const matches = names.filter((n) => n.name && containsName(said, n.name));
      const longest = Math.max(0, ...matches.map((m) => m.name.length));
      const ids = new Set(matches.filter((m) => m.name.length === longest).map((m) => m.id));
      return ids.size === 1 ? [...ids][0]! : null;
    },
  };
}

/** Whole words only: "Ann Lee" is not in "Joann Leeds". */
function containsName(said: string, name: string): boolean {
  let at = said.indexOf(name);
  while (at >= 0) {
    const before = said[at - 1] ?? ' ';
    const after = said[at + name.length] ?? ' ';
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
    at = said.indexOf(name, at + 1);
  }
  return false;
}

function memberNames(row: AccountRow): string[] {
  const f = row.fields;
  return ['client', 'coclient']
    .map((m) => [text(f[`${m}.first_name`]), text(f[`${m}.last_name`])].filter(Boolean).join(' '))
    .filter((name) => name.includes(' '));
}
