// A list's search as you type: what is typed (the field) and what the list is asked for, the same
// trimmed once the typist pauses (a fast burst is one query); emptying the field answers at once,
// and so does every keystroke with no delay (a list answered from memory: the account list).
import { onBeforeUnmount, ref } from 'vue';

export const SEARCH_DELAY_MS = 120;

export function useTypedSearch(initial = '', delayMs = SEARCH_DELAY_MS) {
  const typed = ref(initial);
  const search = ref(initial.trim());
  let timer: ReturnType<typeof setTimeout> | undefined;

  function onTyped(text: string) {
    typed.value = text;
    clearTimeout(timer);
    if (delayMs === 0) search.value = text.trim();
    else timer = setTimeout(() => (search.value = text.trim()), text.trim() ? delayMs : 0);
  }
  /** Empties both at once (a "show all" button). */
  function clear() {
    clearTimeout(timer);
    typed.value = '';
    search.value = '';
  }
  onBeforeUnmount(() => clearTimeout(timer));
  return { typed, search, onTyped, clear };
}
