// Updates for the installed app: off until an update address is set in the settings, and then
// only from an https feed. The check itself is a port (electron-updater in the app).

import { updateFeedUrlSchema } from '@shared/settings.ts';

/** Looks for an update at a feed and, when there is one, downloads it to install on quit. */
export interface UpdateChecker {
  check(feedUrl: string): Promise<void>;
}

export type UpdateCheck =
  | { state: 'off' }
  | { state: 'refused'; reason: string }
  | { state: 'checked'; feedUrl: string }
  | { state: 'failed'; feedUrl: string; message: string };

export class UpdateService {
  constructor(
    /** The update address from the settings, or null when none is set. */
    private readonly feedUrl: () => string | null,
    private readonly checker: UpdateChecker,
  ) {}

  /** Checks the feed once; never throws (an unreachable feed must not disturb the app). */
  async check(): Promise<UpdateCheck> {
    const raw = this.feedUrl();
    if (raw === null || raw.trim() === '') return { state: 'off' };
    // Checked again here, not only when saved: the settings file can be edited by hand.
    const parsed = updateFeedUrlSchema.safeParse(raw);
    if (!parsed.success) return { state: 'refused', reason: parsed.error.issues[0]?.message ?? 'invalid' };
    const feedUrl = parsed.data;
    try {
      await this.checker.check(feedUrl);
      return { state: 'checked', feedUrl };
    } catch (error) {
      return { state: 'failed', feedUrl, message: error instanceof Error ? error.message : String(error) };
    }
  }
}
