// The keyboard of the workspace's forms, in one place: Enter moves to the next field and, on the
// last one, asks to save; a closed select hears Enter as "next", not "open"; the cursor starts in
// the first (or first invalid) field unless the user is already there. (Escape in a dialog is
// common/discardGuard.ts's.)

import { nextTick, type Ref } from 'vue';
import { autofocusFollows } from '../common/autofocus.ts';

/** What takes the cursor in a field: its input, its select, its buttons (a file field's). */
const FOCUSABLE =
  'input:not([type="hidden"]):not([disabled]), textarea:not([disabled]), [role="combobox"][tabindex="0"], button:not([disabled])';

const plainEnter = (event: KeyboardEvent) =>
  event.key === 'Enter' && !event.ctrlKey && !event.metaKey && !event.altKey && !event.shiftKey;

/**
 * The keys of the form under `root` (its fields are its `.field` elements). `submit` is called by
 * Enter on the last field. Bind `listeners` on the root element.
 */
export function useFormKeys(root: Ref<HTMLElement | null>, submit: () => void) {
  const fieldElements = (): HTMLElement[] => [...(root.value?.querySelectorAll<HTMLElement>('.field') ?? [])];

  function focusIn(field: Element | undefined, initial = false): boolean {
    const target = field?.querySelector<HTMLElement>(FOCUSABLE);
    if (!target) return false;
    // A dialog that finishes opening after this focuses its `[autofocus]` element: let it be this one.
    if (initial) {
      root.value?.querySelectorAll('[autofocus]').forEach((el) => el.removeAttribute('autofocus'));
      target.setAttribute('autofocus', '');
    }
    target.focus();
    return true;
  }

  /** Whether the user has typed or clicked in the form since it was loaded. */
  let engaged = false;
  const engage = () => (engaged = true);

  /**
   * Puts the cursor in the first field (or the first invalid one). `unlessEngaged`: not once the
   * user has typed or clicked in the form: a dialog's show event can come after they started (its
   * animation is slow on a busy machine), and the cursor is theirs then.
   */
  async function focusFirst(invalidFirst = false, { unlessEngaged = false } = {}): Promise<void> {
    await nextTick();
    if (unlessEngaged && engaged) return;
    const fields = fieldElements();
    const invalid = invalidFirst ? fields.find((f) => f.classList.contains('invalid')) : undefined;
    focusIn(invalid ?? fields[0], true);
  }

  /** Moves the cursor from the field holding `target` to the next one; answers whether it did. */
  function moveOn(event: KeyboardEvent, target: HTMLElement): boolean {
    if (target.closest('[aria-expanded="true"], [data-skip-enter]')) return false;
    const fields = fieldElements();
    const index = fields.findIndex((f) => f.contains(target));
    if (index < 0) return false;
    event.preventDefault();
    // Let the input commit its value (a number input does so on Enter) before moving on.
    void nextTick(() => {
      if (index === fields.length - 1 || !fields.slice(index + 1).some((f) => focusIn(f))) submit();
    });
    return true;
  }

  function keydown(event: KeyboardEvent) {
    if (!plainEnter(event)) return;
    const target = event.target as HTMLElement;
    if (target.tagName !== 'INPUT' || (target as HTMLInputElement).type === 'checkbox') return;
    moveOn(event, target);
  }

  /**
   * A closed select (PrimeVue's, its focus on a `combobox` that is no input) opens its list on Enter,
   * before the form would hear of it: the form takes Enter first and moves on, as from any other
   * field. Space and Alt+↓ still open the list, and an open list keeps Enter to choose an option.
   */
  function keydownCapture(event: KeyboardEvent) {
    engage();
    if (!plainEnter(event)) return;
    const target = event.target as HTMLElement;
    if (target.tagName === 'INPUT' || target.getAttribute('role') !== 'combobox') return;
    if (moveOn(event, target)) event.stopPropagation();
  }

  return {
    listeners: {
      keydown,
      keydownCapture,
      pointerdownCapture: engage,
      /** A dialog that finishes opening late focuses where the user is (autofocus.ts). */
      focusin: (event: FocusEvent) => autofocusFollows(root.value, event, FOCUSABLE),
    },
    focusFirst,
    /** Forgets that the user was in the form: another record is loaded, or it was saved. */
    disengage: () => (engaged = false),
  };
}
