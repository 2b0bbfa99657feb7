// Mounts an account's workspace as the app does: the real page at route `account`, PrimeVue,
// Pinia and a router, over a fresh local store (fake-indexeddb) the test fills as a pull would;
// and its section forms (a member's details, a section's page, a new item's dialog) as an advisor
// reaches them. Test files that use it run in happy-dom (`// @vitest-environment happy-dom`) and
// call `unmountAfterEach()` (test/support/dom/mount.ts) once.

import { mount, type VueWrapper } from '@vue/test-utils';
import { settle } from '../../support/dom/mount.ts';
import Dexie from 'dexie';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import Tooltip from 'primevue/tooltip';
import { expect, vi } from 'vitest';
import { defineComponent, h, type Component } from 'vue';
import { createMemoryHistory, createRouter, RouterView, type Router } from 'vue-router';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { useLocalDb } from '../../../renderer/src/data/identity/current-store.ts';
import { accountPartKeys, membersOf } from '../../../renderer/src/data/coverage.ts';
import type { AccountRow, Fields, SingleRow } from '../../../renderer/src/data/model.ts';
import AccountWorkspace from '../../../renderer/src/workspace/AccountWorkspaceView.vue';
import {
  clientFields,
  fakeIdb,
  openDb,
  outbox,
  syncedAccount,
  syncedItem,
  syncedSingle,
} from '../../support/store.ts';

export { openDb, outbox, settle, syncedAccount, syncedItem, syncedSingle };

// Live queries run only where Dexie finds an IndexedDB of its own (`Dexie.dependencies`), which
// neither Node nor happy-dom has: give it the fake one the test databases live in.
Object.assign(Dexie.dependencies, fakeIdb);

export interface Mounted {
  wrapper: VueWrapper;
  router: Router;
  db: AdvisorDb;
}

/**
 * An account with a client and a co-client, already on the platform and pulled here in full: the
 * sections a test writes are all the platform has.
 */
export async function household(db: AdvisorDb, serverId = 7) {
  const account = await syncedAccount(db, serverId, {
    ...clientFields('Ann'),
    'coclient.first_name': 'Bob',
    'coclient.last_name': 'Tester',
    'coclient.email': 'bob@example.com',
  });
  return pulledInFull(db, account);
}

/** An account as a whole pull leaves it: every part arrived (data/coverage.ts). */
export async function pulledInFull(db: AdvisorDb, account: AccountRow): Promise<AccountRow> {
  const parts = Object.fromEntries(accountPartKeys(membersOf(account.meta)).map((key) => [key, 1]));
  await db.accounts.update(account.id, { pulledAt: 1, parts });
  return (await db.accounts.get(account.id))!;
}

/** `beside`: parts of the shell drawn next to the page (the command palette, the toasts). */
export async function mountWorkspace(
  db: AdvisorDb,
  accountId: string,
  query: Record<string, string> = {},
  { beside = [] }: { beside?: Component[] } = {},
): Promise<Mounted> {
  useLocalDb(db);
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/accounts', name: 'accounts', component: { render: () => h('div', 'accounts') } },
      { path: '/accounts/:id', name: 'account', component: AccountWorkspace },
      // The Engagements tab links to the area and to one engagement.
      { path: '/engagements', name: 'engagements', component: { render: () => h('div', 'engagements') } },
      { path: '/engagements/:id', name: 'engagement', component: { render: () => h('div', 'engagement') } },
    ],
  });
  await router.push({ name: 'account', params: { id: accountId }, query });
  await router.isReady();
  const App = defineComponent({
    render: () => (beside.length ? h('div', [h(RouterView), ...beside.map((c) => h(c))]) : h(RouterView)),
  });
  const wrapper = mount(App, {
    attachTo: document.body,
    global: {
      plugins: [createPinia(), router, [PrimeVue, { theme: 'none' }], ToastService],
      directives: { tooltip: Tooltip },
      // Real transitions: dialogs and lists report "shown" and "hidden" as they do in the app.
      // Chart.js needs a canvas context, which happy-dom lacks: the figures beside each chart are
      // asserted here, the drawn charts in the end-to-end screenshots.
      stubs: { transition: false, 'transition-group': false, Chart: true },
    },
  });
  await vi.waitFor(() => expect(wrapper.find('[data-testid="workspace-title"]').exists()).toBe(true));
  return { wrapper, router, db };
}

export interface HouseholdMount<Held = unknown> extends Mounted {
  account: AccountRow;
  /** What `hold` gave back: the rows it wrote, for the test to name. */
  held: Held;
}

/** What a test writes into the store before the workspace opens: rows as a pull leaves them. */
type Hold<Held> = (db: AdvisorDb, account: AccountRow) => Promise<Held>;

/**
 * A fresh store holding a household pulled in full (`household`) and what `hold` writes, with
 * the account's workspace mounted at `query`.
 */
export async function mountHousehold<Held = undefined>(
  query: Record<string, string> = {},
  hold?: Hold<Held>,
): Promise<HouseholdMount<Held>> {
  const db = openDb();
  const account = await household(db);
  const held = (await hold?.(db, account)) as Held;
  return { ...(await mountWorkspace(db, account.id, query)), account, held };
}

/** The client's details as the platform holds them in the form tests. */
export const ANN_DETAILS = { first_name: 'Ann', last_name: 'Tester', email: 'ann@example.com' };

/**
 * The client's details form on the Members tab (`page`), the platform holding `details` for the
 * client (`held`: their row) and what `hold` writes.
 */
export async function mountMemberDetails(
  details: Fields = ANN_DETAILS,
  hold?: Hold<unknown>,
): Promise<HouseholdMount<SingleRow> & { page: HTMLElement }> {
  const mounted = await mountHousehold({ tab: 'members', member: 'client' }, async (db, account) => {
    const row = await syncedSingle(db, account.id, 'details:client', details);
    await hold?.(db, account);
    return row;
  });
  return { ...mounted, page: one('single-details:client') };
}

/** A financial section's page (`assets`, `income:client` …) in the workspace. */
export function mountSection<Held = undefined>(
  section: string,
  hold?: Hold<Held>,
): Promise<HouseholdMount<Held>> {
  return mountHousehold({ tab: 'financials', section }, hold);
}

/** The dialog of a new item of `section`, opened with the section's Add button. */
export async function openNewItem<Held = undefined>(
  section: string,
  hold?: Hold<Held>,
): Promise<HouseholdMount<Held>> {
  const mounted = await mountSection(section, hold);
  await click(one('add-item'));
  return mounted;
}

export const byTestId = (id: string): HTMLElement[] => [
  ...document.body.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`),
];

/** The one element of a test id in the whole page (dialogs render outside the wrapper). */
export function one(id: string): HTMLElement {
  const all = byTestId(id);
  if (all.length !== 1) throw new Error(`Expected one [data-testid="${id}"], found ${all.length}.`);
  return all[0] as HTMLElement;
}

/** The form field `name` inside `root` (dialog, page). */
export function field(root: ParentNode, name: string): HTMLElement {
  const el = root.querySelector<HTMLElement>(`.field[data-field="${name}"]`);
  if (!el) throw new Error(`No field ${name}.`);
  return el;
}

/** The warnings beneath a field, which do not stop a save. */
export const notesOf = (root: ParentNode, name: string): string =>
  field(root, name).querySelector('[data-testid="field-notes"]')?.textContent?.trim() ?? '';

/** What a field says once the advisor confirmed a doubtful value. */
export const confirmedOf = (root: ParentNode, name: string): string =>
  field(root, name).querySelector('[data-testid="field-confirmed"]')?.textContent?.trim() ?? '';

/** The box “This is right: keep it” beneath a field, when it has one. */
export const confirmBox = (root: ParentNode, name: string): HTMLInputElement | null =>
  field(root, name).querySelector<HTMLInputElement>('[data-testid="field-confirm"] input');

/** What a select of the field shows chosen (its label). */
export const shownIn = (root: ParentNode, name: string): string =>
  field(root, name).querySelector('.p-select-label')?.textContent?.trim() ?? '';

export function messagesOf(root: ParentNode, name: string): string {
  return field(root, name).querySelector('[data-testid="field-messages"]')?.textContent?.trim() ?? '';
}

export async function typeText(input: HTMLInputElement | HTMLTextAreaElement, value: string): Promise<void> {
  input.focus();
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await settle();
}

export async function blur(el: HTMLElement): Promise<void> {
  el.dispatchEvent(new FocusEvent('blur'));
  el.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
  await settle();
}

/** Types a date as the user writes dates (the browser's numeric date), and leaves the field. */
export async function typeDate(
  root: ParentNode,
  name: string,
  y: number,
  m: number,
  d: number,
): Promise<void> {
  const input = inputOf(root, name);
  await typeText(
    input,
    new Intl.DateTimeFormat(navigator.language, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(
      new Date(y, m - 1, d),
    ),
  );
  await blur(input);
}

/** Types a number into a PrimeVue number input: the value is taken when the input is left. */
export async function typeNumber(root: ParentNode, name: string, value: number): Promise<void> {
  const input = field(root, name).querySelector<HTMLInputElement>('input');
  if (!input) throw new Error(`No number input in ${name}.`);
  input.focus();
  input.value = String(value);
  await blur(input);
}

/** Picks an option of a PrimeVue select by its label, as a user clicks it. */
export async function choose(root: ParentNode, name: string, label: string): Promise<void> {
  const select = field(root, name).querySelector<HTMLElement>('.p-select');
  if (!select) throw new Error(`No select in ${name}.`);
  select.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  await settle();
  const option = optionsOpen().find((o) => o.textContent?.trim() === label);
  if (!option)
    throw new Error(
      `No option “${label}” in ${name}: ${optionsOpen()
        .map((o) => o.textContent?.trim())
        .join(', ')}`,
    );
  await pick(option);
}

/** Chooses an option of an open list: the select takes it on mouse down. */
export async function pick(option: HTMLElement): Promise<void> {
  option.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
  option.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  await settle();
}

/** The options of the select list open on the page. */
export function optionsOpen(): HTMLElement[] {
  const overlay = [...document.body.querySelectorAll<HTMLElement>('.p-select-overlay')].at(-1);
  return [...(overlay?.querySelectorAll<HTMLElement>('.p-select-option') ?? [])];
}

export async function click(el: Element): Promise<void> {
  el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  await settle();
}

export async function press(
  key: string,
  init: KeyboardEventInit = {},
  target: EventTarget = document.activeElement ?? document.body,
): Promise<void> {
  const code = /^[a-z]$/i.test(key) ? `Key${key.toUpperCase()}` : key;
  target.dispatchEvent(new KeyboardEvent('keydown', { key, code, bubbles: true, cancelable: true, ...init }));
  await settle();
}

/** The dialog of an item form, open on the page. */
export function dialog(): HTMLElement {
  return one('item-dialog');
}

/** The text input (or text area) of the form field `name` inside `root`. */
export const inputOf = (root: ParentNode, name: string) =>
  field(root, name).querySelector('input, textarea') as HTMLInputElement;
