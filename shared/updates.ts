// Updates of the installed app as both sides see them: what one check came to, and the state the
// Settings screen puts in words (the update address, whether this copy checks, the last check).

/** How often the installed app looks for an update while it runs (and once at start). */
export const UPDATE_CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000;

export type UpdateCheck =
  | { state: 'off' }
  | { state: 'refused'; reason: string }
  | { state: 'checked'; feedUrl: string }
  | { state: 'failed'; feedUrl: string; message: string };

export interface UpdateStatus {
  /** The update address as saved, or null: updates are off until one is set. */
  feedUrl: string | null;
  /** False in the browser preview and a development build: only the installed app checks. */
  checks: boolean;
  /** The last check since the app started (ms since the epoch), or null when none ran yet. */
  last: { at: number; check: UpdateCheck } | null;
  /**
   * Present in an installed build made without the key that verifies updates: it never looks for
   * one, since it could not tell a genuine update from another program.
   */
  unverifiable?: true;
}

/** The update address saved (the state after it), the field refused with what to do, or not confirmed. */
export type UpdateFeedResult =
  | { ok: true; status: UpdateStatus }
  | { ok: false; fields: Record<string, string[]> }
  | { ok: false; cancelled: true };
