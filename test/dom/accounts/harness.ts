// Mounts the account screens as the app does: the real views at their routes, PrimeVue, Pinia and
// a router, over a fresh local store (fake-indexeddb) filled as a pull would leave it. Test files
// that use it run in happy-dom (`// @vitest-environment happy-dom`).
//
// happy-dom lays nothing out, so a virtual scroller would see a viewport of 0 pixels: `withLayout`
// gives the scrollers a height and the paddings a browser computes, what of layout they read.

import { mount, type VueWrapper } from '@vue/test-utils';
import Dexie from 'dexie';
import { createPinia } from 'pinia';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { settle, unmountAfterEach } from '../../support/dom/mount.ts';

export { settle };
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import Tooltip from 'primevue/tooltip';
import { h } from 'vue';
import { createMemoryHistory, createRouter, RouterView, type Router } from 'vue-router';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { useLocalDb } from '../../../renderer/src/data/identity/current-store.ts';
import AccountListView from '../../../renderer/src/accounts/AccountListView.vue';
import PipelineBoardView from '../../../renderer/src/accounts/PipelineBoardView.vue';
import { fakeIdb, openDb } from '../../support/store.ts';

export { openDb };
export { ALL_PERMISSIONS, STAGES, account, userConfig, type AccountSpec } from './harness-data.ts';

// Live queries run only where Dexie finds an IndexedDB of its own: give it the fake one.
Object.assign(Dexie.dependencies, fakeIdb);

export interface Mounted {
  wrapper: VueWrapper;
  router: Router;
}

/** Mounts the app's account routes at `path` over `db`. */
export async function mountAt(db: AdvisorDb, path: string): Promise<Mounted> {
  useLocalDb(db);
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/accounts', name: 'accounts', component: AccountListView },
      { path: '/accounts/board/:pipeline?', name: 'account-board', component: PipelineBoardView },
      // The workspace is another screen's: the route is what matters here.
      { path: '/accounts/:id', name: 'account', component: { render: () => h('div') } },
    ],
  });
  await router.push(path);
  await router.isReady();
  const wrapper = mount(RouterView, {
    attachTo: document.body,
    global: {
      plugins: [createPinia(), router, [PrimeVue, { theme: 'none' }], ToastService],
      directives: { tooltip: Tooltip },
      stubs: { transition: false, 'transition-group': false },
    },
  });
  // The first answer of the local store is in (the list's count no longer says it is reading).
  await vi.waitFor(() => expect(document.body.textContent).not.toContain('Reading accounts…'));
  await settle();
  return { wrapper, router };
}

/** Gives every virtual scroller a viewport of `height` pixels (happy-dom lays nothing out). */
export function withLayout(height = 600): () => void {
  const proto = HTMLElement.prototype;
  const saved = {
    offsetHeight: Object.getOwnPropertyDescriptor(proto, 'offsetHeight'),
    offsetWidth: Object.getOwnPropertyDescriptor(proto, 'offsetWidth'),
    offsetParent: Object.getOwnPropertyDescriptor(proto, 'offsetParent'),
  };
  const isScroller = (el: HTMLElement) => el.getAttribute('data-pc-name') === 'virtualscroller';
  Object.defineProperty(proto, 'offsetHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return isScroller(this) ? height : 0;
    },
  });
  Object.defineProperty(proto, 'offsetWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return isScroller(this) ? 800 : 0;
    },
  });
  Object.defineProperty(proto, 'offsetParent', {
    configurable: true,
    get(this: HTMLElement) {
      return this.isConnected ? document.body : null;
    },
  });
  // Browsers compute an unset padding as `0px`; happy-dom leaves it empty (NaN in the scroller's sums).
  const own = Object.getOwnPropertyDescriptor(window, 'getComputedStyle');
  const computed = window.getComputedStyle.bind(window);
  window.getComputedStyle = (el: Element, pseudo?: string | null) => {
    const style = computed(el, pseudo);
    return new Proxy(style, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop);
        if (typeof prop === 'string' && prop.startsWith('padding') && value === '') return '0px';
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  return () => {
    for (const [name, d] of Object.entries(saved)) if (d) Object.defineProperty(proto, name, d);
    if (own) Object.defineProperty(window, 'getComputedStyle', own);
    else Reflect.deleteProperty(window, 'getComputedStyle');
  };
}

export const byTestId = (id: string, root: ParentNode = document.body): HTMLElement[] => [
  ...root.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`),
];

export function one(id: string, root: ParentNode = document.body): HTMLElement {
  const all = byTestId(id, root);
  if (all.length !== 1) throw new Error(`Expected one [data-testid="${id}"], found ${all.length}.`);
  return all[0] as HTMLElement;
}

export const texts = (id: string, root: ParentNode = document.body): string[] =>
  byTestId(id, root).map((el) => el.textContent?.trim() ?? '');

export async function click(el: Element): Promise<void> {
  el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  await settle();
}

/** The button of a PrimeVue select-button (or any button) with this label, inside `root`. */
export function button(root: ParentNode, label: string): HTMLElement {
  const found = [...root.querySelectorAll<HTMLElement>('button, [role="button"]')].find(
    (b) => b.textContent?.trim() === label || b.getAttribute('aria-label') === label,
  );
  if (!found) throw new Error(`No button “${label}”.`);
  return found;
}

export async function typeText(input: HTMLInputElement, value: string): Promise<void> {
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

/** Picks an option of the open PrimeVue select by its label, as a user clicks it. */
export async function chooseOption(select: HTMLElement, label: string): Promise<void> {
  select.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  await settle();
  const overlay = [...document.body.querySelectorAll<HTMLElement>('.p-select-overlay')].at(-1);
  const option = [...(overlay?.querySelectorAll<HTMLElement>('.p-select-option') ?? [])].find(
    (o) => o.textContent?.trim() === label,
  );
  if (!option) throw new Error(`No option “${label}”.`);
  option.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
  option.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  await settle();
}

export async function press(target: EventTarget, key: string, init: KeyboardEventInit = {}): Promise<void> {
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));
  await settle();
}

/** Client names of the list's rows, top to bottom. */
export const listedNames = (): string[] => texts('account-name');

/**
 * The hooks of every test file over the account screens: before each test a fresh store and the
 * scrollers' layout; after it, the mounted app unmounted and the document emptied. `db` is the
 * current test's store; a test puts what it mounts in `mounted`.
 */
export function screensPerTest(): { db: AdvisorDb; mounted: Mounted | null } {
  let restoreLayout = () => {};
  // Set before each test, as vitest runs it.
  const screen = { db: undefined as unknown as AdvisorDb, mounted: null as Mounted | null };
  beforeEach(() => {
    restoreLayout = withLayout();
    screen.db = openDb();
    screen.mounted = null;
  });
  // After the unmount (hooks after a test run in the reverse of their order).
  afterEach(() => restoreLayout());
  unmountAfterEach();
  return screen;
}
