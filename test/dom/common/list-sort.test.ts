// @vitest-environment happy-dom
// The sort of a list (useListSort with SortControl and SortHeader, as the Accounts and
// Engagements lists use them), mounted for real: a header sorts by its column, newest first for a
// date and A to Z for a name, and the same header again turns the order around; aria-sort says
// which column sorts which way; the direction button turns the order and says which way it is.

import { mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import { defineComponent, h, ref } from 'vue';
import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import SortControl from '../../../renderer/src/common/SortControl.vue';
import SortHeader from '../../../renderer/src/common/SortHeader.vue';
import { useListSort, type ListSort } from '../../../renderer/src/common/useListSort.ts';
import { click, settle } from '../workspace/harness.ts';

type Key = 'name' | 'created_at' | 'favorited';
const sort = ref<ListSort<Key>>('-created_at');

const List = defineComponent(() => {
  const s = useListSort<Key>(sort, ['created_at', 'favorited']);
  const columns = [
    { label: 'Name', sort: 'name' as const },
    { label: 'Sent', sort: 'created_at' as const },
    { label: 'Favorite', sort: 'favorited' as const, icon: 'pi pi-star' },
    { label: 'Sync' },
    { label: 'Actions', hidden: true },
  ];
  return () =>
    h('div', [
      h(SortControl<Key>, {
        sortKey: s.sortKey.value,
        descending: s.descending.value,
        options: [
          { value: 'name', label: 'Name' },
          { value: 'created_at', label: 'Sent' },
        ],
        testId: 'list-sort',
        onChoose: s.chooseSortKey,
        onToggle: s.toggleDirection,
      }),
      h(
        'div',
        { role: 'row' },
        columns.map((c) =>
          h(SortHeader<Key>, {
            ...c,
            key: c.label,
            sortKey: s.sortKey.value,
            descending: s.descending.value,
            onSort: s.headerSort,
          }),
        ),
      ),
    ]);
});

unmountAfterEach();

async function mountList(start: ListSort<Key>) {
  sort.value = start;
  mount(List, { attachTo: document.body, global: { plugins: [[PrimeVue, { theme: 'none' }]] } });
  await settle();
}
const headers = () => [...document.querySelectorAll<HTMLElement>('[role="columnheader"]')];
const header = (label: string) => headers().find((h) => h.textContent?.trim() === label)!;
const ariaSorts = () => headers().map((h) => h.getAttribute('aria-sort'));
const direction = () => document.querySelector<HTMLElement>('[data-testid="list-sort-direction"]')!;

describe('a sortable list', () => {
  it('sorts by a header, names A to Z and dates newest first, and the same header again the other way', async () => {
    await mountList('-created_at');
    expect(ariaSorts()).toEqual(['none', 'descending', 'none', null, null]);

    await click(header('Name').querySelector('button')!);
    expect(sort.value).toBe('name');
    expect(header('Name').getAttribute('aria-sort')).toBe('ascending');
    expect(header('Sent').getAttribute('aria-sort')).toBe('none');

    await click(header('Name').querySelector('button')!);
    expect(sort.value).toBe('-name');
    expect(header('Name').getAttribute('aria-sort')).toBe('descending');

    await click(header('Sent').querySelector('button')!);
    expect(sort.value).toBe('-created_at');
    expect(header('Sent').getAttribute('aria-sort')).toBe('descending');
    await click(header('Sent').querySelector('button')!);
    expect(sort.value).toBe('created_at');
    expect(header('Sent').getAttribute('aria-sort')).toBe('ascending');

    // The icon header sorts as its words say, most first (a favorite before the others).
    await click(header('Favorite').querySelector('button')!);
    expect(sort.value).toBe('-favorited');
    expect(ariaSorts()).toEqual(['none', 'none', 'descending', null, null]);
  });

  it('turns the order with the direction button, which says which way it is', async () => {
    await mountList('name');
    expect(direction().getAttribute('aria-label')).toBe('Ascending; switch to descending');
    await click(direction());
    expect(sort.value).toBe('-name');
    expect(direction().getAttribute('aria-label')).toBe('Descending; switch to ascending');
    expect(header('Name').getAttribute('aria-sort')).toBe('descending');
    await click(direction());
    expect(sort.value).toBe('name');
  });

  it('shows a column it cannot sort by as a plain header, and an icon header keeps its words', async () => {
    await mountList('name');
    expect(header('Sync').querySelector('button')).toBeNull();
    expect(header('Sync').hasAttribute('aria-sort')).toBe(false);
    expect(header('Actions').querySelector('.visually-hidden')?.textContent).toBe('Actions');
    const favorite = header('Favorite');
    expect(favorite.querySelector('.pi-star')).not.toBeNull();
    expect(favorite.querySelector('.visually-hidden')?.textContent).toBe('Favorite');
  });
});
