// The workspace's keyboard commands, by name, so that a shortcut and the command palette run the
// same thing. A component that can answer a command registers a handler while it is on screen;
// the most recent registration that takes it answers (an open item form's save before the page's).
//
// For the palette: `WORKSPACE_COMMANDS` lists id, title and keys; `runCommand(id)` runs one and
// answers whether anything on screen handled it; `commandAvailable(id)` says whether it would.

import { onScopeDispose, shallowRef, watch } from 'vue';

export type CommandId =
  | 'workspace.add-item'
  | 'workspace.save'
  | 'workspace.next-section'
  | 'workspace.previous-section'
  | 'workspace.overview'
  | 'workspace.members'
  | 'workspace.financials'
  | 'workspace.export-summary'
  | 'workspace.export-data'
  | 'accounts.export-list';

export interface CommandSpec {
  id: CommandId;
  title: string;
  /** As shown to the user; `Mod` is Ctrl, or Cmd on a Mac. */
  keys: readonly string[];
}

export const WORKSPACE_COMMANDS: readonly CommandSpec[] = [
  { id: 'workspace.add-item', title: 'Add an item to this section', keys: ['Alt+N'] },
  { id: 'workspace.save', title: 'Save', keys: ['Mod+S', 'Mod+Enter'] },
  { id: 'workspace.next-section', title: 'Next section', keys: ['Alt+ArrowDown'] },
  { id: 'workspace.previous-section', title: 'Previous section', keys: ['Alt+ArrowUp'] },
  { id: 'workspace.overview', title: 'Go to the overview', keys: ['Alt+O'] },
  { id: 'workspace.members', title: 'Go to the members', keys: ['Alt+M'] },
  { id: 'workspace.financials', title: 'Go to the financial sections', keys: ['Alt+F'] },
  // The workspace's Export menu (workspace/ExportMenu.vue).
  { id: 'workspace.export-summary', title: 'Export financial summary…', keys: [] },
  { id: 'workspace.export-data', title: 'Export household data…', keys: [] },
  // The account list's; offered while the list is on screen.
  { id: 'accounts.export-list', title: 'Export this list…', keys: [] },
];

/** Answers false when it does not take the command now (the next registration is asked). */
type Handler = () => boolean | void;
const handlers = new Map<CommandId, Handler[]>();

/** Answers a command while the calling component lives. */
export function onCommand(id: CommandId, handler: Handler): () => void {
  const list = handlers.get(id) ?? [];
  handlers.set(id, [...list, handler]);
  const off = () =>
    handlers.set(
      id,
      (handlers.get(id) ?? []).filter((h) => h !== handler),
    );
  onScopeDispose(off);
  return off;
}

export const commandAvailable = (id: CommandId): boolean => (handlers.get(id)?.length ?? 0) > 0;

export function runCommand(id: CommandId): boolean {
  for (const handler of [...(handlers.get(id) ?? [])].reverse()) if (handler() !== false) return true;
  return false;
}

const isMac = (): boolean => typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform);

/** The key combination of an event, written as in `keys` (`Mod+S`, `Alt+ArrowDown`). */
export function comboOf(event: KeyboardEvent): string {
  const parts: string[] = [];
  if (isMac() ? event.metaKey : event.ctrlKey) parts.push('Mod');
  if (event.altKey) parts.push('Alt');
  if (event.shiftKey) parts.push('Shift');
  // The physical key, so that Alt+N still reads N on a Mac (where it types a dead key).
  const key = /^Key[A-Z]$/.test(event.code)
    ? event.code.slice(3)
    : event.key === 'Enter'
      ? 'Enter'
      : event.key;
  parts.push(key.length === 1 ? key.toUpperCase() : key);
  return parts.join('+');
}

/** The command a key press asks for, if any. */
export function commandOfKey(event: KeyboardEvent): CommandId | null {
  const combo = comboOf(event);
  return WORKSPACE_COMMANDS.find((c) => c.keys.includes(combo))?.id ?? null;
}

/**
 * Alt+↓ / Alt+↑ open and close a list (a select, a date picker, any combobox) and walk one that is
 * open, and a modal over the page (an open date panel, a dialog) has the keys to itself: there they
 * are the control's, never the workspace's moves between sections.
 */
const ARROW_OWNERS =
  'select, [role="combobox"], [role="listbox"], [aria-expanded="true"], [aria-modal="true"], .p-select-overlay';

function ownsAltArrows(target: EventTarget | null): boolean {
  return Boolean((target as Element | null)?.closest?.(ARROW_OWNERS));
}

/** Listens for the shortcuts while the calling component lives. */
export function useCommandKeys(target: Window = window): void {
  const listener = (event: KeyboardEvent) => {
    if (event.isComposing) return;
    const id = commandOfKey(event);
    if (id?.endsWith('section') && ownsAltArrows(event.target)) return;
    if (id && runCommand(id)) {
      event.preventDefault();
      event.stopPropagation();
    }
  };
  target.addEventListener('keydown', listener, { capture: true });
  onScopeDispose(() => target.removeEventListener('keydown', listener, { capture: true }));
}

/** A key list as the user reads it on this machine. */
export function keyHint(id: CommandId): string {
  const spec = WORKSPACE_COMMANDS.find((c) => c.id === id);
  const first = spec?.keys[0] ?? '';
  return first
    .replace('Mod', isMac() ? '⌘' : 'Ctrl')
    .replace('ArrowDown', '↓')
    .replace('ArrowUp', '↑');
}

// ---- the cursor after a jump -------------------------------------------------------------------

/**
 * Where a jump lands the cursor: the overview, a member's details, or a financial section. The tab
 * that holds it is drawn only after the address changed (the old one, with the cursor, is gone by
 * then), so the cursor cannot go there yet: the request waits here until the place is on screen.
 */
export type FocusPlace = 'overview' | `members:${string}` | `section:${string}`;

/** One at a time; a later jump replaces it. */
const pendingFocus = shallowRef<{ accountId: string; place: FocusPlace } | null>(null);

export function requestFocus(accountId: string, place: FocusPlace): void {
  pendingFocus.value = { accountId, place };
}

/** Takes a waiting request as soon as `place` of `accountId` is the one on screen. */
export function onFocusRequest(
  accountId: () => string,
  place: () => FocusPlace | undefined,
  focus: () => void,
): void {
  watch(
    [accountId, place, pendingFocus],
    ([account, shown, wanted]) => {
      if (!wanted || wanted.accountId !== account || wanted.place !== shown) return;
      pendingFocus.value = null;
      focus();
    },
    { immediate: true },
  );
}
