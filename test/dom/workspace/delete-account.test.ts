// @vitest-environment happy-dom
// Deleting an account from its workspace, with the user's password: online only (offline, the
// dialog says so and sends nothing), the platform's refusal shown on the password field, success
// back to the list with the account gone from this computer, the button disabled with the reason
// when the role may not delete, and the password kept nowhere: not in a store, not in the input
// once the dialog closes, not in a log.

import { getActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import type { Bridge } from '@shared/bridge.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { useConnectivityStore } from '../../../renderer/src/common/connectivity.ts';
import { userConfig } from '../accounts/harness-data.ts';
import { click, household, mountWorkspace, one, openDb, settle, typeText, type Mounted } from './harness.ts';

const SECRET = 'correct horse battery staple';

let mounted: Mounted | null = null;
let sent: ApiRequest[];
let answer: (req: ApiRequest) => ApiResult;
let logged: unknown[];

beforeEach(() => {
  sent = [];
  logged = [];
  answer = () => ({ ok: true, status: 204, data: null });
  useBridge({
    api: {
      request: (req: ApiRequest) => {
        sent.push(req);
        return Promise.resolve(answer(req));
      },
    },
  } as unknown as Bridge);
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args));
});
unmountAfterEach();
afterEach(() => {
  vi.restoreAllMocks();
});

const passwordInput = () => one('delete-password') as HTMLInputElement;
const confirmButton = () => one('delete-confirm') as HTMLButtonElement;

async function openDelete() {
  await click(one('delete-account-open'));
  await vi.waitFor(() => expect(one('delete-account')).toBeTruthy());
}

/** Nothing the app keeps or logs holds the password. */
function expectNoPasswordKept() {
  expect(JSON.stringify(getActivePinia()?.state.value)).not.toContain(SECRET);
  expect(JSON.stringify(logged)).not.toContain(SECRET);
}

describe('deleting an account', () => {
  it('offline: says so plainly, cannot be confirmed, and sends nothing', async () => {
    const db = openDb();
    await userConfig(db);
    const account = await household(db);
    mounted = await mountWorkspace(db, account.id);
    useConnectivityStore().networkUp = false;
    await settle();
    await openDelete();

    expect(one('delete-offline').textContent).toContain('You are offline: deleting needs a connection');
    expect(passwordInput().disabled).toBe(true);
    expect(confirmButton().disabled).toBe(true);
    expect(sent).toEqual([]);
    expect(await db.accounts.get(account.id)).toBeDefined();
  });

  it('a wrong password: the platform’s words on the password field; the password is wiped and kept nowhere', async () => {
    const db = openDb();
    await userConfig(db);
    const account = await household(db);
    mounted = await mountWorkspace(db, account.id);
    answer = () => ({
      ok: false,
      kind: 'validation',
      status: 422,
      message: 'The given data was invalid.',
      fields: { password: ['The password is incorrect.'] },
      retryAfterMs: null,
    });
    await openDelete();
    expect(passwordInput().type).toBe('password');
    expect(passwordInput().getAttribute('autocomplete')).toBe('off');
    expect(confirmButton().disabled).toBe(true);

    await typeText(passwordInput(), SECRET);
    await click(confirmButton());
    await vi.waitFor(() =>
      expect(one('delete-password-messages').textContent).toContain('The password is incorrect.'),
    );
    expect(passwordInput().getAttribute('aria-invalid')).toBe('true');
    expect(passwordInput().value).toBe('');
    // Sent once, in the request's body, to the version 2 delete.
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      api: 'v2',
      method: 'DELETE',
      path: '/accounts/7',
      body: { password: SECRET },
    });
    expect(await db.accounts.get(account.id)).toBeDefined();
    expectNoPasswordKept();
  });

  it('closing the dialog forgets what was typed', async () => {
    const db = openDb();
    await userConfig(db);
    const account = await household(db);
    mounted = await mountWorkspace(db, account.id);
    await openDelete();
    await typeText(passwordInput(), SECRET);
    await press('Escape');
    await vi.waitFor(() => expect(document.querySelector('[data-testid="delete-account"]')).toBeNull());
    await openDelete();
    expect(passwordInput().value).toBe('');
    expect(sent).toEqual([]);
    expectNoPasswordKept();
  });

  it('the right password: deleted here and there, back to the list', async () => {
    const db = openDb();
    await userConfig(db);
    const account = await household(db);
    mounted = await mountWorkspace(db, account.id);
    await openDelete();
    await typeText(passwordInput(), SECRET);
    await click(confirmButton());
    await vi.waitFor(() => expect(mounted!.router.currentRoute.value.name).toBe('accounts'));
    expect(await db.accounts.get(account.id)).toBeUndefined();
    expect(sent).toHaveLength(1);
    expectNoPasswordKept();
  });

  it('a role that may not delete: the button is disabled and says why', async () => {
    const db = openDb();
    await userConfig(db, ['accounts.clients.delete']);
    const account = await household(db);
    mounted = await mountWorkspace(db, account.id);
    await settle();
    const open = one('delete-account-open') as HTMLButtonElement;
    expect(open.disabled).toBe(true);
    const reason = document.getElementById(open.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toMatch(/delete/i);
  });
});

async function press(key: string) {
  const target = document.activeElement ?? document.body;
  target.dispatchEvent(new KeyboardEvent('keydown', { key, code: key, bubbles: true, cancelable: true }));
  await settle();
}
