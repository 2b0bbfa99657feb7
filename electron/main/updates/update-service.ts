// Updates for the installed app: off until an update address is set in the settings, and then
// only from an https feed. The check itself is a port (electron-updater in the app).

import { updateFeedUrlSchema } from '@shared/settings.ts';
import type { UpdateCheck, UpdateStatus } from '@shared/updates.ts';

export type { UpdateCheck };

/** Looks for an update at a feed and, when there is one, downloads it to install on quit. */
export interface UpdateChecker {
  check(feedUrl: string): Promise<void>;
}

export class UpdateService {
  constructor(
    /** The update address from the settings, or null when none is set. */
    private readonly feedUrl: () => string | null,
    private readonly checker: UpdateChecker,
    private readonly now: () => number = Date.now,
  ) {}

  private last: UpdateStatus['last'] = null;

  /** The last check since the app started and what it came to, or null when none ran yet. */
  lastCheck(): UpdateStatus['last'] {
    return this.last;
  }

  /** Checks the feed once; never throws (an unreachable feed must not disturb the app). */
  async check(): Promise<UpdateCheck> {
    const at = this.now();
    const check = await this.checkFeed();
    this.last = { at, check };
    return check;
  }

  private async checkFeed(): Promise<UpdateCheck> {
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
