// No PIN on disk: the real sync engine against the sandbox platform over real HTTP, into Dexie over
// fake-indexeddb. Accounts are pulled whole (list, details, sections, security, profile, activity),
// members' details are edited, PINs are reset and the new status pulled again; then every row of
// every table, serialized, holds none of those members' PINs, old or new, and no `pin` field.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueResetPin, updateRecord } from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { SyncCoordinator } from '../../renderer/src/sync/coordinator/index.ts';
import { askPin } from '../../renderer/src/sync/pins.ts';
import type { AccountRecord } from '../platform/model.ts';
import { sandbox } from '../support/sandbox.ts';
import { openDb } from '../support/store.ts';
import { ADVISOR, sandboxUser } from '../support/sandbox-client.ts';

const platform = sandbox({ accounts: 8 });
const advisor = sandboxUser(platform, ADVISOR);
let db: AdvisorDb;

beforeAll(() => {
  db = openDb();
});
afterAll(async () => {
  await db.delete();
});

async function until(what: string, condition: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function teamAccounts(): AccountRecord[] {
  const state = platform.control.dump();
  const user = state.users.find((u) => u.email === ADVISOR)!;
  return state.accounts.filter((a) => a.teamId === user.currentTeamId);
}

/** Every PIN the team's members have now. */
const currentPins = () =>
  teamAccounts().flatMap((a) => [a.client.pin, ...(a.coclient ? [a.coclient.pin] : [])]);

/** Where a row holds a `pin` field, at any depth. */
function pinFields(value: unknown, path: string, out: string[]): string[] {
  if (Array.isArray(value)) value.forEach((v, i) => pinFields(v, `${path}[${i}]`, out));
  else if (typeof value === 'object' && value !== null)
    for (const [key, v] of Object.entries(value)) {
      if (key.toLowerCase() === 'pin') out.push(`${path}.${key}`);
      pinFields(v, `${path}.${key}`, out);
    }
  return out;
}

describe('no PIN reaches the local database', () => {
  it('after full pulls, edits and PIN resets, no table holds a member’s PIN', async () => {
    const coordinator = new SyncCoordinator({
      db,
      send: advisor.send,
      locks: null,
      channel: null,
      events: null,
      online: () => true,
      backgroundIntervalMs: 3_600_000,
      push: { backoff: { baseMs: 20, maxMs: 100 } },
    });
    const seen = new Set<string>(currentPins());
    const pinOf = (serverId: number | string | null, member: 'client' | 'coclient') =>
      teamAccounts().find((a) => a.id === serverId)?.[member]?.pin;
    const resets: { serverId: number; member: 'client' | 'coclient'; before: string | undefined }[] = [];
    try {
      coordinator.start();
      // The background pull: configuration and the account list (every member's PIN is in it).
      await until(
        'the first sync',
        () => coordinator.state.phase === 'idle' && coordinator.state.lastSyncedAt !== null,
      );
      const accounts = await db.accounts.toArray();
      expect(accounts.length).toBe(teamAccounts().length);
      // Every account pulled whole: details, sections, each member's security, profile, activity.
      for (const account of accounts) await coordinator.setAvailableOffline(account.id, true);
      expect(await db.memberSecurity.count()).toBeGreaterThanOrEqual(accounts.length);

      // Details edited, and PINs reset for both members of an account and the client of another.
      const withCoclient = accounts.find((a) => a.fields['coclient.email'])!;
      const other = accounts.find((a) => a !== withCoclient)!;
      const chosen = [
        { account: withCoclient, member: 'client' as const },
        { account: withCoclient, member: 'coclient' as const },
        { account: other, member: 'client' as const },
      ].map(({ account, member }) => ({
        serverId: account.serverId as number,
        member,
        before: pinOf(account.serverId, member),
      }));
      resets.push(...chosen);
      const ops = [
        await updateRecord(db, 'singles', `${withCoclient.id}:details:client`, { comments: 'Met in May' }),
        await queueResetPin(db, withCoclient.id, 'client'),
        await queueResetPin(db, withCoclient.id, 'coclient'),
        await queueResetPin(db, other.id, 'client'),
      ];
      await coordinator.rearm();
      await Promise.all(ops.map(({ opId }) => coordinator.whenSynced(opId as string)));
      for (const pin of currentPins()) seen.add(pin);
      // The resets' accounts pulled again.
      for (const account of [withCoclient, other]) await coordinator.openAccount(account.id);
    } finally {
      await coordinator.stop();
    }

    // Each reset issued a new PIN, which is in memory (asked for, it needs no request).
    const noRequest = () => Promise.reject(new Error('no request expected'));
    for (const { serverId, member, before } of resets) {
      const now = pinOf(serverId, member);
      expect(now).not.toBe(before);
      expect(await askPin(noRequest, serverId, member)).toEqual({ ok: true, pin: now });
    }
    expect(seen.size).toBeGreaterThanOrEqual(teamAccounts().length + resets.length);

    const problems: string[] = [];
    for (const table of db.tables) {
      const rows = (await table.toArray()) as unknown[];
      rows.forEach((row, i) => {
        const text = JSON.stringify(row);
        for (const pin of seen)
          if (new RegExp(`(?<!\\d)${pin}(?!\\d)`).test(text))
            problems.push(`${table.name}[${i}] holds PIN ${pin}`);
        for (const at of pinFields(row, `${table.name}[${i}]`, [])) problems.push(`${at} is a PIN field`);
      });
    }
    expect(problems).toEqual([]);
  });
});
