// Enter in a drop-down's filter picks the match the list highlights. PrimeVue's Select forgets the
// highlighted option on every keystroke in its filter (`focusedOptionIndex = -1`), and again
// 100 ms after its closed box lost the cursor to the filter, so Enter there closed the list and
// chose nothing, even with one match left. Here the first match is highlighted after each change
// of the filter, and Enter in the filter, heard before the Select hears it, highlights the first
// match when nothing is, so that Enter always picks what the list shows first.

import { nextTick, onBeforeUnmount, onMounted, type Ref } from 'vue';

/** What is read and set of PrimeVue's Select instance (its options API state). */
interface SelectState {
  filterValue: string | null;
  focusedOptionIndex: number;
  overlay: HTMLElement | null;
  findFirstOptionIndex(): number;
}

const isSelectState = (v: unknown): v is SelectState =>
  typeof v === 'object' && v !== null && typeof (v as SelectState).findFirstOptionIndex === 'function';

/** Highlights the first match of what the filter holds, unless an option already is. */
function highlight(s: SelectState, always: boolean) {
  if (s.filterValue && (always || s.focusedOptionIndex === -1))
    s.focusedOptionIndex = s.findFirstOptionIndex();
}

/**
 * The Select's filter handler (`@filter="pick.filter"`); Enter is heard from mounting on. Not from
 * the Select's `show`: that comes once the list's opening transition has ended, and on a busy
 * machine the advisor has typed and pressed Enter before then.
 */
export function useFilterPick(select: Ref<unknown>) {
  function enter(event: KeyboardEvent) {
    const s = select.value;
    if (event.key !== 'Enter' || !isSelectState(s) || !s.overlay?.contains(event.target as Node)) return;
    highlight(s, false);
  }
  onMounted(() => document.addEventListener('keydown', enter, true));
  onBeforeUnmount(() => document.removeEventListener('keydown', enter, true));
  return {
    filter: () =>
      void nextTick(() => {
        const s = select.value;
        if (isSelectState(s)) highlight(s, true);
      }),
  };
}
