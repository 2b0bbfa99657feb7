// The account list as the app shows it, mounted in the bench page for sections e) and f): the real
// AccountListView with PrimeVue (the app's Aura preset, styled), Pinia, a hash-history router and
// the app's styles, over the local store page.ts fills (`useLocalDb`). Only the view is mounted,
// inside a box laid out as the app frame's content area, without the frame around it.
//
// Like the rest of test/ this typechecks without the DOM library (tsconfig.json): the little of
// the DOM used here is typed below. The view itself is imported under an alias (modules.d.ts).

import { definePreset } from '@primeuix/themes';
import Aura from '@primeuix/themes/aura';
import AccountListView from 'bench:account-list-view';
import { createPinia } from 'pinia';
import 'primeicons/primeicons.css';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import Tooltip from 'primevue/tooltip';
import { createApp, type App } from 'vue';
import { createRouter, createWebHashHistory, RouterView, type Router } from 'vue-router';
import '../../renderer/src/styles.css';

interface BenchElement {
  textContent: string | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  querySelector(selector: string): BenchElement | null;
  querySelectorAll(selector: string): ArrayLike<BenchElement>;
  appendChild(child: BenchElement): void;
  remove(): void;
  focus(): void;
  addEventListener(type: string, listener: (event: { timeStamp: number }) => void, capture: boolean): void;
  removeEventListener(type: string, listener: (event: { timeStamp: number }) => void, capture: boolean): void;
}
interface BenchMutation {
  attributeName: string | null;
  oldValue: string | null;
}
interface BenchDom {
  document: {
    body: BenchElement;
    createElement(tag: string): BenchElement;
    getElementsByTagName(tag: string): ArrayLike<BenchElement>;
  };
  MutationObserver: new (callback: (records: BenchMutation[]) => void) => {
    observe(target: BenchElement, options: Record<string, unknown>): void;
    disconnect(): void;
  };
  requestAnimationFrame(callback: () => void): number;
}

const dom = globalThis as unknown as BenchDom;

const ROW = '[data-testid="account-name"]';
const COUNT = '[data-testid="account-count"]';
const LIST = '[data-testid="account-list"]';
const EMPTY = '[data-testid="account-empty"]';
const SEARCH = '[data-testid="account-search"]';

/** main.ts's theme: Aura with the app's blue as its primary colour. */
const theme = definePreset(Aura, {
  semantic: {
    primary: Object.fromEntries(
      [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950].map((shade) => [shade, `{blue.${shade}}`]),
    ),
  },
});

/** Other routes the list links to; their screens are not measured. */
const Elsewhere = { render: () => null };

let mounted: { app: App; host: BenchElement; router: Router } | null = null;

/** Resolves with `performance.now()` at the first DOM change after which `done()` holds. */
function when(root: BenchElement, done: () => boolean, timeoutMs = 60_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const observer = new dom.MutationObserver(() => {
      if (!done()) return;
      const at = performance.now();
      finish();
      resolve(at);
    });
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`The list did not render within ${timeoutMs / 1000} s.`));
    }, timeoutMs);
    const finish = () => {
      observer.disconnect();
      clearTimeout(timer);
    };
    observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

/** After the next frame has been produced: a requestAnimationFrame callback, then a task. */
const nextFrame = () =>
  new Promise<number>((resolve) =>
    dom.requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)),
  );

const text = (selector: string) => mounted?.host.querySelector(selector)?.textContent?.trim() ?? '';

/** The list is showing the answer to its current query (its count no longer says it is reading). */
function answered(host: BenchElement): boolean {
  if (host.querySelector(EMPTY)) return true;
  const list = host.querySelector(LIST);
  return (
    list !== null &&
    list.getAttribute('aria-busy') === 'false' &&
    !(host.querySelector(COUNT)?.textContent ?? '').includes('Reading')
  );
}

/**
 * Mounts the list at /accounts (in the order `sort`, as the address keeps it, or the default
 * newest first), as opening it from the app frame does, and times it from
 * `app.mount` to the first rows in the DOM and to the next frame after them; then waits until the
 * list is idle (untimed).
 */
export async function openList(sort?: string) {
  if (mounted) throw new Error('closeList first');
  const host = dom.document.createElement('main');
  host.setAttribute(
    'style',
    'box-sizing: border-box; height: 100vh; padding: 24px 28px; overflow: auto; display: flex; flex-direction: column',
  );
  dom.document.body.appendChild(host);
  const router = createRouter({
    history: createWebHashHistory(),
    routes: [
      { path: '/accounts', name: 'accounts', component: AccountListView },
      { path: '/accounts/board/:pipeline?', name: 'account-board', component: Elsewhere },
      { path: '/accounts/:id', name: 'account', component: Elsewhere },
    ],
  });
  await router.push(sort ? { path: '/accounts', query: { sort } } : '/accounts');
  await router.isReady();
  const app = createApp(RouterView);
  app.use(createPinia());
  app.use(router);
  app.use(PrimeVue, {
    theme: { preset: theme, options: { darkModeSelector: '.app-dark', cssLayer: false } },
  });
  app.use(ToastService);
  app.directive('tooltip', Tooltip);
  mounted = { app, host, router };
  const rowsShown = when(host, () => host.querySelector(ROW) !== null);
  const t0 = performance.now();
  app.mount(host);
  const setupMs = performance.now() - t0;
  const rowsMs = (await rowsShown) - t0;
  const frameMs = (await nextFrame()) - t0;
  const countMs = (answered(host) ? performance.now() : await when(host, () => answered(host))) - t0;
  // The scroller has measured itself and asked for the rows in view by the frame after next.
  await nextFrame();
  await nextFrame();
  return {
    setupMs,
    rowsMs,
    frameMs,
    countMs,
    rows: host.querySelectorAll('.account-row').length,
    count: text(COUNT),
  };
}

export function closeList() {
  if (!mounted) return;
  mounted.app.unmount();
  // The app keeps one router for its life; here every open makes one, and its history listens to
  // the window until destroyed.
  mounted.router.options.history.destroy();
  mounted.host.remove();
  mounted = null;
}

/** Elements in the document, and the account rows among them. */
export function domSize() {
  return {
    elements: dom.document.getElementsByTagName('*').length,
    rows: mounted?.host.querySelectorAll('.account-row').length ?? 0,
  };
}

// ---- f) keystrokes: run.ts types with Playwright's keyboard, the page times -----------------------

interface Keystroke {
  /** The input event's time stamp (when the key reached the page) to … */
  inputAt: number;
  /** … the list showing that it reads (the debounce has passed and the new query started) … */
  busyAt: number;
  /** … the first rows of the new query rendered (the count may still be read) … */
  firstAt: number;
  /** … and the rows and count of the new query rendered. */
  doneAt: number;
}

let pending: Promise<Keystroke> | null = null;

export function focusSearch(): void {
  const input = mounted?.host.querySelector(SEARCH);
  if (!input) throw new Error('openList first');
  input.focus();
}

/**
 * Before a keystroke that makes the search `prefix`: waits for its input event, then for the list
 * to show the first rows of its answer (the list's `data-answer` names the search its rows
 * answer), then for the whole answer.
 */
export function armKeystroke(prefix: string): void {
  const host = mounted?.host;
  const input = host?.querySelector(SEARCH);
  if (!host || !input) throw new Error('openList first');
  pending = new Promise<Keystroke>((resolve, reject) => {
    let inputAt = 0;
    let busyAt = 0;
    let firstAt = 0;
    const onInput = (event: { timeStamp: number }) => {
      inputAt = event.timeStamp;
      input.removeEventListener('input', onInput, true);
    };
    input.addEventListener('input', onInput, true);
    const observer = new dom.MutationObserver((records) => {
      const now = performance.now();
      if (!inputAt) return;
      // The list marks itself busy when its query changes (`aria-busy`), and clears the mark in the
      // render that shows the answer's rows and count.
      const list = host.querySelector(LIST);
      if (
        !busyAt &&
        (list?.getAttribute('aria-busy') === 'true' ||
          records.some((r) => r.attributeName === 'aria-busy' && r.oldValue === 'false'))
      )
        busyAt = now;
      if (
        !firstAt &&
        list?.getAttribute('data-answer') === prefix &&
        (host.querySelector(ROW) || host.querySelector(EMPTY))
      )
        firstAt = now;
      if (busyAt && answered(host)) {
        finish();
        resolve({ inputAt, busyAt, firstAt: firstAt || now, doneAt: now });
      }
    });
    const timer = setTimeout(() => {
      finish();
      reject(new Error('No answer rendered within 60 s of the keystroke.'));
    }, 60_000);
    const finish = () => {
      observer.disconnect();
      clearTimeout(timer);
      input.removeEventListener('input', onInput, true);
    };
    observer.observe(host, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeOldValue: true,
    });
  });
}

/** The armed keystroke's times, and what the list shows afterwards. */
export async function keystrokeResult() {
  if (!pending) throw new Error('armKeystroke first');
  const k = await pending;
  pending = null;
  return {
    feltMs: k.doneAt - k.inputAt,
    firstMs: k.firstAt - k.inputAt,
    debounceMs: k.busyAt - k.inputAt,
    workMs: k.doneAt - k.busyAt,
    count: text(COUNT),
    first: text(ROW),
  };
}

// ---- i) the keystroke felt, answered from the list index ---------------------------------------

let felt: Promise<{ inputAt: number; doneAt: number; frameAt: number }> | null = null;

/**
 * Before a keystroke that makes the search `prefix`, whose answer counts `count` accounts: from
 * its input event to the first DOM change after which the list shows the rows and the count of
 * that answer (its data-answer, the count's words, not busy), and to the frame that shows them
 * (the next requestAnimationFrame callback, where the page is painted).
 */
export function armFelt(prefix: string, count: string): void {
  const host = mounted?.host;
  const input = host?.querySelector(SEARCH);
  if (!host || !input) throw new Error('openList first');
  felt = new Promise((resolve, reject) => {
    let inputAt = 0;
    const onInput = (event: { timeStamp: number }) => {
      inputAt = event.timeStamp;
      input.removeEventListener('input', onInput, true);
      check();
    };
    input.addEventListener('input', onInput, true);
    const right = () => {
      const list = host.querySelector(LIST);
      const shown =
        count === '0 accounts match' ? host.querySelector(EMPTY) !== null : host.querySelector(ROW) !== null;
      return (
        shown &&
        text(COUNT) === count &&
        (count === '0 accounts match' ||
          (list?.getAttribute('data-answer') === prefix && list.getAttribute('aria-busy') === 'false'))
      );
    };
    const check = () => {
      if (!inputAt || !right()) return;
      const doneAt = performance.now();
      finish();
      dom.requestAnimationFrame(() => resolve({ inputAt, doneAt, frameAt: performance.now() }));
    };
    const observer = new dom.MutationObserver(check);
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`"${prefix}" did not show ${count} within 60 s of its keystroke.`));
    }, 60_000);
    const finish = () => {
      observer.disconnect();
      clearTimeout(timer);
      input.removeEventListener('input', onInput, true);
    };
    observer.observe(host, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

/** The armed keystroke: input event → DOM right, → the frame showing it; and the first row shown. */
export async function feltResult() {
  if (!felt) throw new Error('armFelt first');
  const k = await felt;
  felt = null;
  return { domMs: k.doneAt - k.inputAt, frameMs: k.frameAt - k.inputAt, first: text(ROW) };
}
