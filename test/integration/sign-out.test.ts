// Sign-out under a running pull (issue 12): thirty accounts made available offline are being
// pulled while the platform holds every answer. Signing out forgets the tokens, ends every request
// in flight and stops the pulls at once: checked in the sandbox's own counts, the secret store and
// the local store, not against a clock. The main process is the app's (services, transport, auth
// service, signed in through the platform's page); the renderer's coordinator reaches it as the
// Bridge does, without the signal, so the main process must end the requests itself.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../electron/main/auth/memory-secret-store.ts';
import { createServices, type MainServices } from '../../electron/main/services.ts';
import type { ApiRequest } from '@shared/api/request.ts';
import { sandboxProfile } from '@shared/settings.ts';
import { updateRecord } from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { SyncCoordinator, type SyncState } from '../../renderer/src/sync/coordinator/index.ts';
import { sandbox } from '../support/sandbox.ts';
import { openDb } from '../support/store.ts';
import { FakeBrowser } from './fake-browser.ts';

const OFFLINE_ACCOUNTS = 30;

const platform = sandbox({ accounts: 80 });
let services: MainServices;
let secrets: MemorySecretStore;
let db: AdvisorDb;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sign-out-'));
  secrets = new MemorySecretStore();
  const settings = new Map<string, unknown>();
  services = createServices({
    settingsStore: { get: (key) => settings.get(key), set: (key, value) => void settings.set(key, value) },
    secrets,
    openExternal: new FakeBrowser().open,
    chooseSavePath: () => Promise.resolve(null),
    cacheDir: join(dir, 'files'),
    defaultProfile: { ...sandboxProfile(platform.url), rateLimitPerMinute: 1_000_000 },
    confirmAddressChange: () => Promise.resolve(true),
  });
  db = openDb();
});

afterAll(async () => {
  services.transport.dispose();
  await db.delete();
  platform.control.setFaults({ probability: 0, queue: [] });
  rmSync(dir, { recursive: true, force: true });
});

/** What the local store holds (every table, or all but `except`), to compare before and after. */
async function storeContents(except: string[] = []): Promise<string> {
  const tables = db.tables.filter((t) => !except.includes(t.name));
  return JSON.stringify(await Promise.all(tables.map(async (t) => [t.name, await t.toArray()] as const)));
}

/** Resolves once `test` holds, polling (the sandbox's counters have no events). */
async function until(test: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function stateOf(c: SyncCoordinator, test: (s: SyncState) => boolean): Promise<SyncState> {
  return new Promise((resolve) => {
    const off = c.subscribe((s) => {
      if (!test(s)) return;
      queueMicrotask(() => off());
      resolve(s);
    });
  });
}

/** Requests of the interfaces the platform received and has not answered yet. */
function held(): number {
  const { received, byInterface } = platform.control.stats();
  return received - (byInterface.v2 ?? 0) - (byInterface.v0 ?? 0);
}

describe('sign-out under a running pull of 30 offline accounts', () => {
  it('forgets the tokens, ends the requests and stops the pulls while the platform still holds them', async () => {
    const bridge = services.handlers;
    const start = await bridge['auth.beginSignIn']('both');
    if (!start.ok) throw new Error(start.message);
    expect((await bridge['auth.finishSignIn'](start.flowId)).ok).toBe(true);
    expect(secrets.names().length).toBeGreaterThan(0);

    // The renderer's side, as the app wires it: the Bridge carries no signal.
    const sent: ApiRequest[] = [];
    const coordinator = new SyncCoordinator({
      db,
      send: (req) => {
        sent.push(req);
        // The Bridge's schema types a file's bytes more narrowly; the pulls send none.
        return bridge['api.request'](req as Parameters<(typeof bridge)['api.request']>[0]);
      },
      locks: null,
      channel: null,
      events: null,
      online: () => true,
      backgroundIntervalMs: 60 * 60_000,
    });
    coordinator.start();
    // The first background run brings the configuration and the account list.
    await stateOf(coordinator, (s) => s.phase === 'idle' && s.lastSyncedAt !== null);
    const accounts = await db.accounts.limit(OFFLINE_ACCOUNTS + 1).toArray();
    expect(accounts.length).toBe(OFFLINE_ACCOUNTS + 1);

    // From now on the platform holds every answer of both interfaces for a minute.
    platform.control.setFaults({ probability: 1, kinds: ['latency'], latencyMs: 60_000, queue: [] });
    // A change waits to be sent, and its push is held too.
    const edited = accounts[OFFLINE_ACCOUNTS]!;
    await updateRecord(db, 'accounts', edited.id, { 'client.first_name': 'Signing-Out' });
    const pulls = accounts.slice(0, OFFLINE_ACCOUNTS).map((a) => coordinator.setAvailableOffline(a.id, true));
    // And a request of the main process's own that no renderer signal can reach.
    const direct = bridge['api.request']({ api: 'v2', method: 'GET', path: '/user' });
    await until(() => held() >= OFFLINE_ACCOUNTS + 1, 'the platform to hold every offline pull');
    expect(coordinator.state.phase).toBe('syncing');

    // What was pulled before (the push's bookkeeping of the held change aside).
    const pulled = await storeContents(['outbox']);
    // As the app's frame does: the coordinator stops and the main process signs out, together.
    const stopped = coordinator.stop();
    const out = await bridge['auth.signOut']();
    await stopped;
    const reports = await Promise.all(pulls);
    // Resolved while the platform still held the requests: nothing waited for them.
    expect(held()).toBeGreaterThan(0);
    const received = platform.control.stats().received;
    const sentAtSignOut = sent.length;
    const atSignOut = await storeContents();

    // The main process ended its requests in flight: answered, cancelled, before the platform did.
    const waiting = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 50));
    const answer = await Promise.race([direct, waiting]);
    expect(answer).toMatchObject({ ok: false, kind: 'network' });
    expect((answer as { message: string }).message).toMatch(/cancelled/);

    // The tokens are gone: signed out of both, none left in the secret store.
    expect(out.ok).toBe(true);
    expect(out.status).toMatchObject({ v2: { signedIn: false }, v0: { signedIn: false } });
    expect(await bridge['auth.status']()).toMatchObject({ v2: { signedIn: false }, v0: { signedIn: false } });
    expect(secrets.names()).toEqual([]);

    // The pulls stopped, each saying so and none failing; they wrote nothing (no half an
    // account), and the coordinator is idle.
    expect(reports.map((r) => ({ stopped: r?.stopped, failures: r?.failures.length }))).toEqual(
      accounts.slice(0, OFFLINE_ACCOUNTS).map(() => ({ stopped: true, failures: 0 })),
    );
    expect(await storeContents(['outbox'])).toBe(pulled);
    expect(coordinator.state).toMatchObject({ phase: 'idle', progress: [] });

    // Given time, nothing more reaches the platform and nothing more is written here; the unsent
    // change is kept for the next sign-in.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(platform.control.stats().received).toBe(received);
    expect(sent.length).toBe(sentAtSignOut);
    expect(await storeContents()).toBe(atSignOut);
    expect(await db.outbox.where('recordId').equals(edited.id).count()).toBe(1);
  });
});
