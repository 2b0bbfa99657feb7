// @vitest-environment happy-dom
// A list's search as you type (SearchField with useTypedSearch, as the Accounts and Engagements
// lists use them), mounted for real: a burst of typing is one query, asked once the typist pauses
// and trimmed; Escape empties the field and the query at once; "show all" empties both.

import { flushPromises, mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import { defineComponent, h, watch } from 'vue';
import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import SearchField from '../../../renderer/src/common/SearchField.vue';
import { SEARCH_DELAY_MS, useTypedSearch } from '../../../renderer/src/common/useTypedSearch.ts';
import { one, press, settle } from '../workspace/harness.ts';

unmountAfterEach();

async function mountSearch(initial: string) {
  const asked: string[] = [];
  let clear: () => void = () => undefined;
  const Host = defineComponent(() => {
    const s = useTypedSearch(initial);
    clear = s.clear;
    watch(s.search, (q) => asked.push(q));
    return () =>
      h(SearchField, {
        modelValue: s.typed.value,
        'onUpdate:modelValue': s.onTyped,
        placeholder: 'Search names and emails',
        label: 'Search client and co-client names and emails',
        testId: 'list-search',
      });
  });
  mount(Host, {
    attachTo: document.body,
    global: { plugins: [[PrimeVue, { theme: 'none' }]] },
  });
  await settle();
  return { asked, clear: () => clear() };
}

const field = () => one('list-search') as HTMLInputElement;
/**
 * Keys typed in one go: each value's input event, then Vue's updates, with no timer run between
 * them (typed with a settle after each, a loaded machine let the search's pause pass in between).
 */
async function typeBurst(...values: string[]) {
  field().focus();
  for (const value of values) {
    field().value = value;
    field().dispatchEvent(new Event('input', { bubbles: true }));
  }
  await flushPromises();
}
const pause = () => new Promise((r) => setTimeout(r, SEARCH_DELAY_MS + 60));

describe('a list’s search as you type', () => {
  it('asks once for a burst of typing, trimmed, when the typist pauses', async () => {
    const list = await mountSearch('');
    expect(field().type).toBe('search');
    expect(field().getAttribute('aria-label')).toBe('Search client and co-client names and emails');
    await typeBurst('s', 'sm', 'smi ');
    expect(list.asked).toEqual([]);
    await pause();
    expect(list.asked).toEqual(['smi']);
  });

  it('starts from the address’s query; Escape empties the field and the query at once', async () => {
    const list = await mountSearch('jones');
    expect(field().value).toBe('jones');
    await press('Escape', {}, field());
    expect(field().value).toBe('');
    await settle();
    expect(list.asked).toEqual(['']);
  });

  it('"show all" empties both, and a search typed just before is not asked after it', async () => {
    const list = await mountSearch('');
    await typeBurst('lee');
    list.clear();
    await pause();
    expect(field().value).toBe('');
    expect(list.asked).toEqual([]);
  });
});
