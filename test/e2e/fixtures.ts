// Every end-to-end test gets a fresh sandbox platform and a browser-preview host pointed at it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { networkFailure } from '../../electron/main/transport/failures.ts';
import { startPreviewHost, type PreviewHost } from '../../electron/preview/host.ts';
import { sandboxProfile } from '@shared/settings.ts';
import { storeName, userKey } from '../../renderer/src/data/identity/index.ts';
import { startPlatform, type Platform } from '../platform/server.ts';

export interface Servers {
  platform: Platform;
  host: PreviewHost;
}

export const test = base.extend<{ servers: Servers; requestsPerMinute: number }>({
  /**
   * The request budget of the platform and of the app's profile: the real platform's 60 by
   * default. Long data-entry scenarios raise it (`test.use`) so that they test the screens, not
   * minutes of waiting for the budget (which the integration tests and the sync panel's spec cover).
   */
  requestsPerMinute: [60, { option: true }],
  servers: async ({ requestsPerMinute }, use) => {
    const platform = await startPlatform({ port: 0, seed: 5, accounts: 40, rateLimit: requestsPerMinute });
    const dataDir = mkdtempSync(join(tmpdir(), 'advisor-preview-'));
    const host = await startPreviewHost({
      port: 0,
      rendererDir: resolve('out/renderer'),
      dataDir,
      defaultProfile: { ...sandboxProfile(platform.url), rateLimitPerMinute: requestsPerMinute },
    });
    await use({ platform, host });
    await host.close();
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
  // Every test's browser holds the host's cookie, as if it had opened the printed address, so
  // that `page.goto(servers.host.url)` shows the page (sign-in.spec opens the address itself).
  context: async ({ context, servers }, use) => {
    await admit(context, servers.host);
    await use(context);
  },
});

/**
 * Opens the host's printed address the way a browser does (one request, its cookie kept) and gives
 * the cookie to `context`: for contexts a test makes itself (`browser.newContext()`).
 */
export async function admit(context: BrowserContext, host: PreviewHost): Promise<void> {
  const res = await fetch(host.openUrl(), { redirect: 'manual' });
  const [pair = '', ...attributes] = (res.headers.get('set-cookie') ?? '').split(';');
  const at = pair.indexOf('=');
  if (res.status !== 303 || at < 1) throw new Error(`the preview host did not admit (status ${res.status})`);
  // Its Path as the host set it: the browser sends the cookie below that path only.
  const path = attributes.map((a) => /^\s*Path=(.*)$/i.exec(a)?.[1]).find((p) => p !== undefined);
  if (!path) throw new Error('the preview host set its cookie without a Path');
  await context.addCookies([
    {
      name: pair.slice(0, at),
      value: pair.slice(at + 1),
      domain: new URL(host.url).hostname,
      path,
      httpOnly: true,
      sameSite: 'Strict',
    },
  ]);
}

export { expect };

/**
 * Signs in through the platform's own page, opened by the app in a new tab. The app opens on Home
 * after signing in; the specs written before Home start from the account list, so the sign-in
 * goes on to `landing` (the address's `next`, as after "sign in again"): `/` for Home.
 */
export async function signIn(
  page: Page,
  email = 'advisor@sandbox.test',
  password = 'sandbox',
  landing = '/accounts',
): Promise<Page> {
  // The sign-in screen's own default (no `next`, or the Home the app opens on) gives way to
  // `landing`; a `next` a spec led to ("sign in again" from a page) is kept. Read once the screen
  // shows: before that, the app may not have sent the page to sign-in yet, and its redirect (to
  // come back to Home) would replace the landing written here.
  await expect(page.getByTestId('sign-in')).toBeVisible();
  const next = new URL(page.url().replace('#/', '')).searchParams.get('next');
  if (next === null || next === '/' || next === '/home')
    await page.evaluate(
      (hash) => ((globalThis as unknown as { location: { hash: string } }).location.hash = hash),
      `#/sign-in?next=${encodeURIComponent(landing)}`,
    );
  const popup = page.waitForEvent('popup');
  await page.getByTestId('sign-in').click();
  const tab = await popup;
  await tab.getByLabel('Email').fill(email);
  await tab.getByLabel('Password').fill(password);
  await tab.getByRole('button', { name: 'Sign in' }).click();
  // Back to the app, as the advisor goes. Headless Chromium gives animation frames to the page in
  // front only: behind the platform's tab the app got one about every second, and every action's
  // stability check (two frames alike) waited for them.
  await page.bringToFront();
  return tab;
}

// ---- shared helpers of the account specs -------------------------------------------------------

export const SHOTS = 'test-results/screenshots';
export const ADVISOR = 'advisor@sandbox.test';

/** Accounts of the advisor's current team the default list shows (not archived). */
export function activeAccounts(servers: Servers) {
  const store = servers.platform.control.store();
  const advisor = store.state.users.find((u) => u.email === ADVISOR)!;
  return store.state.accounts.filter((a) => a.teamId === advisor.currentTeamId && !a.archived);
}

/** Signs in and waits until the first sync has filled the account list. */
export async function openList(page: Page, servers: Servers): Promise<void> {
  await page.goto(servers.host.url);
  await signIn(page);
  await expect(page.getByTestId('user-name')).toHaveText('Alex Morgan');
  await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();
  const expected = activeAccounts(servers).length;
  // The sync fills the local store; the list follows it.
  await expect(page.getByTestId('account-count')).toHaveText(`${expected} accounts`, { timeout: 30_000 });
  await expect(page.getByTestId('account-name').first()).toBeVisible();
}

/** Types a household's client e-mail into the list's search: the household is the one match. */
export async function findInList(page: Page, household: { client: { email: string } }): Promise<void> {
  await page.getByTestId('account-search').pressSequentially(household.client.email);
  await expect(page.getByTestId('account-count')).toHaveText('1 account matches');
}

/** Opens a household's workspace from the list as the advisor does: found by e-mail, then clicked. */
export async function openFromList(
  page: Page,
  household: { client: { email: string; first_name: string; last_name: string } },
): Promise<void> {
  await findInList(page, household);
  await page.getByTestId('account-name').filter({ hasText: household.client.last_name }).click();
  await expect(page.getByTestId('workspace-title')).toContainText(household.client.first_name);
}

/** Opens an account's workspace inside the app (offline too, as the advisor does: no page load). */
export async function openAccount(page: Page, id: string, query = ''): Promise<void> {
  await page.evaluate(
    (hash) => ((globalThis as unknown as { location: { hash: string } }).location.hash = hash),
    `#/accounts/${id}${query}`,
  );
}

/** Edits an account's client first name through its form in the workspace (offline: it waits). */
export async function renameClient(page: Page, id: string, first: string): Promise<void> {
  // In the app (offline, a page load would find no host).
  await page.evaluate(
    (hash) => ((globalThis as unknown as { location: { hash: string } }).location.hash = hash),
    `#/accounts/${id}`,
  );
  await expect(page.getByTestId('workspace-title')).toBeVisible();
  await page.getByTestId('edit-account').click();
  const name = page.locator('#account-client-first_name');
  await name.fill(first);
  await page.getByTestId('account-save').click();
  await expect(page.getByTestId('account-form')).toBeHidden();
}

/**
 * Offline, as the desktop app meets it. `context.setOffline(true)` fails every request of the
 * page, the preview host's included, so a reload offline would find no page at all, and every
 * bridge call would throw. But the host stands in for what is local in the desktop app: its own
 * files (served from app://) and the main process behind IPC. So while offline the page's
 * requests to the host are answered from Node (`route.fetch`, outside the emulated network), and
 * the two bridge calls that go on to the platform answer what the main process answers when this
 * computer has no network: its own `networkFailure()` of the error Node's fetch throws then (no
 * name server answers). The page sees the offline and online events, as it would in Electron; but
 * whether it still sees `navigator.onLine === false` after a reload depends on the Chromium
 * version (150 says online, 156 offline), so there the app must tell from the failure itself.
 */
export async function goOffline(context: BrowserContext, servers: Servers): Promise<void> {
  const noNetwork = new TypeError('fetch failed', {
    cause: Object.assign(new Error('getaddrinfo EAI_AGAIN platform.example'), { code: 'EAI_AGAIN' }),
  });
  const unreachable = networkFailure(noNetwork);
  expect(unreachable.network).toBe('down');
  await context.route(`${servers.host.url}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path.endsWith('/__bridge/api.request')) return route.fulfill({ json: { value: unreachable } });
    if (path.endsWith('/__bridge/files.download'))
      return route.fulfill({ json: { value: { ok: false, cancelled: false, error: unreachable } } });
    // The host's answer, from Node. A request still under way as the test ends (a thumbnail's
    // preview) loses its connection when the context closes: the page sees it fail as it would
    // see a dropped connection, rather than the handler's error failing a test that has passed.
    let response;
    try {
      response = await route.fetch();
    } catch {
      return route.abort('connectionreset').catch(() => undefined);
    }
    return route.fulfill({ response });
  });
  await context.setOffline(true);
}

/** Back online: goOffline's routes are taken back (the servers are goOffline's, for symmetry). */
export async function goOnline(context: BrowserContext, _servers: Servers): Promise<void> {
  // A request under way in goOffline's handler ends there first: taken back mid-way, Playwright
  // lets the request go on itself and the handler's answer fails ("Route is already handled").
  await context.unrouteAll({ behavior: 'wait' });
  await context.setOffline(false);
}

/** A request to the platform's interfaces as the advisor, outside the app (the oracle's side). */
export async function platformApi<T = unknown>(
  servers: Servers,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const token = servers.platform.control.token(ADVISOR).access_token;
  const res = await fetch(`${servers.platform.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (a file): the text is answer enough.
  }
  return { status: res.status, body: parsed as T };
}

/** A Documents item with a file, uploaded as the platform's web app would (multipart). */
export async function addDocument(
  servers: Servers,
  accountId: number,
  name: string,
  bytes: Uint8Array,
  type = 'application/pdf',
): Promise<void> {
  const token = servers.platform.control.token(ADVISOR).access_token;
  const form = new FormData();
  form.append('file', new Blob([bytes.slice()], { type }), name);
  const res = await fetch(`${servers.platform.url}/api/v0/accounts/${accountId}/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBeLessThan(300);
}

/** The little of IndexedDB read below (these files are typed for Node, without the DOM). */
interface IdbRequest<T> {
  result: T;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
interface IdbStore {
  index(name: string): { get(key: unknown): IdbRequest<{ id?: string } | undefined> };
  getAll(): IdbRequest<{ state?: string }[]>;
}
interface Idb {
  databases(): Promise<{ name?: string }[]>;
  open(name: string): IdbRequest<{
    objectStoreNames: { contains(name: string): boolean };
    transaction(store: string): { objectStore(name: string): IdbStore };
  }>;
}

/**
 * The local store of one identity (renderer/src/data/identity/): a user (the advisor by
 * default) in a team (their current one on the platform by default).
 */
export async function storeOf(servers: Servers, email = ADVISOR, team?: number): Promise<string> {
  const user = servers.platform.control.store().state.users.find((u) => u.email === email);
  if (!user) throw new Error(`no user ${email} on the sandbox`);
  const base = sandboxProfile(servers.platform.url).v2.baseUrl;
  return storeName({ user: await userKey(base, email), team: team ?? user.currentTeamId });
}

/** The names of the identity stores in the page's IndexedDB (never the one of earlier versions). */
export function identityStores(page: Page): Promise<string[]> {
  return page.evaluate(async () =>
    (await (globalThis as unknown as { indexedDB: Idb }).indexedDB.databases())
      .map((db) => db.name ?? '')
      .filter((name) => name.startsWith('advisor-desk-')),
  );
}

/** The app's store when the page holds one only (once the app has made it); else name it. */
export async function appStore(page: Page): Promise<string> {
  let names: string[] = [];
  await expect
    .poll(async () => (names = await identityStores(page)).length, { timeout: 30_000 })
    .toBeGreaterThan(0);
  if (names.length > 1) throw new Error(`several stores in the page (${names.join(', ')}): say which`);
  return names[0]!;
}

/** The local id of an account once a pull has stored it (read from the app's IndexedDB). */
export async function localId(page: Page, serverId: number, store?: string): Promise<string> {
  const name = store ?? (await appStore(page));
  const read = () =>
    page.evaluate(
      ({ id, name }) =>
        new Promise<string | null>((resolve) => {
          const open = (globalThis as unknown as { indexedDB: Idb }).indexedDB.open(name);
          open.onerror = () => resolve(null);
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains('accounts')) return resolve(null);
            const get = db.transaction('accounts').objectStore('accounts').index('serverId').get(id);
            get.onsuccess = () => resolve(get.result?.id ?? null);
            get.onerror = () => resolve(null);
          };
        }),
      { id: serverId, name },
    );
  let found: string | null = null;
  await expect.poll(async () => (found = await read()), { timeout: 30_000 }).not.toBeNull();
  return found as unknown as string;
}

/** The states of the operations in the app's outbox (empty once every change reached the platform). */
export async function outboxStates(page: Page, store?: string): Promise<string[]> {
  const name = store ?? (await appStore(page));
  return page.evaluate(
    (name) =>
      new Promise<string[]>((resolve) => {
        const open = (globalThis as unknown as { indexedDB: Idb }).indexedDB.open(name);
        open.onerror = () => resolve(['unreadable']);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('outbox')) return resolve([]);
          const all = db.transaction('outbox').objectStore('outbox').getAll();
          all.onsuccess = () => resolve(all.result.map((op) => op.state ?? 'unknown'));
          all.onerror = () => resolve(['unreadable']);
        };
      }),
    name,
  );
}

/** A screenshot into test-results/screenshots/; `settleMs` lets a chart finish drawing. */
export async function shoot(page: Page, name: string, settleMs = 0): Promise<void> {
  await page.evaluate(() =>
    (globalThis as unknown as { document: { fonts: { ready: Promise<unknown> } } }).document.fonts.ready.then(
      () => undefined,
    ),
  );
  // Charts animate in a canvas, out of reach of `animations: 'disabled'`: only they need a pause.
  if (settleMs) await page.waitForTimeout(settleMs);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, animations: 'disabled' });
}

/** The same screen in the light theme, then the dark one (the app follows the system). */
export async function bothThemes(page: Page, name: string, settleMs = 0): Promise<void> {
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).not.toHaveClass(/app-dark/);
  await shoot(page, `${name}-light`, settleMs);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/app-dark/);
  await shoot(page, `${name}-dark`, settleMs);
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The little of the DOM's storage read below (these files are typed for Node, without the DOM). */
interface Req<T> {
  result: T;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
interface Browser {
  indexedDB: {
    databases(): Promise<{ name?: string }[]>;
    open(name: string): Req<{
      objectStoreNames: ArrayLike<string>;
      transaction(stores: string[]): { objectStore(name: string): { getAll(): Req<unknown[]> } };
      close(): void;
    }>;
  };
  localStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null };
  sessionStorage: Browser['localStorage'];
}

/**
 * Everything the page keeps, as text: each IndexedDB object store as `database/store` (the
 * records as JSON; files show as `{}`), and `localStorage` and `sessionStorage` as key=value lines.
 */
export function pageStorage(page: Page): Promise<Record<string, string>> {
  return page.evaluate(async () => {
    const w = globalThis as unknown as Browser;
    const out: Record<string, string> = {};
    const text = (value: unknown) => {
      try {
        return JSON.stringify(value);
      } catch {
        return String(value);
      }
    };
    for (const { name } of await w.indexedDB.databases()) {
      if (!name) continue;
      const db = await new Promise<ReturnType<Browser['indexedDB']['open']>['result']>((resolve, reject) => {
        const open = w.indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(new Error(`IndexedDB ${name} could not be opened`));
      });
      const stores = Array.from(db.objectStoreNames);
      if (stores.length) {
        const tx = db.transaction(stores);
        for (const store of stores)
          out[`${name}/${store}`] = await new Promise<string>((resolve, reject) => {
            const all = tx.objectStore(store).getAll();
            all.onsuccess = () => resolve(text(all.result));
            all.onerror = () => reject(new Error(`${name}/${store} could not be read`));
          });
      }
      db.close();
    }
    for (const area of ['localStorage', 'sessionStorage'] as const) {
      const s = w[area];
      const lines: string[] = [];
      for (let i = 0; i < s.length; i++) {
        const key = s.key(i)!;
        lines.push(`${key}=${s.getItem(key)}`);
      }
      out[area] = lines.join('\n');
    }
    return out;
  });
}
