// How the app tells Offline from Platform unreachable: one rule for the connection indicator
// (renderer/src/common/connectivity.ts) and the sync state's sentence (sync/coordinator/state.ts).

import type { ApiResult } from './request.ts';

export type Connection = 'online' | 'offline' | 'unreachable';

/** What the app knows of its way to the platform. */
export interface Reach {
  /** What the system says (navigator.onLine and its events). */
  systemOnline: boolean;
  /**
   * The last request failed for want of a network (no route out, no name server: the transport's
   * `network: 'down'`). The system's word is not enough: it says "online" on a network with no way
   * out, and a browser's offline emulation may not reach a page loaded while offline.
   */
  noWayOut: boolean;
  /** The last request found no platform (a network failure, a timeout, a port that threw). */
  platformSilent: boolean;
}

/**
 * Offline when the system says so or the last failure found no network; unreachable when the
 * network is up and the platform does not answer; online otherwise.
 */
export function connectionOf({ systemOnline, noWayOut, platformSilent }: Reach): Connection {
  if (!systemOnline || noWayOut) return 'offline';
  return platformSilent ? 'unreachable' : 'online';
}

/**
 * What one answer shows of the way to the platform; `null` is a port that threw (no answer, and
 * nothing said why). Any answer, even a refusal, shows the platform is there.
 */
export function reachShownBy(result: ApiResult | null): Omit<Reach, 'systemOnline'> {
  if (result === null) return { noWayOut: false, platformSilent: true };
  if (result.ok) return { noWayOut: false, platformSilent: false };
  return {
    noWayOut: result.kind === 'network' && result.network === 'down',
    platformSilent: result.kind === 'network' || result.kind === 'timeout',
  };
}
