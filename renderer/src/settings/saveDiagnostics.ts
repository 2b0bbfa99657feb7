// "Save diagnostics…" in Settings: asks the main process to write the recent diagnostics log to a
// file the user chooses (the preview: its downloads folder), and says where it went or why not.

import { useToast } from 'primevue/usetoast';
import { ref } from 'vue';
import type { SaveDiagnosticsResult } from '@shared/bridge.ts';
import { bridge } from '../common/bridge/index.ts';

export interface Notice {
  severity: 'success' | 'error';
  summary: string;
  detail: string;
}

/** What to tell the user after a save; null when they cancelled the dialog. */
export function noticeOf(result: SaveDiagnosticsResult): Notice | null {
  if (result.ok)
    return {
      severity: 'success',
      summary: 'Diagnostics saved',
      detail: `Saved to ${result.path}. It holds ids, counts and statuses of the sync, no client data: send it to support.`,
    };
  if (result.cancelled) return null;
  return { severity: 'error', summary: 'Diagnostics not saved', detail: result.message };
}

export function useSaveDiagnostics() {
  const toast = useToast();
  const saving = ref(false);
  async function save(): Promise<void> {
    if (saving.value) return;
    saving.value = true;
    try {
      const notice = noticeOf(await bridge().diagnostics.save());
      if (notice) toast.add({ ...notice, life: notice.severity === 'success' ? 8000 : 10000 });
    } catch (error) {
      toast.add({
        severity: 'error',
        summary: 'Diagnostics not saved',
        detail: error instanceof Error ? error.message : 'Advisor Desk could not reach its main process.',
        life: 10000,
      });
    } finally {
      saving.value = false;
    }
  }
  return { saving, save };
}
