// PrimeVue's Dialog focuses its `[autofocus]` element when its opening animation ends. On a busy
// machine that can come after the user has typed in the first field and moved on, and the cursor
// would jump back. Moving the mark along with the cursor makes that late focus land where the user
// already is.

const FOCUSABLE = 'input, textarea, select, [role="combobox"], button';

/** On a `focusin` inside `root`: the `[autofocus]` mark, if `root` has one, moves to the focused control. */
export function autofocusFollows(
  root: Element | null | undefined,
  event: FocusEvent,
  focusable = FOCUSABLE,
): void {
  const target = event.target as HTMLElement;
  const marked = root?.querySelector('[autofocus]');
  if (!marked || marked === target || !target.matches(focusable)) return;
  marked.removeAttribute('autofocus');
  target.setAttribute('autofocus', '');
}
