// Members' form PINs, in memory only: never written to disk (no table holds one). A PIN is read
// from the platform when the advisor asks to see it, or arrives with a PIN reset's answer; it is
// shown once and forgotten then, and every PIN is forgotten on sign-out and on a team switch.

import { readWire } from '@shared/wire/parse.ts';
import { MemberSecurity } from '@shared/wire/v0/member.ts';
import type { MemberRole } from '@shared/sections.ts';
import type { Send } from './send.ts';
import { securityRequest } from './requests.ts';

const pins = new Map<string, string>();
const keyOf = (accountServerId: number, member: MemberRole) => `${accountServerId}:${member}`;

/** The PIN a security answer carries, as text; null when it carries none. */
export function pinOf(payload: unknown): string | null {
  const pin = readWire(MemberSecurity, payload)?.pin;
  return pin === null || pin === undefined || pin === '' ? null : String(pin);
}

/** Keeps the PIN a reset's answer carries until it is shown (the push calls this). */
export function rememberPin(accountServerId: number, member: MemberRole, payload: unknown): void {
  const pin = pinOf(payload);
  if (pin !== null) pins.set(keyOf(accountServerId, member), pin);
}

/** Forgets every PIN: on sign-out, on a team switch, on another user. */
export function forgetPins(): void {
  pins.clear();
}

/** What asking for a PIN came to: the PIN, or why there is none to show (in plain words). */
export type PinAnswer =
  { ok: true; pin: string } | { ok: false; reason: 'unreachable' | 'refused'; message: string };

export const UNREACHABLE_MESSAGE = 'The PIN can be shown when the platform can be reached.';

/**
 * The member's PIN, for the advisor who asked to see it: the one a reset just brought, taken
 * once; otherwise read from the platform now (interactive: the advisor waits for it). Nothing
 * is kept: the next ask reads it again, so the PIN shown is the one in force.
 */
export async function askPin(send: Send, accountServerId: number, member: MemberRole): Promise<PinAnswer> {
  const key = keyOf(accountServerId, member);
  const kept = pins.get(key);
  if (kept !== undefined) {
    pins.delete(key);
    return { ok: true, pin: kept };
  }
  let res;
  try {
    res = await send({ ...securityRequest(accountServerId, member), priority: 'interactive' });
  } catch {
    return { ok: false, reason: 'unreachable', message: UNREACHABLE_MESSAGE };
  }
  if (!res.ok) {
    if (res.kind === 'network' || res.kind === 'timeout' || res.kind === 'unavailable')
      return { ok: false, reason: 'unreachable', message: UNREACHABLE_MESSAGE };
    return { ok: false, reason: 'refused', message: `The PIN could not be read: ${res.message}` };
  }
  const pin = pinOf(res.data);
  if (pin === null)
    return { ok: false, reason: 'refused', message: 'The platform gave no PIN for this member.' };
  return { ok: true, pin };
}
