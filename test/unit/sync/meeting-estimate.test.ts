// The time a preparation for a meeting (or the background's queue) still takes: the requests left,
// from the counts account-data.ts documents (21 for a household, 25 with a co-client: the account,
// each member's details, the 16 sections of the 0.0.1 document, income and employment per member,
// each member's security, the profile and a page of activity), at the platform's 60 a minute.
// Every expected value below is worked out by hand from those numbers.

import { describe, expect, it } from 'vitest';
import { PUBLISHED_REQUESTS_PER_MINUTE, requestBudget, sandboxProfile } from '@shared/settings.ts';
import type { HouseholdStep } from '../../../renderer/src/sync/coordinator/index.ts';
import {
  householdsTimeLeft,
  msLeft,
  requestsLeft,
  timeLeftWords,
} from '../../../renderer/src/sync/estimate.ts';
import { accountPullRequests } from '../../../renderer/src/sync/pull/account-data.ts';

const ALONE = 21;
const WITH_COCLIENT = 25;

let n = 0;
function household(state: HouseholdStep['state'], total: number, done = 0): HouseholdStep {
  n++;
  return {
    accountId: `a${n}`,
    label: `Household ${n}`,
    purpose: 'meeting',
    state,
    done,
    total,
    reason: null,
  };
}

describe('the requests of one household', () => {
  it('are 21, and 25 with a co-client, as documented', () => {
    expect(accountPullRequests(['client'])).toBe(ALONE);
    expect(accountPullRequests(['client', 'coclient'])).toBe(WITH_COCLIENT);
  });
});

describe('the budget divided by', () => {
  it('is the profile’s, as the transport keeps to it; the published 60 when the value is broken', () => {
    expect(PUBLISHED_REQUESTS_PER_MINUTE).toBe(60);
    expect(requestBudget(sandboxProfile())).toBe(60);
    expect(requestBudget({ rateLimitPerMinute: 120 })).toBe(120);
    expect(requestBudget({ rateLimitPerMinute: 0 })).toBe(60);
    expect(requestBudget({ rateLimitPerMinute: Number.NaN })).toBe(60);
    expect(requestBudget(null)).toBe(60);
  });
});

describe('requests left', () => {
  it('counts all of a waiting household, the rest of the one under way, none of a done one', () => {
    const steps = [
      household('ready', ALONE, ALONE),
      household('getting', WITH_COCLIENT, 10),
      household('waiting', ALONE),
      household('failed', WITH_COCLIENT, 7),
    ];
    // 25 - 10 = 15 under way, 21 waiting.
    expect(requestsLeft(steps)).toBe(36);
  });

  it('never counts below nothing when a pull sent more than its documented count (a page-size probe)', () => {
    expect(requestsLeft([household('getting', ALONE, 23)])).toBe(0);
  });
});

describe('the time left at 60 a minute', () => {
  it('is one second a request', () => {
    expect(msLeft(ALONE, 60)).toBe(21_000);
    expect(msLeft(0, 60)).toBe(0);
    // At 120 a minute, half a second each: 25 requests in 12.5 s.
    expect(msLeft(WITH_COCLIENT, 120)).toBe(12_500);
  });

  it('two households without a co-client: 42 requests, 42 s, less than a minute', () => {
    const steps = [household('waiting', ALONE), household('waiting', ALONE)];
    expect(householdsTimeLeft(steps, 60)).toBe('less than a minute left');
  });

  it('five households with co-clients: 125 requests, 2 min 5 s, about 2 minutes', () => {
    const steps = Array.from({ length: 5 }, () => household('waiting', WITH_COCLIENT));
    expect(householdsTimeLeft(steps, 60)).toBe('about 2 minutes left');
  });

  it('the 23 households of the first background run (10 with a co-client): 523 requests, about 9 minutes', () => {
    const steps = [
      ...Array.from({ length: 10 }, () => household('waiting', WITH_COCLIENT)),
      ...Array.from({ length: 13 }, () => household('waiting', ALONE)),
    ];
    // 250 + 273 = 523 s = 8 min 43 s.
    expect(householdsTimeLeft(steps, 60)).toBe('about 9 minutes left');
  });

  it('goes down as the pull goes: three with a co-client, the first half done', () => {
    const first = household('getting', WITH_COCLIENT, 13);
    const steps = [first, household('waiting', WITH_COCLIENT), household('waiting', WITH_COCLIENT)];
    // 12 + 25 + 25 = 62 s: about a minute.
    expect(householdsTimeLeft(steps, 60)).toBe('about 1 minute left');
    first.done = 25;
    // 50 s.
    expect(householdsTimeLeft(steps, 60)).toBe('less than a minute left');
  });

  it('says nothing once nothing is left', () => {
    expect(householdsTimeLeft([household('ready', ALONE, ALONE)], 60)).toBeNull();
    expect(timeLeftWords(0)).toBeNull();
  });

  it('rounds to the nearest minute: 90 s is about 2 minutes, 89 s about 1', () => {
    expect(timeLeftWords(90_000)).toBe('about 2 minutes left');
    expect(timeLeftWords(89_000)).toBe('about 1 minute left');
    expect(timeLeftWords(59_999)).toBe('less than a minute left');
  });
});
