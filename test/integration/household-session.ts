// The setup the questionnaire and form tests share: one sandbox platform for the test file, a
// fresh local store (fake-indexeddb) and advisor client per test, the push and pull engines over
// the real transport with a switch for being offline, and a household made on the platform and
// pulled here. The bindings are live: a test reads `db`, `advisor`, `platform` as they are now.

import { beforeEach, expect } from 'vitest';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import type { AccountRow } from '../../renderer/src/data/model.ts';
import { PullEngine } from '../../renderer/src/sync/pull/index.ts';
import { PushEngine } from '../../renderer/src/sync/push/index.ts';
import type { Platform } from '../platform/server.ts';
import { sandbox } from '../support/sandbox.ts';
import { storePerTest } from '../support/store.ts';
import { ADVISOR, type SandboxClient, sandboxUser } from '../support/sandbox-client.ts';

export let platform: Platform;
export let advisor: SandboxClient;
export let db: AdvisorDb;
/** Whether the push engines see the network; each test starts online. */
export let online = true;
/** How many households the file has made: their last names end with it. */
export let unique = 0;

export function setOnline(value: boolean): void {
  online = value;
}

/** Registers the hooks: the platform for the file, a store and client for each test. */
export function householdSession(): void {
  platform = sandbox({ accounts: 6 });
  advisor = sandboxUser(platform, ADVISOR, { perTest: true });
  storePerTest((fresh) => (db = fresh));
  beforeEach(() => {
    online = true;
    platform.control.setFaults({ probability: 0, queue: [], retryAfter: 0 });
  });
}

/** The push engine as the app runs it, retrying at once, offline while `online` is false. */
export const engine = (client = advisor) =>
  new PushEngine({ db, send: client.send, backoff: { baseMs: 0 }, online: () => online });
export const pulls = (client = advisor) => new PullEngine({ db, send: client.send });

/** What a client asked the platform, as `METHOD /path`. */
export const requestsOf = (client = advisor) => client.requests.map((r) => `${r.method} ${r.path}`);

/** The members of a household: first names, and the last name its number is added to. */
export interface HouseholdNames {
  client: string;
  coclient: string;
  last: string;
}

/**
 * A household made on the platform for one test (client and co-client, both with an email), then
 * the account list and the user resource (permissions, templates) pulled here, as the app has them;
 * the client's requests are forgotten so that a test sees only its own.
 */
export async function household(names: HouseholdNames, client = advisor): Promise<AccountRow> {
  unique++;
  const email = `${names.last.toLowerCase()}-${unique}-${Date.now()}@example.com`;
  const made = await advisor.send({
    api: 'v2',
    method: 'POST',
    path: '/accounts',
    body: {
      type: 'CLIENT',
      client: { first_name: names.client, last_name: `${names.last}${unique}`, email },
      coclient: { first_name: names.coclient, last_name: `${names.last}${unique}`, email: `co-${email}` },
    },
  });
  expect(made.ok).toBe(true);
  await pulls(client).pullAccountList({ full: true });
  await pulls(client).pullConfig();
  const row = (await db.accounts.toArray()).find((a) => a.fields['client.email'] === email);
  expect(row?.meta.coclientId).toEqual(expect.any(Number));
  client.requests.length = 0;
  return row!;
}
