// Settings → Updates: the update address checked as the main process checks it (the same schema),
// and the state of updates in words: off until an address is set, the last check and its outcome.

import { ref } from 'vue';
import { updateFeedUrlSchema } from '@shared/settings.ts';
import { UPDATE_CHECK_INTERVAL_MS, type UpdateStatus } from '@shared/updates.ts';
import { ago } from '../common/ago.ts';
import { bridge } from '../common/bridge/index.ts';

/** The label the field has on the screen; every message about it starts with it. */
export const FEED_LABEL = 'Update address';

/** What is wrong with a typed update address, naming the field; null when it can be saved ('' turns updates off). */
export function feedAddressProblem(text: string): string | null {
  if (text.trim() === '') return null;
  const parsed = updateFeedUrlSchema.safeParse(text);
  return parsed.success ? null : `${FEED_LABEL} ${parsed.error.issues[0]?.message ?? 'is not valid'}`;
}

const EVERY = `every ${UPDATE_CHECK_INTERVAL_MS / 3_600_000} hours`;

const hostOf = (address: string) => {
  try {
    return new URL(address).host;
  } catch {
    return address;
  }
};

/**
 * The state of updates as an advisor reads it: whether and where this copy looks for updates, and
 * the last check since the app started (null when there is nothing to say about one).
 */
export function describeUpdates(
  status: UpdateStatus,
  now: number,
  desktop: boolean,
): { state: string; last: string | null } {
  if (status.unverifiable)
    return {
      state:
        'This build never installs updates by itself: it was made without the key that verifies them. Install new versions from your firm.',
      last: null,
    };
  if (!status.checks)
    return {
      state: desktop
        ? 'This development build does not look for updates; the installed app does, at the address saved here.'
        : 'The browser preview does not look for updates; the installed app does, at the address saved here.',
      last: null,
    };
  const state =
    status.feedUrl === null
      ? 'Updates are off until an address is set.'
      : `On: the app looks for updates at ${hostOf(status.feedUrl)} when it starts and ${EVERY}; an update is downloaded in the background and installed when you quit, once its signature is verified.`;
  if (!status.last)
    return { state, last: status.feedUrl === null ? null : 'No check yet since the app started.' };
  const when = `Last check ${ago(status.last.at, now)}`;
  const { check } = status.last;
  const last =
    check.state === 'checked'
      ? `${when}: ${hostOf(check.feedUrl)} answered; a newer version, if any, is being downloaded.`
      : check.state === 'failed'
        ? `${when} failed: ${check.message}. The app tries again ${EVERY}.`
        : check.state === 'refused'
          ? `${when}: the saved address was refused (it ${check.reason}). Enter an https:// address.`
          : `${when}: updates were off.`;
  return { state, last };
}

const unreachable = (error: unknown) =>
  error instanceof Error ? error.message : 'Advisor Desk could not reach its main process.';

/** The Updates card's data: the status from the main process, the typed address and its errors. */
export function useUpdates() {
  const status = ref<UpdateStatus | null>(null);
  const draft = ref('');
  const errors = ref<string[]>([]);
  const saving = ref(false);

  async function load(): Promise<void> {
    try {
      status.value = await bridge().updates.status();
      draft.value = status.value.feedUrl ?? '';
    } catch (error) {
      errors.value = [unreachable(error)];
    }
  }

  /** Saves the typed address ('' turns updates off); true when saved. What was typed is kept on a refusal. */
  async function save(address = draft.value): Promise<boolean> {
    const problem = feedAddressProblem(address);
    if (problem) {
      errors.value = [problem];
      return false;
    }
    saving.value = true;
    try {
      const result = await bridge().updates.setFeed(address.trim());
      if (!result.ok) {
        // Not confirmed in the app's dialog: nothing saved, and what was typed stays.
        errors.value = 'fields' in result ? Object.values(result.fields).flat() : [];
        return false;
      }
      errors.value = [];
      status.value = result.status;
      draft.value = result.status.feedUrl ?? '';
      return true;
    } catch (error) {
      errors.value = [unreachable(error)];
      return false;
    } finally {
      saving.value = false;
    }
  }

  return { status, draft, errors, saving, load, save };
}
