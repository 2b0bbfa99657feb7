// @vitest-environment happy-dom
// A long list's table (ListTable) with its query kept in the address (useAddressQuery), mounted
// for real behind a router: the header's columns sort the list and carry their classes, only the
// rows in view are drawn (a row not read yet as a placeholder), scrolling asks for the next ones
// and a row keeps its element while the window slides; the query read from the address falls back
// to its defaults where the address is stale, and is written back without the fields at their
// default, never after a navigation away has begun.

import { mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import { defineComponent, h, ref, watch } from 'vue';
import { createMemoryHistory, createRouter, RouterView } from 'vue-router';
import { afterEach, describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import ListTable from '../../../renderer/src/common/ListTable.vue';
import { useAddressQuery } from '../../../renderer/src/common/useAddressQuery.ts';
import { useListSort, type ListSort } from '../../../renderer/src/common/useListSort.ts';
import { withLayout } from '../accounts/harness.ts';
import { click, settle } from '../workspace/harness.ts';

type Key = 'name' | 'created_at';
const TOTAL = 1000;
const ROW_HEIGHT = 40;

/** What the list asked to see, and the rows read so far (every tenth still unread). */
let shown: [number, number][] = [];

const List = defineComponent(() => {
  const address = useAddressQuery({ kind: 'all', sort: '-created_at' });
  const kind = ref(address.readOneOf('kind', ['all', 'open', 'done']));
  const search = ref(address.read('q'));
  const sort = ref<ListSort<Key>>(address.readSort('sort', ['name', 'created_at'] as const));
  const s = useListSort<Key>(sort, ['created_at']);
  const table = ref<{ toTop(): void } | null>(null);
  watch([kind, search, sort], () => {
    address.write({ q: search.value, kind: kind.value, sort: sort.value });
    table.value?.toTop();
  });
  const rows = ref<(string | undefined)[]>(Array.from({ length: TOTAL }, () => undefined));
  function show(first: number, last: number) {
    shown.push([first, last]);
    for (let i = first; i < last; i++) if (i % 10 !== 9) rows.value[i] = `Household ${i + 1}`;
  }
  return () =>
    h('div', [
      h('button', { 'data-testid': 'narrow', onClick: () => (kind.value = 'open') }),
      h('button', { 'data-testid': 'plain', onClick: () => (kind.value = 'all') }),
      h(
        ListTable<Key, string | undefined>,
        {
          ref: table,
          columns: [
            { label: 'Name', sort: 'name' },
            { label: 'Sent', sort: 'created_at', class: 'c-sent' },
            { label: 'Actions', hidden: true },
          ],
          sortKey: s.sortKey.value,
          descending: s.descending.value,
          rows: rows.value,
          total: TOTAL,
          rowHeight: ROW_HEIGHT,
          'aria-label': 'Households',
          'data-testid': 'list',
          onSort: s.headerSort,
          onShow: show,
        },
        {
          row: ({ item, index }: { item: string | undefined; index: number }) =>
            item
              ? h('div', { class: 'row', role: 'row', 'aria-rowindex': index + 2 }, item)
              : h('div', { class: 'row placeholder', role: 'row', 'aria-busy': 'true' }),
        },
      ),
    ]);
});

let restoreLayout: () => void = () => undefined;
afterEach(() => restoreLayout());
unmountAfterEach();

async function mountList(address: string) {
  restoreLayout = withLayout(400);
  shown = [];
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/list', component: List },
      // An item's page that takes a moment to load, as a lazily loaded view does.
      {
        path: '/item',
        component: () =>
          new Promise<ReturnType<typeof defineComponent>>((resolve) =>
            setTimeout(() => resolve(defineComponent(() => () => h('p', 'The item'))), 50),
          ),
      },
    ],
  });
  await router.push(address);
  await router.isReady();
  mount(
    { render: () => h(RouterView) },
    { attachTo: document.body, global: { plugins: [router, [PrimeVue, { theme: 'none' }]] } },
  );
  await settle();
  return router;
}
const table = () => document.querySelector<HTMLElement>('[data-testid="list"]')!;
const scroller = () => table().querySelector<HTMLElement>('[data-pc-name="virtualscroller"]')!;
const headers = () => [...table().querySelectorAll<HTMLElement>('[role="columnheader"]')];
const drawn = () => [...table().querySelectorAll<HTMLElement>('.body [role="row"]')];

describe('a long list’s table', () => {
  it('heads its columns, sorts by them and passes their classes to the header cells', async () => {
    const router = await mountList('/list');
    expect(table().getAttribute('role')).toBe('table');
    expect(table().getAttribute('aria-label')).toBe('Households');
    expect(table().getAttribute('aria-rowcount')).toBe(String(TOTAL + 1));
    expect(headers().map((c) => c.textContent?.trim())).toEqual(['Name', 'Sent', 'Actions']);
    expect(headers().map((c) => c.getAttribute('aria-sort'))).toEqual(['none', 'descending', null]);
    expect(headers()[1]!.classList.contains('c-sent')).toBe(true);

    await click(headers()[0]!.querySelector('button')!);
    await settle();
    expect(headers()[0]!.getAttribute('aria-sort')).toBe('ascending');
    expect(router.currentRoute.value.query).toEqual({ sort: 'name' });
  });

  it('draws only the rows in view, a row not read yet as a placeholder, and asks for more as it scrolls', async () => {
    await mountList('/list');
    expect(shown.length).toBeGreaterThan(0);
    const first = drawn();
    // 400 pixels of 40-pixel rows and a few either side: nowhere near the thousand.
    expect(first.length).toBeGreaterThan(5);
    expect(first.length).toBeLessThan(60);
    expect(first[0]!.textContent).toBe('Household 1');
    expect(first[0]!.getAttribute('aria-rowindex')).toBe('2');
    expect(first[9]!.classList.contains('placeholder')).toBe(true);

    scroller().scrollTop = 500 * ROW_HEIGHT;
    scroller().dispatchEvent(new Event('scroll'));
    await settle();
    expect(shown.some(([from, to]) => from <= 500 && to > 500)).toBe(true);
    expect(drawn().some((r) => r.textContent === 'Household 501')).toBe(true);
    expect(drawn().some((r) => r.textContent === 'Household 1')).toBe(false);
  });

  it('keeps each row’s element while the window slides, so a click or the focus stays on its row', async () => {
    await mountList('/list');
    const element = (text: string) => drawn().find((r) => r.textContent === text);
    const before = element('Household 18');
    expect(before).toBeDefined();

    // A few rows down, as a click's scroll into view does: the window's first row moves on, and
    // Household 18 is still drawn. Its element is the same one, not another row's reused.
    scroller().scrollTop = 12 * ROW_HEIGHT;
    scroller().dispatchEvent(new Event('scroll'));
    await settle();
    expect(shown.some(([from]) => from > 0)).toBe(true);
    expect(drawn()[0]!.textContent).not.toBe('Household 1');
    expect(element('Household 18')).toBe(before);
    expect(before!.isConnected).toBe(true);
    expect(before!.getAttribute('aria-rowindex')).toBe('19');
  });

  it('never cancels a navigation away by writing its query while the navigation loads', async () => {
    const router = await mountList('/list');
    // A click on a result, then the list's query changing before the item's page is in (a search
    // that settles after its pause): the click's navigation still lands.
    const leaving = router.push('/item');
    await click(document.querySelector<HTMLElement>('[data-testid="narrow"]')!);
    expect(await leaving).toBeUndefined();
    await settle();
    expect(router.currentRoute.value.fullPath).toBe('/item');
    expect(document.body.textContent).toContain('The item');
  });

  it('reads its query from the address, its defaults where the address is stale, and writes it back plainly', async () => {
    const router = await mountList('/list?q=smi&kind=nonsense&sort=-owner');
    // An unknown kind and a sort key the list does not have give way to the defaults.
    expect(headers().map((c) => c.getAttribute('aria-sort'))).toEqual(['none', 'descending', null]);

    scroller().scrollTop = 300 * ROW_HEIGHT;
    scroller().dispatchEvent(new Event('scroll'));
    await settle();
    await click(document.querySelector<HTMLElement>('[data-testid="narrow"]')!);
    await settle();
    expect(router.currentRoute.value.query).toEqual({ q: 'smi', kind: 'open' });
    // A new query starts at the top.
    expect(scroller().scrollTop).toBe(0);

    await click(document.querySelector<HTMLElement>('[data-testid="plain"]')!);
    await settle();
    expect(router.currentRoute.value.query).toEqual({ q: 'smi' });
  });
});
