// What this computer holds of an account beyond its row in the list: which parts of an account
// pull (each member's details, every section, the read-only extras) have arrived at least once.
// A part never pulled is unknown, not empty: the screens say "Not downloaded yet" for it.

import { SECTIONS, sectionKey, type MemberRole } from '@shared/sections.ts';
import type { AdvisorDb } from './db.ts';
import type { AccountRow } from './model.ts';

/** The read-only extras of an account pull (sync/pull/account-extras.ts), by part key. */
export const securityPart = (member: MemberRole): string => `security:${member}`;
export const PROFILE_PART = 'profile';
export const ACTIVITY_PART = 'activity';

/**
 * Every part of an account with these members, as keys: `details:client`, the sections' storage
 * keys (`assets`, `income:coclient`), `security:client`, `profile`, `activity`.
 */
export function accountPartKeys(members: readonly MemberRole[]): string[] {
  return [
    ...members.map((m) => `details:${m}`),
    ...SECTIONS.flatMap((s) => (s.perMember ? members.map((m) => sectionKey(s, m)) : [sectionKey(s)])),
    ...members.map(securityPart),
    PROFILE_PART,
    ACTIVITY_PART,
  ];
}

/** The members of an account as the platform has them: the client, and the co-client when there is one. */
export const membersOf = (meta: { coclientId: unknown }): MemberRole[] =>
  meta.coclientId !== null ? ['client', 'coclient'] : ['client'];

export type CoverageState = 'complete' | 'partial' | 'none';

export interface AccountCoverage {
  /** Every part here, some of them, or none (only the list's row). */
  state: CoverageState;
  /** Keys of the parts the platform has that never arrived here. */
  missing: string[];
}

export const COMPLETE: AccountCoverage = { state: 'complete', missing: [] };

/**
 * What of the account is here. An account not on the platform yet has nothing there to get; a
 * member only added here (no co-client on the platform yet) neither. An account pulled in full
 * before parts were recorded (`pulledAt` set, no `parts`) has every part.
 */
export function accountCoverage(account: AccountRow | null | undefined): AccountCoverage {
  if (!account || typeof account.serverId !== 'number') return COMPLETE;
  if (!account.parts && account.pulledAt !== null) return COMPLETE;
  const all = accountPartKeys(membersOf(account.meta));
  const here = account.parts ?? {};
  const missing = all.filter((key) => here[key] === undefined);
  const state = missing.length === 0 ? 'complete' : missing.length === all.length ? 'none' : 'partial';
  return { state, missing };
}

/** Every part of the household is on this computer: it can be opened in full offline. */
export const fullyHere = (account: AccountRow): boolean => accountCoverage(account).state === 'complete';

/**
 * Records the parts of an account that arrived in a pull (at `now`). Parts of a member the
 * platform no longer has are forgotten: a co-client added again later is someone new.
 */
export async function recordParts(
  db: AdvisorDb,
  accountId: string,
  arrived: readonly string[],
  members: readonly MemberRole[],
  now: number,
): Promise<void> {
  await db.transaction('rw', db.accounts, async () => {
    const row = await db.accounts.get(accountId);
    if (!row) return;
    const known = new Set(accountPartKeys(members));
    const parts = Object.fromEntries(Object.entries(row.parts ?? {}).filter(([key]) => known.has(key)));
    for (const key of arrived) parts[key] = now;
    await db.accounts.update(accountId, { parts });
  });
}

/**
 * The parts of an account made on this computer: none of it was on the platform before, so
 * nothing of it is missing here, whoever its members turn out to be.
 */
export function madeHere(now: number): Record<string, number> {
  return Object.fromEntries(accountPartKeys(['client', 'coclient']).map((key) => [key, now]));
}
