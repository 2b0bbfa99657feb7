// A saved profile that moves the app to other servers (a sign-in server or an interface's base
// address), or a new update address: which changes do, and the words that put one to the advisor
// before it is saved.

import type { ApiName } from '@shared/api/request.ts';
import type { ConnectionProfile } from '@shared/settings.ts';

/** The labels of the four addresses, as the profile form shows them. */
export const ADDRESS_LABELS = {
  'v2.baseUrl': 'Version 2 address',
  'v2.authUrl': 'Version 2 sign-in server',
  'v0.baseUrl': 'Version 0.0.1 address',
  'v0.authUrl': 'Version 0.0.1 sign-in server',
  updateFeedUrl: 'Update address',
} as const;

export type AddressField = keyof typeof ADDRESS_LABELS;

/** One address the save would change. */
export interface AddressMove {
  field: AddressField;
  from: string;
  to: string;
}

export interface AddressChange {
  moves: AddressMove[];
  /** The profile after the change: where the next sign-in and the requests go. */
  next: ConnectionProfile;
  /** The stored client secret is removed by this save (it belongs to the old sign-in server). */
  dropsClientSecret: boolean;
}

/**
 * Asks the advisor whether to save a change of addresses; false keeps everything as it was.
 * Electron asks in a native dialog; the browser preview decides for itself and says so.
 */
export type ConfirmAddressChange = (change: AddressChange) => Promise<boolean>;

const APIS: ApiName[] = ['v2', 'v0'];
const FIELDS = ['authUrl', 'baseUrl'] as const;

/**
 * The addresses a save would move, or null when it moves none: the name, the client id, the scope
 * and the request budget send nothing to another server, so they need no confirmation.
 */
export function addressChange(
  saved: ConnectionProfile,
  next: ConnectionProfile,
  dropsClientSecret = false,
): AddressChange | null {
  const moves: AddressMove[] = [];
  for (const api of APIS)
    for (const field of FIELDS)
      if (saved[api][field] !== next[api][field])
        moves.push({ field: `${api}.${field}`, from: saved[api][field], to: next[api][field] });
  return moves.length === 0 ? null : { moves, next, dropsClientSecret };
}

/**
 * A new update address, or null when the save needs no question: the same address, or none
 * (turning updates off fetches nothing). The app installs what that address serves, so whoever
 * sets it chooses the app's next code: the renderer alone must never decide it.
 */
export function updateFeedChange(
  saved: string | null,
  next: string | null,
  profile: ConnectionProfile,
): AddressChange | null {
  if (next === null || next === saved) return null;
  return {
    moves: [{ field: 'updateFeedUrl', from: saved ?? 'none (updates off)', to: next }],
    next: profile,
    dropsClientSecret: false,
  };
}

/** The question as Electron's message box takes it; the answer 0 agrees. */
export interface AddressQuestion {
  type: 'warning';
  title: string;
  message: string;
  detail: string;
  buttons: [agree: string, cancel: string];
  defaultId: 1;
  cancelId: 1;
  noLink: true;
}

const API_NAMES: Record<ApiName, string> = { v2: 'version 2', v0: 'version 0.0.1' };

const originOf = (address: string): string | null => {
  try {
    return new URL(address).origin;
  } catch {
    return null;
  }
};

/**
 * The question, the addresses from and to, and what follows for each interface: its saved sign-in
 * is forgotten when its sign-in server or its base's server (origin) changes, since the tokens
 * must never be sent anywhere else; a new path on the same server keeps it.
 */
export function describeAddressChange(change: AddressChange): AddressQuestion {
  const lines = change.moves.map((m) => `${ADDRESS_LABELS[m.field]}\n    from ${m.from}\n    to   ${m.to}`);
  if (change.moves.every((m) => m.field === 'updateFeedUrl'))
    return {
      type: 'warning',
      title: 'Updates',
      message: 'Take updates from this address?',
      detail: `${lines.join('\n')}\n\nThe app downloads updates from this address and installs one when you quit, once its signature is verified. Agree only to an address your firm gave you.`,
      buttons: ['Use this address', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
      noLink: true,
    };
  const forgotten: ApiName[] = [];
  const kept: ApiName[] = [];
  for (const api of APIS) {
    const moved = (field: 'authUrl' | 'baseUrl') => change.moves.find((m) => m.field === `${api}.${field}`);
    const auth = moved('authUrl');
    const base = moved('baseUrl');
    if (auth || (base && originOf(base.from) !== originOf(base.to))) forgotten.push(api);
    else if (base) kept.push(api);
  }
  const forget = (names: string, api: ApiName) =>
    `A sign-in saved for ${names} is forgotten; the next sign-in goes to ${change.next[api].authUrl}.`;
  // Both on one sign-in server: one sentence, as one sign-in covers both.
  const oneServer = forgotten.length === 2 && change.next.v2.authUrl === change.next.v0.authUrl;
  const follows = [
    ...(oneServer ? [forget('both interfaces', 'v2')] : forgotten.map((api) => forget(API_NAMES[api], api))),
    ...kept.map(
      (api) =>
        `Requests of ${API_NAMES[api]} go to the new address; a sign-in saved for it is kept (same server).`,
    ),
  ];
  if (change.dropsClientSecret)
    follows.push('The stored client secret is removed: enter the one issued for the new sign-in server.');
  return {
    type: 'warning',
    title: 'Connection profile',
    message: 'Change the platform addresses?',
    detail: `${lines.join('\n')}\n\n${follows.join('\n')}`,
    buttons: ['Change addresses', 'Cancel'],
    // Enter and Escape keep the addresses as they are: moving servers takes a deliberate click.
    defaultId: 1,
    cancelId: 1,
    noLink: true,
  };
}
