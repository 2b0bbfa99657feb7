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
  | 'workspace.financials';

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

/** Listens for the shortcuts while the calling component lives. */
export function useCommandKeys(target: Window = window): void {
  const listener = (event: KeyboardEvent) => {
    if (event.isComposing) return;
    const id = commandOfKey(event);
    // An open list (a select's options, a date picker) keeps its own use of the arrows.
    if (id?.endsWith('section') && (event.target as Element | null)?.closest?.('[aria-expanded="true"]'))
      return;
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
 * A jump to a financial section (the palette's) lands the cursor in it. From another tab the
 * section is drawn only after the address changed, and the cursor cannot go there yet: the request
 * waits here until the section is on screen. One at a time; a later jump replaces it.
 */
const sectionFocus = shallowRef<{ accountId: string; section: string } | null>(null);

export function requestSectionFocus(accountId: string, section: string): void {
  sectionFocus.value = { accountId, section };
}

/** Takes a waiting request as soon as `section` of `accountId` is the one on screen. */
export function onSectionFocusRequest(
  accountId: () => string,
  section: () => string | undefined,
  focus: () => void,
): void {
  watch(
    [accountId, section, sectionFocus],
    ([account, shown, wanted]) => {
      if (!wanted || wanted.accountId !== account || wanted.section !== shown) return;
      sectionFocus.value = null;
      focus();
    },
    { immediate: true },
  );
}
