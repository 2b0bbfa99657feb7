// Which token sets the connection profile still allows: a set is bound to the server and client
// that issued it and to the origins of the interfaces it was issued for, and is sent nowhere else.

import type { ApiName } from '@shared/api/request.ts';
import type { SignInTarget } from '@shared/auth.ts';
import { sharesSignIn, type ConnectionProfile } from '@shared/settings.ts';
import { SignInRefused } from './auth-server.ts';
import { APIS, type Binding, type Grant } from './grant.ts';

export const trimSlashes = (url: string) => url.trim().replace(/\/+$/, '');

/** The origin of an interface's base address in the profile; null when it is no valid address. */
export function baseOriginOf(profile: ConnectionProfile, api: ApiName): string | null {
  try {
    return new URL(profile[api].baseUrl).origin;
  } catch {
    return null;
  }
}

/** True when the profile still names the server, client and base origin a token set is bound to. */
export function boundHere(binding: Binding, profile: ConnectionProfile, api: ApiName): boolean {
  const origin = binding.baseOrigins[api];
  return (
    binding.authUrl === trimSlashes(profile[api].authUrl) &&
    binding.clientId === profile.clientId &&
    origin !== undefined &&
    origin === baseOriginOf(profile, api)
  );
}

/** The interfaces a sign-in covers: both when they share the auth server, whatever the target. */
export function coveredApis(target: SignInTarget, profile: ConnectionProfile): ApiName[] {
  if (sharesSignIn(profile)) return [...APIS];
  if (target === 'both') {
    throw new SignInRefused(
      'The two interfaces use different sign-in servers: sign in to each one separately (version 2, then version 0.0.1).',
    );
  }
  return [target];
}

/** What the token set of a sign-in to these interfaces will be bound to, as the profile is now. */
export function bindingFor(profile: ConnectionProfile, apis: readonly ApiName[]): Binding {
  const authUrl = trimSlashes(profile[apis[0] as ApiName].authUrl);
  const binding: Binding = { authUrl, clientId: profile.clientId, baseOrigins: {} };
  for (const api of apis) binding.baseOrigins[api] = requireBaseOrigin(profile, api);
  return binding;
}

function requireBaseOrigin(profile: ConnectionProfile, api: ApiName): string {
  const origin = baseOriginOf(profile, api);
  if (origin === null || origin === 'null') {
    throw new SignInRefused(
      `The address of interface ${api} “${profile[api].baseUrl}” is not a valid address. Correct it in the connection settings.`,
    );
  }
  return origin;
}

/**
 * Both interfaces now share one server: the token set one holds covers the other too, but only
 * when that interface's base is on an origin the token is already sent to. A new origin would
 * receive a token the user never signed in to send there. Returns the widened set and every
 * interface that holds it then, or null when nothing widens.
 */
export function widenedGrant(
  grants: Readonly<Record<ApiName, Grant | null>>,
  profile: ConnectionProfile,
): { grant: Grant; holders: ApiName[] } | null {
  const held = grants.v2 ?? grants.v0;
  if (!held) return null;
  const known = Object.values(held.baseOrigins);
  const added: Partial<Record<ApiName, string>> = {};
  for (const api of APIS) {
    const origin = baseOriginOf(profile, api);
    if (!grants[api] && origin !== null && known.includes(origin)) added[api] = origin;
  }
  if (Object.keys(added).length === 0) return null;
  const grant: Grant = { ...held, baseOrigins: { ...held.baseOrigins, ...added } };
  const holders = APIS.filter((api) => grants[api] === held || added[api] !== undefined);
  return { grant, holders };
}
