// The mount harness of the component tests (happy-dom): after each test, every component the
// test mounted is unmounted and the page emptied (dialogs, menus and toasts teleport to the body).
// In a dom/ folder: it typechecks with the renderer (tsconfig.web.json).

import { enableAutoUnmount, flushPromises } from '@vue/test-utils';
import { afterEach } from 'vitest';

/**
 * Registers the teardown for the file's tests; call it once, at the top of the file. Hooks run in
 * the order they are registered (after-hooks in the reverse): a teardown that must come before
 * the unmount is registered after this call, one that must come after it, before.
 */
export function unmountAfterEach(): void {
  afterEach(() => {
    document.body.innerHTML = '';
  });
  enableAutoUnmount(afterEach);
}

/** Event-loop turns per round of `settle`: a live query's answer is a chain of store requests, one turn each. */
const TURNS_PER_ROUND = 10;
/** Rounds without a change to the page after which it is taken as settled. */
const QUIET_ROUNDS = 2;
/** A page that never stops changing (a running clock) is left after this many rounds. */
const MOST_ROUNDS = 40;

/**
 * Lets the local store's live queries answer and the page render: runs the event loop until the
 * page has not changed for a few rounds, each of them a number of turns and a short wait. It
 * counts turns as well as time because a loaded machine gives a fixed wait fewer turns of the
 * loop, and a store's answer needs turns, not milliseconds.
 */
export async function settle(rounds = 3): Promise<void> {
  let changes = 0;
  const observer = new MutationObserver((records) => (changes += records.length));
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  try {
    let quiet = 0;
    for (let round = 0; round < MOST_ROUNDS && (round < rounds || quiet < QUIET_ROUNDS); round++) {
      const before = changes;
      for (let turn = 0; turn < TURNS_PER_ROUND; turn++) await flushPromises();
      await new Promise((resolve) => setTimeout(resolve, 5));
      quiet = changes === before ? quiet + 1 : 0;
    }
  } finally {
    observer.disconnect();
  }
}
