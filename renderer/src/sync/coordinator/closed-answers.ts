// After a questionnaire is closed its answers go into the account, which is pulled again: which of
// the account's parts (sections, members' details, profile) that pull changed, worked out by
// comparing the platform's snapshots held here before with those after, and kept for the workspace.

import type { AdvisorDb } from '../../data/db.ts';
import { PROFILE_PART, accountCoverage, accountPartKeys, membersOf } from '../../data/coverage.ts';

/** What the workspace says after a close: the questionnaire and the parts of the account it changed. */
export interface ClosedAnswers {
  engagementId: string;
  /** The questionnaire's title as this computer has it. */
  title: string;
  /** Local time (ms) the pull after the close ended. */
  at: number;
  /**
   * Keys of the parts whose platform data changed (data/coverage.ts keys: `assets`,
   * `details:coclient`, `profile` …); null when none of the account was here before the close,
   * so what changed cannot be told.
   */
  parts: string[] | null;
}

export const closedAnswersKey = (accountId: string): string => `closedAnswers:${accountId}`;

/** The parts compared: what a close can write into; activity and form access are no answers. */
const ANSWER_PARTS = (key: string) => !key.startsWith('security:') && key !== 'activity';

/**
 * The account's platform data held here, one text per part held: the server snapshots of its
 * items and single records, and its profile values. Local edits not sent yet are not the
 * platform's, so they are not compared.
 */
export async function answerDigest(db: AdvisorDb, accountId: string): Promise<Map<string, string>> {
  const account = await db.accounts.get(accountId);
  if (!account) return new Map();
  const missing = new Set(accountCoverage(account).missing);
  const held = accountPartKeys(membersOf(account.meta)).filter((k) => ANSWER_PARTS(k) && !missing.has(k));
  const texts = new Map<string, string[]>(held.map((k) => [k, []]));
  const add = (key: string, text: string) => texts.get(key)?.push(text);
  for (const row of await db.sectionItems.where('accountId').equals(accountId).toArray())
    if (row.server && !row.deletedOnServer) add(row.section, JSON.stringify([row.serverId, row.server]));
  for (const row of await db.singles.where('accountId').equals(accountId).toArray())
    if (row.server && !row.deletedOnServer) add(row.key, JSON.stringify(row.server));
  if (typeof account.serverId === 'number')
    for (const row of await db.profileValues.where('accountServerId').equals(account.serverId).toArray())
      add(PROFILE_PART, JSON.stringify(row.server));
  return new Map([...texts].map(([key, list]) => [key, list.sort().join('\n')]));
}

/**
 * The parts held both before and after whose data differ, in the order the account lists its
 * parts; null when nothing was held before.
 */
export function changedParts(before: Map<string, string>, after: Map<string, string>): string[] | null {
  if (before.size === 0) return null;
  return [...after.keys()].filter((key) => before.has(key) && before.get(key) !== after.get(key));
}

/** Keeps what the close changed, for every window's workspace of the account to say. */
export async function recordClosedAnswers(
  db: AdvisorDb,
  accountId: string,
  engagementId: string,
  parts: string[] | null,
  at: number,
): Promise<void> {
  const engagement = await db.engagements.get(engagementId);
  const value: ClosedAnswers = {
    engagementId,
    title: engagement?.server.title ?? 'A questionnaire',
    at,
    parts,
  };
  await db.meta.put({ key: closedAnswersKey(accountId), value });
}

/** What the workspace says, or nothing (the advisor has read and dismissed it). */
export async function readClosedAnswers(db: AdvisorDb, accountId: string): Promise<ClosedAnswers | null> {
  return ((await db.meta.get(closedAnswersKey(accountId)))?.value as ClosedAnswers | undefined) ?? null;
}

export async function dismissClosedAnswers(db: AdvisorDb, accountId: string): Promise<void> {
  await db.meta.delete(closedAnswersKey(accountId));
}
