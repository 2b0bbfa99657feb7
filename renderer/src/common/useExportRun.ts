// One export under way in its dialog (the account list, a household's files, a meeting summary):
// at most one at a time, its progress, a Cancel that aborts it (leaving no file), what stopped it
// in words, and a toast saying where the file was saved.
import { useToast } from 'primevue/usetoast';
import { ref, shallowRef } from 'vue';
import type { ExportOutcome } from './save-export.ts';
import { fileNameParts, plainOf } from '@shared/platform-text.ts';

type Saved = Extract<ExportOutcome, { ok: true }>;

export interface ExportRunOptions {
  /** Closes the dialog (after a save, and on Cancel when nothing runs). */
  close: () => void;
  /** Whether the dialog closes when the advisor cancels (the save dialog or the export itself). */
  closeWhenCancelled?: boolean;
  /** What went wrong when the export itself threw (its service did not answer): nothing was saved. */
  failed: (error: unknown) => string;
}

export function useExportRun<Phase extends string>(options: ExportRunOptions) {
  const toast = useToast();
  const running = shallowRef<AbortController | null>(null);
  const progress = ref<{ phase: Phase; done: number; total: number } | null>(null);
  const problem = ref<string | null>(null);

  function onProgress(phase: Phase, done: number, total: number) {
    progress.value = { phase, done, total };
  }

  /** Runs `work`; once saved, says what (`12 accounts`) and where. */
  async function run<R extends ExportOutcome>(
    work: (signal: AbortSignal) => Promise<R>,
    what: (saved: Saved & R) => string,
  ): Promise<void> {
    if (running.value) return;
    const controller = new AbortController();
    running.value = controller;
    progress.value = null;
    problem.value = null;
    try {
      const result = await work(controller.signal);
      if (result.ok) {
        options.close();
        toast.add({
          severity: 'success',
          summary: `Saved ${plainOf(fileNameParts(result.name))}`,
          detail: `${what(result as Saved & R)}, in ${result.path}`,
          life: 8000,
        });
      } else if (!result.cancelled) problem.value = result.message;
      else if (options.closeWhenCancelled) options.close();
    } catch (error) {
      problem.value = options.failed(error);
    } finally {
      running.value = null;
      progress.value = null;
    }
  }

  function cancel() {
    if (running.value) running.value.abort();
    else options.close();
  }

  return { running, progress, problem, onProgress, run, cancel };
}
