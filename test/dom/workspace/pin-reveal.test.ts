// @vitest-environment happy-dom
// The member's PIN on the Members tab, kept on no disk: Show reads it from the platform
// (interactive) and shows it; without the platform the tab says so plainly, never an old or made-up
// PIN; a reset's new PIN is shown once from memory; sign-out, a team switch or another user forget it.

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import type { Bridge } from '@shared/bridge.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { useConnectivityStore } from '../../../renderer/src/common/connectivity.ts';
import { useSessionStore } from '../../../renderer/src/common/session.ts';
import { rememberPin } from '../../../renderer/src/sync/pins.ts';
import { click, household, mountWorkspace, one, openDb, settle } from './harness.ts';

const NO_NETWORK: ApiResult = {
  ok: false,
  kind: 'network',
  status: null,
  message: 'The platform cannot be reached.',
  fields: {},
  retryAfterMs: null,
};

let requests: ApiRequest[] = [];
/** The platform's PIN of each member, by `${account}:${member}`; null: no network. */
let platformPins: Record<string, number> | null = {};

beforeEach(() => {
  requests = [];
  platformPins = { '7:client': 646199, '7:coclient': 512834 };
  useBridge({
    api: {
      request: (req: ApiRequest) => {
        requests.push(req);
        if (platformPins === null) return Promise.resolve(NO_NETWORK);
        const [, , account, member] = req.path.split('/');
        const pin = platformPins[`${account}:${member}`];
        return Promise.resolve({
          ok: true,
          status: 200,
          data: { account_id: Number(account), type: member, status: 'NEW', pin },
        } satisfies ApiResult);
      },
    },
    auth: {
      signOut: () =>
        Promise.resolve({
          ok: true,
          status: { v2: { signedIn: false }, v0: { signedIn: false } },
        }),
    },
  } as unknown as Bridge);
});
unmountAfterEach();

async function membersTab(member: 'client' | 'coclient' = 'client') {
  const db = openDb();
  const account = await household(db);
  await db.memberSecurity.put({
    id: `7:${member}`,
    accountServerId: 7,
    member,
    status: 'NEW',
    server: { account_id: 7, type: member, status: 'NEW' },
    pulledAt: 1,
  });
  await mountWorkspace(db, account.id, { tab: 'members', member });
  await vi.waitFor(() => expect(one('security-status').textContent).toBe('New'));
  return account;
}

describe('showing a member’s PIN', () => {
  it('reads it from the platform when asked, shows it, and forgets it when hidden', async () => {
    await membersTab();
    expect(one('member-pin').textContent).toBe('••••••');
    expect(requests).toEqual([]);

    await click(one('pin-toggle'));
    await vi.waitFor(() => expect(one('member-pin').textContent).toBe('646199'));
    expect(requests).toEqual([
      { api: 'v0', method: 'GET', path: '/accounts/7/client/security', priority: 'interactive' },
    ]);
    expect(one('pin-toggle').getAttribute('aria-pressed')).toBe('true');

    // Hidden, then asked again: read again, so what shows is the PIN in force now.
    await click(one('pin-toggle'));
    expect(one('member-pin').textContent).toBe('••••••');
    platformPins!['7:client'] = 777123;
    await click(one('pin-toggle'));
    await vi.waitFor(() => expect(one('member-pin').textContent).toBe('777123'));
    expect(requests).toHaveLength(2);
  });

  it('says plainly that the PIN needs the platform when it cannot be reached, and shows none', async () => {
    await membersTab();
    platformPins = null;
    await click(one('pin-toggle'));
    await vi.waitFor(() =>
      expect(one('pin-problem').textContent?.trim()).toBe(
        'The PIN can be shown when the platform can be reached.',
      ),
    );
    expect(one('member-pin').textContent).toBe('••••••');
    expect(one('member-security').textContent).not.toMatch(/\d{6}/);

    // The system says it is offline: nothing is even asked.
    const asked = requests.length;
    useConnectivityStore().networkUp = false;
    await click(one('pin-toggle'));
    await settle();
    expect(requests).toHaveLength(asked);
    expect(one('pin-problem').textContent?.trim()).toBe(
      'The PIN can be shown when the platform can be reached.',
    );
  });

  it('shows the PIN a reset brought once, from memory, and sign-out forgets it', async () => {
    await membersTab();
    // The push took a reset's answer: its PIN waits in memory, not on disk.
    rememberPin(7, 'client', { account_id: 7, type: 'client', status: 'NEW', pin: 901234 });
    platformPins = null;
    await click(one('pin-toggle'));
    await vi.waitFor(() => expect(one('member-pin').textContent).toBe('901234'));
    expect(requests).toEqual([]);
    // Shown once: asked again without the platform, there is none.
    await click(one('pin-toggle'));
    await click(one('pin-toggle'));
    await vi.waitFor(() => expect(one('pin-problem')).toBeTruthy());
    expect(one('member-pin').textContent).toBe('••••••');

    // Another reset's PIN, then the advisor signs out: it is forgotten.
    rememberPin(7, 'client', { account_id: 7, type: 'client', status: 'NEW', pin: 456789 });
    expect(await useSessionStore().signOut()).toBe(true);
    await click(one('pin-toggle'));
    await vi.waitFor(() =>
      expect(one('pin-problem').textContent?.trim()).toBe(
        'The PIN can be shown when the platform can be reached.',
      ),
    );
    expect(document.body.textContent).not.toContain('456789');
  });

  it('forgets a reset’s PIN when the team changes, or the user', async () => {
    await membersTab();
    platformPins = null;
    const session = useSessionStore();
    const user = (id: string, team: number) => ({
      id,
      first_name: 'Alex',
      team: { id: team, name: `T${team}` },
    });
    session.user = user('u-1', 1) as never;
    await settle();
    rememberPin(7, 'client', { account_id: 7, type: 'client', status: 'NEW', pin: 318407 });
    // The same user and team read again (a refreshed user resource): kept.
    session.user = user('u-1', 1) as never;
    await settle();
    await click(one('pin-toggle'));
    await vi.waitFor(() => expect(one('member-pin').textContent).toBe('318407'));
    await click(one('pin-toggle'));

    rememberPin(7, 'client', { account_id: 7, type: 'client', status: 'NEW', pin: 318408 });
    session.user = user('u-1', 2) as never;
    await settle();
    await click(one('pin-toggle'));
    await vi.waitFor(() => expect(one('pin-problem')).toBeTruthy());
    expect(one('member-pin').textContent).toBe('••••••');

    rememberPin(7, 'client', { account_id: 7, type: 'client', status: 'NEW', pin: 318409 });
    session.user = user('u-2', 2) as never;
    await settle();
    await click(one('pin-toggle'));
    await settle();
    expect(one('member-pin').textContent).toBe('••••••');
    expect(document.body.textContent).not.toMatch(/31840[89]/);
  });
});
