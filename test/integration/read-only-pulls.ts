// What the pulls of the read-only records share (sync-pull-account-records, sync-pull-engagements,
// sync-pull-forms-reports-feed): a sandbox platform of 120 accounts for the test file, the
// advisor's real transport, a fresh store, and the platform's own API as the oracle the pulled
// rows are compared with. The bindings are live: a test reads `platform`, `send` as they are now.

import { beforeAll, expect } from 'vitest';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import type { AccountRow } from '../../renderer/src/data/model.ts';
import { PAGE_SIZES } from '../../renderer/src/sync/pull/index.ts';
import type { Send } from '../../renderer/src/sync/send.ts';
import type { AccountRecord, EngagementRecord } from '../platform/model.ts';
import type { Platform } from '../platform/server.ts';
import { sandbox } from '../support/sandbox.ts';
import { ADVISOR, type SandboxClient, sandboxUser } from '../support/sandbox-client.ts';
import { openDb } from '../support/store.ts';

export let platform: Platform;
export let advisor: SandboxClient;
export let send: Send;

/** Registers the hooks: the platform of 120 accounts and the advisor's transport, for the file. */
export function readOnlyPulls(): void {
  platform = sandbox({ accounts: 120 });
  advisor = sandboxUser(platform, ADVISOR);
  beforeAll(() => {
    send = (req) => advisor.transport.request(req);
  });
}

export async function freshDb(): Promise<AdvisorDb> {
  const db = openDb();
  await db.open();
  return db;
}

/** A request to the platform through its API, as `email` (default the advisor): the oracle. */
export async function api<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  email = ADVISOR,
): Promise<T> {
  const token = platform.control.token(email).access_token;
  const res = await fetch(`${platform.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? null : await res.json()) as T;
}
export const get = <T = unknown>(path: string) => api<T>('GET', path);

/** A security answer as it is stored: everything but the PIN. */
export function withoutPin(answer: unknown): unknown {
  const { pin, ...rest } = answer as { pin: unknown };
  expect(pin).toEqual(expect.any(Number));
  return rest;
}

/** Requests the platform receives from now on. */
export function requestsSince(): () => number {
  platform.control.resetStats();
  return () => platform.control.stats().total;
}

export function teamAccounts(): AccountRecord[] {
  const state = platform.control.dump();
  const user = state.users.find((u) => u.email === ADVISOR)!;
  return state.accounts.filter((a) => a.teamId === user.currentTeamId);
}

export const activitiesOf = (accountId: number) =>
  platform.control.dump().accountActivities.filter((a) => a.accountId === accountId);

export function teamEngagements(): EngagementRecord[] {
  const ids = new Set(teamAccounts().map((a) => a.id));
  return platform.control.dump().engagements.filter((e) => ids.has(e.account_id));
}

export async function accountOf(db: AdvisorDb, serverId: number): Promise<AccountRow> {
  const row = await db.accounts.where('serverId').equals(serverId).first();
  if (!row) throw new Error(`account ${serverId} was not pulled`);
  return row;
}

export const sorted = <T>(values: T[]) => [...values].sort();
export const ids = (rows: { id: unknown }[]) => sorted(rows.map((r) => r.id));

export interface Listed<T> {
  items: T[];
  params?: { total: number };
  total?: number;
}

/** The sizes the sandbox accepts (it caps a page at 500). */
export const KNOWN_PAGE_SIZES = PAGE_SIZES.filter((size) => size <= 500);
