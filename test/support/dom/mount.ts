// The mount harness of the component tests (happy-dom): after each test, every component the
// test mounted is unmounted and the page emptied (dialogs, menus and toasts teleport to the body).
// In a dom/ folder: it typechecks with the renderer (tsconfig.web.json).

import { enableAutoUnmount } from '@vue/test-utils';
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
