// A read of the local store kept live in a screen: read again whenever a table it read changes
// (Dexie liveQuery) or one of its inputs does; undefined until the first answer arrives.

import { liveQuery, type Subscription } from 'dexie';
import { onScopeDispose, shallowRef, watch, type ShallowRef, type WatchSource } from 'vue';

export function useLiveRead<T>(
  read: () => Promise<T>,
  inputs: WatchSource[] = [],
  what = 'This screen',
): ShallowRef<T | undefined> {
  const value = shallowRef<T | undefined>(undefined);
  let subscription: Subscription | null = null;
  watch(
    inputs,
    () => {
      subscription?.unsubscribe();
      subscription = liveQuery(read).subscribe({
        next: (next) => (value.value = next),
        error: (error: unknown) => console.error(`${what} could not be read from the local store.`, error),
      });
    },
    { immediate: true },
  );
  onScopeDispose(() => subscription?.unsubscribe());
  return value;
}
