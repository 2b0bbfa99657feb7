// The team's questionnaire list from the platform, for the Engagements area: pulled when the area
// opens online and on Refresh, what went wrong in words, and how fresh the list is ("as of …").

import { computed, ref, type Ref } from 'vue';
import { ago } from '../common/ago.ts';
import { useLiveRead } from '../common/live-read.ts';
import { pullTeamEngagements } from '../common/pulls.ts';
import type { AdvisorDb } from '../data/db.ts';
import {
  AREA_SWEEP_MS,
  ENGAGEMENT_LIST_STATE,
  type EngagementListState,
} from '../sync/pull/engagement-list.ts';
import { platformError } from '@shared/platform-text.ts';

/** Starts the opening pull (unless `offline`) and offers Refresh's. */
export function useTeamPull(db: AdvisorDb, offline: Ref<boolean>) {
  const updating = ref(false);
  const updateProblem = ref<string | null>(null);
  /**
   * Opening the area asks what is new and completed since (two requests), and every page once the
   * last full read is an hour old, which alone shows progress, openings, reminders and reopens made
   * elsewhere; Refresh reads every page now.
   */
  async function update(full = false) {
    if (offline.value || updating.value) return;
    updating.value = true;
    updateProblem.value = null;
    try {
      const report = await pullTeamEngagements(full ? { full } : { sweepAfterMs: AREA_SWEEP_MS });
      if (report.failures.length)
        updateProblem.value = `The list could not be updated from the platform: ${report.failures.map((f) => f.message).join(' ')}`;
    } catch (error) {
      updateProblem.value = platformError(error);
    } finally {
      updating.value = false;
    }
  }
  void update();

  /** When the list was last asked of the platform, and when it was last read whole (progress). */
  const listState = useLiveRead(
    async () => (await db.meta.get(ENGAGEMENT_LIST_STATE))?.value as EngagementListState | undefined,
    [],
    'When the questionnaires were last pulled',
  );
  const asOfText = computed(() => {
    const { pulledAt, sweptAt } = listState.value ?? {};
    if (!pulledAt) return '';
    const now = Date.now();
    // A minute apart: the last pull read only what is new; progress is as of the last full read.
    const progress = sweptAt && pulledAt - sweptAt > 60_000 ? ` (progress as of ${ago(sweptAt, now)})` : '';
    return `as of ${ago(pulledAt, now)}${progress}`;
  });

  return { updating, updateProblem, update, asOfText };
}
