// The diagnostics log on a full sync: the account list, accounts with every section, edits of
// names, emails and amounts and a PIN reset pushed, a few failures forced by the sandbox's fault
// injection — through the real Transport over HTTP, the sync coordinator reporting through the
// Bridge's dispatch (its schema), and the main-side log service writing its file. Read back, the
// log holds the failures and the reports, and not one name, email, phone, PIN, amount, token,
// password or client secret of the seeded data or of the edits.

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../electron/main/bridge/handlers.ts';
import { startupFacts } from '../../electron/main/diagnostics/diagnostics-log.ts';
import { electronLogFile } from '../../electron/main/diagnostics/log-file.ts';
import { MemorySecretStore } from '../../electron/main/auth/memory-secret-store.ts';
import { createServices, type MainServices } from '../../electron/main/services.ts';
import type { TokenSource } from '../../electron/main/transport/token-source.ts';
import { Transport } from '../../electron/main/transport/transport.ts';
import { JsonFileStore } from '../../electron/preview/json-file-store.ts';
import type { SaveDiagnosticsResult } from '@shared/bridge.ts';
import { sandboxProfile } from '@shared/settings.ts';
import { createRecord, queueResetPin, updateRecord } from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { SyncCoordinator } from '../../renderer/src/sync/coordinator/index.ts';
import { SANDBOX_PASSWORD } from '../platform/seed.ts';
import { sandbox } from '../support/sandbox.ts';
import { openDb } from '../support/store.ts';
import { ADVISOR, SandboxTokens } from '../support/sandbox-client.ts';

const CLIENT_SECRET = 'cs-Diagnostics-Secret-7Q2';
/** What the edits put in: each must stay out of the log. */
const EDITS = {
  firstName: 'Zebulon',
  lastName: 'Quixotefield',
  email: 'zebulon.quixotefield@diag.example',
  assetName: 'Xanadu Orchard',
  amount: 987654.32,
};

const platform = sandbox({ accounts: 6 });
let services: MainServices;
let transport: Transport;
let db: AdvisorDb;
let logPath: string;
let dir: string;
/** Every access token the transport was given. */
const tokensUsed = new Set<string>();
/** Reports the Bridge's schema refused (each would be a report lost, or a field it must not carry). */
const refused: unknown[] = [];

async function until(what: string, condition: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every text and non-round number in a record, recursively: names, emails, phones, PINs, addresses, notes, amounts. */
function clientData(value: unknown, out: Set<string>): Set<string> {
  if (typeof value === 'string') {
    const codeLike = /^[a-z0-9_:|-]+$/.test(value) || /^[A-Z_]{1,12}$/.test(value);
    const dateLike = /^\d{4}-\d{2}-\d{2}/.test(value);
    if (value.length >= 4 && !codeLike && !dateLike) out.add(value);
    if (/^\d{4,}$/.test(value)) out.add(value); // PINs and phone numbers are digits only
  } else if (typeof value === 'number') {
    if (!Number.isInteger(value) || Math.abs(value) >= 10_000) out.add(String(value));
  } else if (Array.isArray(value)) for (const item of value) clientData(item, out);
  else if (typeof value === 'object' && value !== null)
    for (const item of Object.values(value)) clientData(item, out);
  return out;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'diagnostics-sync-'));
  logPath = join(dir, 'logs', 'diagnostics.log');
  services = createServices({
    settingsStore: new JsonFileStore(join(dir, 'settings.json')),
    secrets: new MemorySecretStore(),
    openExternal: () => Promise.resolve(false),
    chooseSavePath: (name) => Promise.resolve(join(dir, 'saved', name)),
    cacheDir: join(dir, 'files'),
    logFile: electronLogFile(logPath),
    defaultProfile: sandboxProfile(platform.url),
    confirmAddressChange: () => Promise.resolve(true),
  });
  services.diagnostics.started(
    startupFacts({ appVersion: '0.1.0', electron: null, chrome: null }, services.settings.profile()),
  );
  // A client secret saved in the profile: it goes to the secret store, never to the log.
  await dispatch(services.handlers, 'settings.saveProfile', [
    { ...sandboxProfile(platform.url), clientSecret: CLIENT_SECRET },
  ]);
  const sandbox = new SandboxTokens(platform, ADVISOR);
  const recorded = (answer: Awaited<ReturnType<TokenSource['accessToken']>>) => {
    if (typeof answer === 'string') tokensUsed.add(answer);
    return answer;
  };
  const tokens: TokenSource = {
    accessToken: async (api) => recorded(await sandbox.accessToken(api)),
    refreshAfterUnauthorized: async (api, rejected) =>
      recorded(await sandbox.refreshAfterUnauthorized(api, rejected)),
  };
  transport = new Transport({
    profile: () => ({ ...sandboxProfile(platform.url), rateLimitPerMinute: 1_000_000 }),
    tokens,
    onFailure: (event) => services.diagnostics.transportFailed(event),
  });
  db = openDb();
});

afterAll(() => {
  transport.dispose();
});

describe('the diagnostics log after a full sync', () => {
  let log = '';

  beforeAll(async () => {
    platform.control.setFaults({ probability: 0, queue: [], retryAfter: 0 });
    const coordinator = new SyncCoordinator({
      db,
      send: (req) => transport.request(req),
      locks: null,
      channel: null,
      events: null,
      online: () => true,
      backgroundIntervalMs: 3_600_000,
      push: { backoff: { baseMs: 20, maxMs: 100 } },
      diagnostics: (entry) =>
        dispatch(services.handlers, 'diagnostics.report', [entry]).catch((error: unknown) => {
          refused.push({ entry, error });
        }),
    });
    coordinator.start();
    // The background pull: configuration, the account list, the accounts kept offline.
    await until(
      'the first sync',
      () => coordinator.state.phase === 'idle' && coordinator.state.lastSyncedAt !== null,
    );
    const accounts = await db.accounts.toArray();
    expect(accounts.length).toBeGreaterThanOrEqual(3);
    const [first, second, third] = accounts as [
      (typeof accounts)[0],
      (typeof accounts)[0],
      (typeof accounts)[0],
    ];

    // Every section of three accounts, the first two meeting a failure on their way.
    platform.control.setFaults({
      queue: [
        { kind: 'server-error', methods: ['GET'], path: '^/api/v0/', count: 1 },
        { kind: 'rate-limited', methods: ['GET'], path: '^/api/v2/accounts/\\d+', count: 1 },
      ],
    });
    for (const account of [first, second, third]) await coordinator.openAccount(account.id);

    // Edits with names, an email and an amount, and a PIN reset; the first write meets a 500.
    platform.control.setFaults({ queue: [{ kind: 'server-error', methods: ['PUT', 'POST'], count: 1 }] });
    const ops = [
      await updateRecord(db, 'accounts', first.id, {
        'client.first_name': EDITS.firstName,
        'client.last_name': EDITS.lastName,
        'client.email': EDITS.email,
      }),
      await createRecord(db, 'sectionItems', {
        accountId: first.id,
        section: 'assets',
        fields: { name: EDITS.assetName, type: 'other', owner: 'client', current_value: EDITS.amount },
      }),
      await queueResetPin(db, second.id, 'client'),
    ];
    await coordinator.rearm();
    await Promise.all(ops.map(({ opId }) => coordinator.whenSynced(opId as string)));
    // The accounts again, with what the push changed (the new PIN among it).
    for (const account of [first, second]) await coordinator.openAccount(account.id);
    await coordinator.stop();
    // Reports are sent without waiting: let the last ones land.
    await new Promise((r) => setTimeout(r, 100));

    const saved = (await dispatch(services.handlers, 'diagnostics.save', [])) as SaveDiagnosticsResult;
    expect(saved.ok).toBe(true);
    log = readFileSync((saved as { path: string }).path, 'utf8');
    expect(log).toBe(readFileSync(logPath, 'utf8'));
  });

  it('every report passed the Bridge schema', () => {
    expect(refused).toEqual([]);
  });

  it('records the start, the pulls, the push and the forced failures', () => {
    expect(log).toMatch(/ info start \{"app":"0\.1\.0",.*"platformV2":"http:\/\/127\.0\.0\.1:\d+"/);
    expect(log).toMatch(/ info pull \{"pull":"config",/);
    expect(log).toMatch(/ info pull \{"pull":"account-list",.*"records":[1-9]/);
    expect(log).toMatch(/ (info|warn) pull \{"pull":"account","accountId":"[0-9a-f-]{36}",/);
    expect(log).toMatch(/ warn pull \{"pull":"account",.*"failures":"server 500 \/accounts\/\{id\}\//);
    expect(log).toMatch(/ info push \{"requests":[1-9]/);
    expect(log).toMatch(/ info change \{"outcome":"synced","table":"accounts",/);
    expect(log).toMatch(/ info change \{"outcome":"synced","table":"sectionItems",/);
    expect(log).toMatch(/ warn change \{"outcome":"retry",.*"failure":"server 500"\}/);
    expect(log).toMatch(
      / warn request-failed \{"api":"v0","method":"GET","route":"\/accounts\/\{id\}[^"]*","kind":"server","status":500,"ms":\d+/,
    );
    expect(log).toMatch(
      / warn request-failed \{"api":"v2","method":"GET","route":"\/accounts\/\{id\}[^"]*","kind":"rate-limited","status":429,/,
    );
    expect(log).toMatch(
      / warn request-failed \{"api":"v[02]","method":"(PUT|POST)",.*"kind":"server","status":500,/,
    );
  });

  it('holds no client data, token, password or client secret', () => {
    const state = platform.control.dump();
    const secrets = new Set<string>([...tokensUsed, CLIENT_SECRET, SANDBOX_PASSWORD]);
    for (const value of Object.values(EDITS)) secrets.add(String(value));
    for (const account of state.accounts)
      clientData(
        [account.client, account.coclient, account.sections, account.singles, account.profile],
        secrets,
      );
    for (const user of state.users)
      clientData([user.email, user.first_name, user.last_name, user.phone, user.company], secrets);
    // The check itself must have something to find: the seeded PINs, emails and names of the accounts.
    const pins = state.accounts.map((a) => a.client.pin);
    for (const pin of pins) expect(secrets).toContain(pin);
    expect(tokensUsed.size).toBeGreaterThan(0);
    expect(secrets.size).toBeGreaterThan(100);
    // A number counts where it stands alone: "2.8" (a seeded rate) is not in a time stamp's "52.812".
    const inLog = (secret: string) =>
      /^-?\d+(\.\d+)?$/.test(secret)
        ? new RegExp(`(?<![\\d.])${secret.replace('.', '\\.')}(?![\\d])`).test(log)
        : log.includes(secret);
    const found = [...secrets].filter(inLog);
    expect(found).toEqual([]);
  });
});
