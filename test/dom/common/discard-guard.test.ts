// @vitest-environment happy-dom
// The guard of a dialog's unsaved input: Esc is first for a popup open inside the dialog, then
// closes the dialog, asking first when input would be lost; Esc while asking keeps editing; a link
// out of the dialog is followed only once it is closed.

import { afterEach, describe, expect, it } from 'vitest';
import { effectScope } from 'vue';
import { useDiscardGuard } from '../../../renderer/src/common/discardGuard.ts';

const scopes: ReturnType<typeof effectScope>[] = [];
afterEach(() => {
  scopes.splice(0).forEach((s) => s.stop());
  document.body.innerHTML = '';
});

function dialog(dirty: boolean) {
  const state = { open: true, dirty, closed: 0 };
  const scope = effectScope();
  scopes.push(scope);
  const guard = scope.run(() =>
    useDiscardGuard({
      open: () => state.open,
      dirty: () => state.dirty,
      close: () => {
        state.open = false;
        state.closed++;
      },
    }),
  )!;
  return { state, guard };
}

const escape = () => {
  const event = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
  document.body.dispatchEvent(event);
  return event;
};

describe('the discard guard of a dialog', () => {
  it('closes a dialog with nothing typed at once', () => {
    const { state, guard } = dialog(false);
    guard.requestClose();
    expect(state.closed).toBe(1);
    expect(guard.asking.value).toBe(false);
  });

  it('asks before closing a dialog with unsaved input, and keeps it open on Keep editing', () => {
    const { state, guard } = dialog(true);
    guard.onVisible(false); // the ×
    expect(guard.asking.value).toBe(true);
    expect(state.closed).toBe(0);
    guard.keepEditing();
    expect(guard.asking.value).toBe(false);
    expect(state.open).toBe(true);
    guard.requestClose(); // Cancel
    guard.discard();
    expect(state.closed).toBe(1);
  });

  it('leaves an Esc meant for an open date picker or list to it, and the dialog open', () => {
    const { state, guard } = dialog(true);
    for (const popup of ['p-datepicker-panel', 'p-select-overlay']) {
      const panel = document.createElement('div');
      panel.className = popup;
      document.body.append(panel);
      const event = escape();
      expect(event.defaultPrevented).toBe(false);
      expect(guard.asking.value).toBe(false);
      expect(state.open).toBe(true);
      panel.remove();
    }
    // A select whose list is open says so on the control that has the cursor.
    const combo = document.createElement('div');
    combo.setAttribute('aria-expanded', 'true');
    combo.tabIndex = 0;
    document.body.append(combo);
    combo.focus();
    escape();
    expect(guard.asking.value).toBe(false);
  });

  it('on Esc asks when input would be lost, and a second Esc keeps editing', () => {
    const { state, guard } = dialog(true);
    expect(escape().defaultPrevented).toBe(true);
    expect(guard.asking.value).toBe(true);
    escape();
    expect(guard.asking.value).toBe(false);
    expect(state.closed).toBe(0);
  });

  it('on Esc closes a dialog with nothing typed, and hears nothing once closed', () => {
    const { state } = dialog(false);
    escape();
    expect(state.closed).toBe(1);
    expect(escape().defaultPrevented).toBe(false);
    expect(state.closed).toBe(1);
  });

  it('follows a link out of the dialog only once it is closed, and not after Keep editing', () => {
    const { state, guard } = dialog(true);
    const opened: string[] = [];
    guard.closeThen(() => opened.push(`closed ${state.closed}`));
    expect(guard.asking.value).toBe(true);
    expect(opened).toEqual([]);
    escape(); // keeps editing: the link is forgotten
    guard.requestClose();
    guard.discard();
    expect(opened).toEqual([]);

    state.open = true;
    guard.closeThen(() => opened.push(`closed ${state.closed}`));
    guard.discard();
    expect(opened).toEqual(['closed 2']);
    // Nothing typed: closes and follows at once.
    state.open = true;
    state.dirty = false;
    guard.closeThen(() => opened.push(`closed ${state.closed}`));
    expect(opened).toEqual(['closed 2', 'closed 3']);
  });
});
