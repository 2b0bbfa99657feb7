// A report downloaded: through the main process (which alone holds the sign-in) to the place the
// advisor chooses in the save dialog, with its progress while it comes, then "Open" for the file
// just saved. Reports are made by the platform when asked, so this is online only.

import { computed, ref } from 'vue';
import { bridge } from '../common/bridge/index.ts';
import {
  progressPercent,
  saveStoredFile,
  thrownOutcome,
  type FileOutcome,
  type FileProgress,
} from '../common/stored-files.ts';
import type { ReportFile } from './reports.ts';

export const OFFLINE_WORDS =
  'Reports are made by the platform when you ask for them, so they need a connection. This computer is offline now.';

export function useReportDownload() {
  const busy = ref(false);
  const progress = ref<FileProgress | null>(null);
  const outcome = ref<FileOutcome | null>(null);
  const opened = ref<string | null>(null);

  const percent = computed(() => progressPercent(progress.value));

  async function download(file: ReportFile, online: boolean): Promise<void> {
    outcome.value = null;
    opened.value = null;
    if (!online) {
      outcome.value = { ok: false, cancelled: false, notKept: false, message: OFFLINE_WORDS };
      return;
    }
    busy.value = true;
    progress.value = null;
    try {
      const done = await saveStoredFile(file, {
        online: true,
        onProgress: (p) => (progress.value = p),
      });
      // Closing the save dialog is no failure to tell about.
      outcome.value = done.ok || !done.cancelled ? done : null;
    } catch (error) {
      outcome.value = thrownOutcome(error);
    } finally {
      busy.value = false;
      progress.value = null;
    }
  }

  /** Opens the file just saved with the system's viewer. */
  async function open(): Promise<void> {
    const saved = outcome.value;
    if (!saved?.ok) return;
    const answer = await bridge().files.openSaved(saved.path);
    opened.value = !answer.ok
      ? answer.error.message
      : answer.shown === 'viewer'
        ? 'Opened.'
        : `The browser preview cannot start a viewer: the file is in ${answer.path}.`;
  }

  return { busy, progress, percent, outcome, opened, download, open };
}
