// Whose local data a store holds (DESIGN.md §4): one platform, one user, one team. Each such
// identity has a database of its own, named from a hash of the platform and user (never an email)
// and the team's id; the app opens only the signed-in user's store for their current team, so
// another user's or another team's records can never be shown, counted or sent.

import type { StoreIdentity } from '@shared/auth.ts';
import type { AdvisorDb } from '../db.ts';

// The main process keeps the identity with the tokens, so the type is shared.
export type { StoreIdentity };

/** Every identity's database starts with this; the one store of earlier versions is named it alone. */
export const STORE_PREFIX = 'advisor-desk';

/** The `meta` row in which a store records its identity when it is first opened. */
export const IDENTITY_META_KEY = 'identity';

const HEX = /^[0-9a-f]{32}$/;

/**
 * The platform and user as a key: SHA-256 of the version 2 interface's base address (its origin
 * and path, no trailing slash) and the user's id on the platform (`platformUserId`), 32 hex
 * characters. Only the hash names a store: the email, where it stands in for the id, never does.
 */
export async function userKey(platformBase: string, userId: number | string): Promise<string> {
  const base = platformBase.trim().replace(/\/+$/, '');
  const who = typeof userId === 'number' ? String(userId) : `email:${userId.trim().toLowerCase()}`;
  const bytes = new TextEncoder().encode(`${base}\n${who}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * What identifies a user on the platform, from its user resource: its `id` where the answer
 * carries one, else its email. Neither document lists an `id` in the User resource (nor does the
 * sandbox send one), and the email is what a user signs in with, one per user; null when the
 * answer has neither.
 */
export function platformUserId(user: unknown): number | string | null {
  if (typeof user !== 'object' || user === null) return null;
  const { id, email } = user as { id?: unknown; email?: unknown };
  if (typeof id === 'number' && Number.isSafeInteger(id)) return id;
  if (typeof email === 'string' && email.trim() !== '') return email.trim().toLowerCase();
  return null;
}

/** The database name of one identity: `advisor-desk-<user key>-t<team id>`. */
export function storeName(identity: StoreIdentity): string {
  if (!HEX.test(identity.user)) throw new Error('A store is named for a user key of 32 hex characters.');
  if (!Number.isSafeInteger(identity.team) || identity.team < 0)
    throw new Error('A store is named for a team id, a whole number.');
  return `${userStorePrefix(identity.user)}${identity.team}`;
}

/** The names of every team store of one user start with this. */
export function userStorePrefix(user: string): string {
  return `${STORE_PREFIX}-${user}-t`;
}

export function sameIdentity(
  a: StoreIdentity | null | undefined,
  b: StoreIdentity | null | undefined,
): boolean {
  return Boolean(a && b && a.user === b.user && a.team === b.team);
}

/** The identity a store recorded when it was first opened, or null (a store of an earlier version). */
export async function readStoreIdentity(db: AdvisorDb): Promise<StoreIdentity | null> {
  const row = await db.meta.get(IDENTITY_META_KEY);
  const value = row?.value as Partial<StoreIdentity> | undefined;
  return value && typeof value.user === 'string' && typeof value.team === 'number'
    ? { user: value.user, team: value.team }
    : null;
}
