// A dialog that takes input does not lose it by one key or click: Esc first closes the popup open
// inside it (a select's list, a date picker), and closing a dialog with unsaved input (Esc,
// Cancel, ×) asks first: "Discard the changes to this liability?" Keep editing / Discard.
// DiscardPrompt.vue shows the question; the dialog binds `requestClose` to its ways out, and
// `closeThen` to a link that leads elsewhere (followed once the dialog is closed).

import { nextTick, onScopeDispose, ref } from 'vue';

/** A popup open inside a dialog, which an Esc is meant for before the dialog. */
export function innerPopupOpen(): boolean {
  if (document.activeElement?.closest('[aria-expanded="true"]')) return true;
  return (
    document.querySelector(
      '.p-select-overlay, .p-autocomplete-overlay, .p-multiselect-overlay, .p-datepicker-panel:not(.p-datepicker-panel-inline)',
    ) !== null
  );
}

export interface DiscardGuardOptions {
  /** Whether the dialog is open (Esc is heard only then). */
  open: () => boolean;
  /** Whether the dialog holds input that closing would lose. */
  dirty: () => boolean;
  /** Closes the dialog, input and all. */
  close: () => void;
}

export function useDiscardGuard(options: DiscardGuardOptions) {
  /** The question is shown: the dialog waits for Keep editing or Discard. */
  const asking = ref(false);
  /** The element that had the cursor when the question came, given it back on Keep editing. */
  let returnTo: HTMLElement | null = null;
  /** Where a way out leads once the dialog is closed (a link in it); dropped on Keep editing. */
  let then: (() => void) | null = null;

  /** A way out was taken (Esc, Cancel, ×): closes at once, or asks when input would be lost. */
  function requestClose(): void {
    then = null;
    ask();
  }

  /** A way out that goes on somewhere (a link to another screen): `next` runs only once closed. */
  function closeThen(next: () => void): void {
    then = next;
    ask();
  }

  function ask(): void {
    if (!options.dirty()) return closed();
    returnTo = document.activeElement as HTMLElement | null;
    asking.value = true;
  }

  function closed(): void {
    const next = then;
    then = null;
    options.close();
    next?.();
  }

  function keepEditing(): void {
    asking.value = false;
    then = null;
    const back = returnTo;
    returnTo = null;
    void nextTick(() => back?.isConnected && back.focus());
  }

  function discard(): void {
    asking.value = false;
    returnTo = null;
    closed();
  }

  /** Heard on the window before the dialog and its inputs, so that the guard decides first. */
  function onKeydown(event: KeyboardEvent): void {
    if (!options.open() || event.key !== 'Escape' || event.isComposing) return;
    if (asking.value) {
      event.preventDefault();
      event.stopPropagation();
      return keepEditing();
    }
    // The popup's own handler closes it; the dialog stays.
    if (innerPopupOpen()) return;
    event.preventDefault();
    event.stopPropagation();
    requestClose();
  }
  window.addEventListener('keydown', onKeydown, { capture: true });
  onScopeDispose(() => window.removeEventListener('keydown', onKeydown, { capture: true }));

  /** For the dialog's `update:visible` (its ×): closing goes through the guard, opening is let be. */
  function onVisible(visible: boolean): void {
    if (!visible) requestClose();
  }

  return { asking, requestClose, closeThen, keepEditing, discard, onVisible };
}
