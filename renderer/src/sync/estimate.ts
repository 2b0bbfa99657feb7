// How long the households still to pull will take: their requests left, divided by the request
// budget the transport keeps to (the platform's limit, 60 a minute). The budget, not the network,
// sets the pace of a whole pull, so this is an honest estimate, said in round words.

import type { HouseholdStep } from './coordinator/state.ts';

/** Requests the households still need: all of a waiting one's, the rest of the one under way. */
export function requestsLeft(households: readonly HouseholdStep[]): number {
  return households
    .filter((h) => h.state === 'waiting' || h.state === 'getting')
    .reduce((n, h) => n + Math.max(0, h.total - h.done), 0);
}

/** Milliseconds those requests take at `perMinute` requests a minute. */
export function msLeft(requests: number, perMinute: number): number {
  return requests <= 0 ? 0 : Math.ceil((requests / perMinute) * 60_000);
}

/** "about 2 minutes left", "less than a minute left"; null when nothing is left. */
export function timeLeftWords(ms: number): string | null {
  if (ms <= 0) return null;
  if (ms < 60_000) return 'less than a minute left';
  const minutes = Math.round(ms / 60_000);
  return `about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} left`;
}

/** The households' time left in words, at the budget: what the progress lists show. */
export function householdsTimeLeft(households: readonly HouseholdStep[], perMinute: number): string | null {
  return timeLeftWords(msLeft(requestsLeft(households), perMinute));
}
