// @vitest-environment happy-dom
// The sync status control and its panel, over the real sync store and coordinator with a bridge
// that finds no network (as at a client meeting): offline with what waits, refused changes with
// the platform's field messages and conflicts listed, and each entry leading to the record's own
// form in the workspace — the item opened, the messages on its fields, or the side-by-side view.

import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import Tooltip from 'primevue/tooltip';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { defineComponent, h } from 'vue';
import { createMemoryHistory, createRouter, RouterView, type Router } from 'vue-router';
import type { ApiResult } from '@shared/api/request.ts';
import type { Bridge } from '@shared/bridge.ts';
import SyncStatus from '../../../renderer/src/sync-status/SyncStatus.vue';
import {
  createRecord,
  recordOps,
  refreshRow,
  updateRecord,
} from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { useLocalDb } from '../../../renderer/src/data/identity/current-store.ts';
import type { Operation, SyncedTable } from '../../../renderer/src/data/model.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { useSyncStore } from '../../../renderer/src/common/sync.ts';
import AccountWorkspace from '../../../renderer/src/workspace/AccountWorkspaceView.vue';
import {
  click,
  dialog,
  household,
  messagesOf,
  one,
  openDb,
  settle,
  syncedAccount,
  syncedItem,
} from './harness.ts';
import { clientFields } from '../../support/store.ts';
import type { AuthStatus } from '@shared/auth.ts';
import { readStoreIdentity, storeName } from '../../../renderer/src/data/identity/index.ts';
import type { PlatformUser } from '../../../renderer/src/common/platform.ts';
import { useSessionStore } from '../../../renderer/src/common/session.ts';
import { NO_NETWORK } from '../../support/no-network.ts';

const noNetwork = (): Promise<ApiResult> => Promise.resolve(NO_NETWORK);

let db: AdvisorDb;
let router: Router;

beforeEach(() => {
  db = openDb();
  useLocalDb(db);
  useBridge({ api: { request: noNetwork } } as unknown as Bridge);
});
afterEach(async () => {
  await db.delete();
});
unmountAfterEach();
afterEach(async () => {
  await useSyncStore().stop();
});

const lakeHouse = {
  type: 'primary-residence',
  name: 'Lake house',
  owner: { type: 'client', id: null },
  current_value: { value: 450000, frequency: 'one-time' },
};

/** Moves a record's last operation to a state, as the push engine does, with the row's badge. */
async function settleOp(table: SyncedTable, id: string, change: Partial<Operation>): Promise<Operation> {
  const ops = await recordOps(db, table, id);
  const op = { ...ops.at(-1)!, ...change };
  await db.outbox.put(op);
  const rows = db.table(table);
  await rows.put(refreshRow(table, await rows.get(id), await recordOps(db, table, id)));
  return op;
}

/** The platform refuses a record's last change with a validation answer (422): its message and field messages. */
const refuse = (table: SyncedTable, id: string, message: string, fields: Record<string, string[]>) =>
  settleOp(table, id, { state: 'rejected', lastError: { kind: 'validation', status: 422, message, fields } });

/** A household with one refused asset, one conflicted asset, an account refused, and a new goal waiting. */
async function meeting() {
  const account = await household(db);
  const refused = await syncedItem(db, account.id, 'assets', 'a|1', lakeHouse);
  await updateRecord(db, 'sectionItems', refused.id, { current_value: null });
  await refuse('sectionItems', refused.id, 'The given data was invalid.', {
    'current-value': ['current-value is required.'],
  });
  const cabin = await syncedItem(db, account.id, 'assets', 'a|2', { ...lakeHouse, name: 'Lake cabin' });
  await updateRecord(db, 'sectionItems', cabin.id, { name: 'Lake cottage' });
  const op = await settleOp('sectionItems', cabin.id, { state: 'conflict' });
  await db.conflicts.add({
    id: op.id,
    table: 'sectionItems',
    recordId: cabin.id,
    fields: { name: { base: 'Lake cabin', mine: 'Lake cottage', theirs: 'Lake lodge' } },
    detectedAt: Date.now(),
  });
  await db.sectionItems.update(cabin.id, { status: 'conflict' });
  const other = await syncedAccount(db, 8, clientFields('Zed'));
  await updateRecord(db, 'accounts', other.id, { 'client.email': 'not-an-email' });
  await refuse('accounts', other.id, 'The given data was invalid.', {
    'client.email': ['The client.email must be a valid email address.'],
  });
  await createRecord(db, 'sectionItems', {
    accountId: account.id,
    section: 'goals',
    fields: { name: 'College for Mia' },
  });
  return { account, refused, cabin, other };
}

async function mountFrame(): Promise<void> {
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/accounts', name: 'accounts', component: { render: () => h('div', 'accounts') } },
      { path: '/accounts/:id', name: 'account', component: AccountWorkspace },
      { path: '/sign-in', name: 'sign-in', component: { render: () => h('div', 'sign in') } },
    ],
  });
  await router.push('/accounts');
  await router.isReady();
  const pinia = createPinia();
  setActivePinia(pinia);
  // Signed in as the user and team whose store this is (the identity kept with the tokens).
  useSessionStore().status = { identity: await readStoreIdentity(db) } as unknown as AuthStatus;
  const Frame = defineComponent({ render: () => h('div', [h(SyncStatus), h(RouterView)]) });
  mount(Frame, {
    attachTo: document.body,
    global: {
      plugins: [pinia, router, [PrimeVue, { theme: 'none' }], ToastService],
      directives: { tooltip: Tooltip },
      stubs: { transition: false, 'transition-group': false },
    },
  });
  expect(await useSyncStore().start()).toBe(true);
}

const entry = (id: string, text: string) =>
  [...document.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)].find((e) =>
    e.textContent?.includes(text),
  )!;

async function openPanel() {
  await click(one('sync-status'));
  await vi.waitFor(() => expect(one('sync-panel')).toBeTruthy());
  await settle();
}

describe('the sync status control', () => {
  it('shows offline, what waits and what needs the user; the panel lists each with its words', async () => {
    await meeting();
    await mountFrame();
    const sync = useSyncStore();
    await vi.waitFor(() => expect(sync.phase).toBe('offline'));
    await vi.waitFor(() => expect(one('sync-problems').textContent).toContain('3 to fix'));

    const status = one('sync-status');
    expect(status.getAttribute('data-phase')).toBe('offline');
    expect(one('connection').textContent).toBe('Platform unreachable');
    expect(one('sync-state').textContent).toContain('1 to send');
    expect(status.getAttribute('aria-label')).toMatch(/1 change waits to be sent\. 3 changes need you\./);
    expect(status.getAttribute('aria-expanded')).toBe('false');
    // The phase change was announced.
    expect(one('sync-announcement').textContent).toContain('Platform unreachable.');

    await openPanel();
    expect(status.getAttribute('aria-expanded')).toBe('true');
    const panel = one('sync-panel');
    expect(panel.textContent).toContain('cannot be reached');
    expect(one('last-synced').textContent).toBe('No exchange with the platform yet on this computer');

    const refused = entry('rejected-entry', 'Assets “Lake house”');
    expect(refused.textContent).toContain('Ann Tester');
    // In the advisor's words, with the field's label and what to do.
    expect(refused.querySelector('[data-testid="rejected-fields"]')?.textContent).toContain(
      'Current value: required, enter an amount.',
    );
    // An account's field by its label, never its key (`client.email`), in the account dialog's words.
    expect(entry('rejected-entry', 'Zed Tester').textContent).toContain(
      'Client email: enter an e-mail address such as name@example.com.',
    );
    expect(entry('rejected-entry', 'Zed Tester').textContent).not.toContain('client.email');
    expect(entry('conflict-entry', 'Lake cottage').textContent).toContain('Both changed: name');
    await vi.waitFor(() => expect(entry('pending-entry', 'College for Mia').textContent).toContain('New'));
    expect(one('sync-pending').textContent).toContain('Waiting to be sent (1)');
  });

  it('a refused item: click opens its section and form with the platform’s message on the field', async () => {
    const { account } = await meeting();
    await mountFrame();
    await vi.waitFor(() => expect(useSyncStore().rejected).toHaveLength(2));
    await openPanel();

    await click(entry('rejected-entry', 'Lake house').querySelector('button')!);
    await vi.waitFor(() => expect(router.currentRoute.value.params.id).toBe(account.id));
    await vi.waitFor(() =>
      expect(dialog().querySelector<HTMLInputElement>('[data-field="name"] input')?.value).toBe('Lake house'),
    );
    expect(router.currentRoute.value.query).toMatchObject({ tab: 'financials', section: 'assets' });
    // The one-shot request is forgotten: the address stays a plain section address.
    await vi.waitFor(() => expect(router.currentRoute.value.query.item).toBeUndefined());
    expect(messagesOf(dialog(), 'current_value')).toBe('Current value: required, enter an amount.');
    // The panel closed on its way.
    expect(document.querySelector('[data-testid="sync-panel"]')).toBeNull();
  });

  it('a conflict: click opens the side-by-side view of that record', async () => {
    await meeting();
    await mountFrame();
    await vi.waitFor(() => expect(useSyncStore().conflicts).toHaveLength(1));
    await openPanel();

    await click(entry('conflict-entry', 'Lake cottage').querySelector('button')!);
    await vi.waitFor(() => expect(one('conflict').textContent).toContain('Lake lodge'));
    expect(dialog().contains(one('conflict'))).toBe(true);
  });

  it('a refused account change: click opens the account form with the message on its field', async () => {
    const { other } = await meeting();
    await mountFrame();
    await vi.waitFor(() => expect(useSyncStore().rejected).toHaveLength(2));
    await openPanel();

    await click(entry('rejected-entry', 'Zed Tester').querySelector('button')!);
    await vi.waitFor(() => expect(router.currentRoute.value.params.id).toBe(other.id));
    await vi.waitFor(() =>
      expect(one('account-form-refused').textContent).toContain('refused the last change'),
    );
    // The platform's refusal on the field it named, in the advisor's words (no raw field name).
    expect(document.getElementById('account-client-email-messages')?.textContent).toContain(
      'Email: enter an e-mail address such as name@example.com.',
    );
    await vi.waitFor(() => expect(router.currentRoute.value.query.edit).toBeUndefined());
  });
});

describe('changes waiting under another team', () => {
  it('the panel says how many wait for that team, and offers the switch only when online', async () => {
    const identity = (await readStoreIdentity(db))!;
    const harbor = openDb(storeName({ user: identity.user, team: 2 }), { user: identity.user, team: 2 });
    try {
      await createRecord(harbor, 'accounts', { fields: clientFields('Hana') });
      await createRecord(harbor, 'accounts', { fields: clientFields('Ike') });
      await createRecord(harbor, 'accounts', { fields: clientFields('Jo') });
      await mountFrame();
      const session = useSessionStore();
      const teams = [
        { id: identity.team, name: 'Main Street Advisors' },
        { id: 2, name: 'Harbor Wealth Partners' },
      ];
      session.user = { team: teams[0], teams } as unknown as PlatformUser;
      await vi.waitFor(() => expect(useSyncStore().phase).toBe('offline'));
      await openPanel();

      await vi.waitFor(() =>
        expect(one('elsewhere-entry').textContent).toContain('3 changes wait for Harbor Wealth Partners'),
      );
      const button = one('elsewhere-entry').querySelector('button')!;
      expect(button.textContent).toContain('Switch to Harbor Wealth Partners and send them');
      // The platform cannot be reached here: the switch waits, and says why.
      expect(button.disabled).toBe(true);
      expect(one('elsewhere-offline').textContent).toMatch(/Switching teams needs the platform/);
      // Those changes are not this team's to send.
      expect(one('sync-panel').textContent).not.toContain('Waiting to be sent');
      // Nor is everything synced while they wait: the header says they wait for another team.
      expect(one('sync-state').textContent?.trim()).toBe('3 for another team');
      expect(one('sync-status').textContent).not.toContain('All changes sent');
      expect(one('sync-status').getAttribute('aria-label')).toContain('3 changes wait for your other teams.');
    } finally {
      await harbor.delete();
    }
  });
});

describe('the platform’s team switched on another device', () => {
  it('the panel says so, and the change stays waiting', async () => {
    const account = await syncedAccount(db, 7);
    await updateRecord(db, 'accounts', account.id, { 'client.first_name': 'Bea' });
    // Under Harbor Wealth Partners the account is out of sight: 404, and /user names Harbor.
    const harborCurrent = (req: { path: string }): Promise<ApiResult> =>
      Promise.resolve(
        req.path === '/user'
          ? { ok: true, status: 200, data: { team: { id: 2, name: 'Harbor Wealth Partners' } } }
          : {
              ok: false,
              kind: 'not-found',
              status: 404,
              message: 'Not found.',
              fields: {},
              retryAfterMs: null,
            },
      );
    useBridge({ api: { request: harborCurrent } } as unknown as Bridge);
    await mountFrame();
    const identity = (await readStoreIdentity(db))!;
    const teams = [
      { id: identity.team, name: 'Main Street Advisors' },
      { id: 2, name: 'Harbor Wealth Partners' },
    ];
    useSessionStore().user = { team: teams[0], teams } as unknown as PlatformUser;
    await vi.waitFor(() => expect(useSyncStore().teamMoved).toEqual({ team: 2 }));
    await openPanel();

    expect(one('team-moved').textContent).toMatch(
      /Harbor Wealth Partners as your current team now.*until Main Street Advisors is current/s,
    );
    expect(useSyncStore().conflicts).toEqual([]);
    expect(one('sync-pending').textContent).toContain('Waiting to be sent (1)');
  });
});

describe('a refusal', () => {
  it('is listed once, in the advisor’s words, however the platform repeats it in its answer', async () => {
    const account = await household(db);
    const asset = await syncedItem(db, account.id, 'assets', 'a|1', lakeHouse);
    await updateRecord(db, 'sectionItems', asset.id, { current_value: null });
    // As the 0.0.1 interface answers: its messages are the message and, by field, the field messages.
    await refuse('sectionItems', asset.id, 'current-value is required.', {
      'current-value': ['current-value is required.'],
    });
    const other = await syncedAccount(db, 8, clientFields('Zed'));
    await updateRecord(db, 'accounts', other.id, { 'client.email': 'not-an-email' });
    // As version 2 answers: the first field message, and how many more.
    await refuse(
      'accounts',
      other.id,
      'The client.email field must be a valid email address. (and 1 more error)',
      {
        'client.email': ['The client.email field must be a valid email address.'],
        'client.first_name': ['The client.first_name field is required.'],
      },
    );
    await mountFrame();
    await vi.waitFor(() => expect(useSyncStore().rejected).toHaveLength(2));
    await openPanel();

    const times = (text: string, part: string) => text.split(part).length - 1;
    expect(document.querySelectorAll('[data-testid="rejected-entry"]')).toHaveLength(2);
    const asset1 = entry('rejected-entry', 'Lake house').textContent ?? '';
    expect(times(asset1, 'Current value: required, enter an amount.')).toBe(1);
    const zed = entry('rejected-entry', 'Zed Tester').textContent ?? '';
    expect(times(zed, 'Client email: enter an e-mail address such as name@example.com.')).toBe(1);
    expect(zed).not.toContain('more error');
  });
});
