// @vitest-environment happy-dom
// The dialog around an export (ExportDialog with useExportRun, as the account list, household
// and meeting summary exports use them), mounted for real with an export the test holds open:
// its progress while it runs, a Cancel that aborts it and leaves the dialog as the export wants,
// a toast saying what was saved where, the platform's or disk's failure in words with "Try again",
// and an export that threw said as nothing saved.

import { mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import Toast from 'primevue/toast';
import ToastService from 'primevue/toastservice';
import { defineComponent, h, ref } from 'vue';
import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import ExportDialog from '../../../renderer/src/common/ExportDialog.vue';
import { useExportRun } from '../../../renderer/src/common/useExportRun.ts';
import type { ExportOutcome } from '../../../renderer/src/common/save-export.ts';
import { byTestId, click, one, settle } from '../workspace/harness.ts';

/** An export the test finishes: it reports progress, and ends when told or when aborted. */
function heldExport() {
  let finish: (outcome: ExportOutcome & { rows: number }) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  let signal: AbortSignal | null = null;
  const work = (s: AbortSignal, onProgress: (phase: 'writing', done: number, total: number) => void) => {
    signal = s;
    onProgress('writing', 250, 1000);
    return new Promise<ExportOutcome & { rows: number }>((resolve, reject) => {
      finish = resolve;
      fail = reject;
      s.addEventListener('abort', () => resolve({ ok: false, cancelled: true, rows: 0 }));
    });
  };
  return {
    work,
    finish: (o: ExportOutcome & { rows: number }) => finish(o),
    fail: (e: Error) => fail(e),
    aborted: () => signal?.aborted ?? false,
  };
}

const visible = ref(true);
const format = ref('csv');
let unmount: (() => void) | null = null;
unmountAfterEach();

async function mountExport(
  held: ReturnType<typeof heldExport>,
  options: {
    closeWhenCancelled?: boolean;
    retry?: boolean;
    cancellable?: boolean;
    formats?: { value: string; label: string }[];
  } = {},
) {
  format.value = 'csv';
  visible.value = true;
  const Host = defineComponent(() => {
    const run = useExportRun<'writing'>({
      close: () => (visible.value = false),
      closeWhenCancelled: options.closeWhenCancelled,
      failed: (error) => `The file was not saved: ${(error as Error).message}. Try again.`,
    });
    const start = () =>
      void run.run(
        (signal) => held.work(signal, run.onProgress),
        (s) => `${s.rows} rows`,
      );
    return () => [
      h(Toast),
      h(
        ExportDialog,
        {
          visible: visible.value,
          'onUpdate:visible': (v: boolean) => (visible.value = v),
          header: 'Export the rows',
          testId: 'export-rows',
          running: run.running.value !== null,
          progressText: run.progress.value
            ? `${run.progress.value.done} of ${run.progress.value.total} bytes`
            : '',
          percent: run.progress.value ? (run.progress.value.done / run.progress.value.total) * 100 : null,
          problem: run.problem.value,
          retry: options.retry,
          cancellable: options.cancellable,
          formats: options.formats,
          format: format.value,
          'onUpdate:format': (f: string | undefined) => (format.value = f ?? ''),
          onStart: start,
          onCancel: run.cancel,
        },
        () => h('p', 'The rows, as a file.'),
      ),
    ];
  });
  const wrapper = mount(Host, {
    attachTo: document.body,
    global: { plugins: [[PrimeVue, { theme: 'none' }], ToastService], stubs: { transition: false } },
  });
  unmount = () => wrapper.unmount();
  await settle();
}

const startButton = () => one('export-start') as HTMLButtonElement;
const cancelButton = () => one('export-cancel') as HTMLButtonElement;

describe('an export in its dialog', () => {
  it('shows its progress, and Cancel stops it: no file, the dialog open to choose again', async () => {
    const held = heldExport();
    await mountExport(held);
    expect(one('export-rows').textContent).toContain('The rows, as a file.');
    expect(cancelButton().textContent?.trim()).toBe('Cancel');

    await click(startButton());
    expect(one('export-progress').textContent).toContain('250 of 1000 bytes');
    expect(startButton().disabled).toBe(true);
    expect(cancelButton().textContent?.trim()).toBe('Cancel export');

    await click(cancelButton());
    expect(held.aborted()).toBe(true);
    await settle();
    expect(byTestId('export-progress')).toHaveLength(0);
    expect(byTestId('export-problem')).toHaveLength(0);
    expect(visible.value).toBe(true);
    expect(startButton().disabled).toBe(false);
    // Cancel again, with nothing running, closes the dialog.
    await click(cancelButton());
    expect(visible.value).toBe(false);
  });

  it('closes when cancelled, for an export that wants it', async () => {
    const held = heldExport();
    await mountExport(held, { closeWhenCancelled: true });
    await click(startButton());
    await click(cancelButton());
    await settle();
    expect(held.aborted()).toBe(true);
    expect(visible.value).toBe(false);
  });

  it('saved: closes and says what was saved where', async () => {
    const held = heldExport();
    await mountExport(held);
    await click(startButton());
    held.finish({ ok: true, name: 'rows.csv', path: '/home/advisor/Documents', bytes: 1000, rows: 12 });
    await settle();
    expect(visible.value).toBe(false);
    expect(document.body.textContent).toContain('Saved rows.csv');
    expect(document.body.textContent).toContain('12 rows, in /home/advisor/Documents');
  });

  it('a failure in words, with Try again and Close; an export that threw: nothing saved', async () => {
    const held = heldExport();
    await mountExport(held, { retry: true });
    await click(startButton());
    held.finish({ ok: false, cancelled: false, message: 'The disk is full: free some space.', rows: 0 });
    await settle();
    expect(one('export-problem').textContent).toContain('The disk is full: free some space.');
    expect(startButton().textContent?.trim()).toBe('Try again');
    expect(cancelButton().textContent?.trim()).toBe('Close');
    expect(visible.value).toBe(true);

    await click(startButton());
    expect(byTestId('export-problem')).toHaveLength(0);
    held.fail(new Error('the export service did not answer'));
    await settle();
    expect(one('export-problem').textContent).toContain(
      'The file was not saved: the export service did not answer. Try again.',
    );
  });

  it('an export that cannot be stopped keeps Cancel disabled while it runs', async () => {
    const held = heldExport();
    await mountExport(held, { cancellable: false });
    await click(startButton());
    expect(cancelButton().disabled).toBe(true);
    expect(cancelButton().textContent?.trim()).toBe('Cancel');
    held.finish({ ok: true, name: 'rows.pdf', path: '/tmp', bytes: 1, rows: 1 });
    await settle();
    expect(visible.value).toBe(false);
  });

  it('offers the formats when there are several, not while the export runs, and none for one', async () => {
    const held = heldExport();
    const FORMATS = [
      { value: 'csv', label: 'CSV' },
      { value: 'xlsx', label: 'Excel (XLSX)' },
    ];
    await mountExport(held, { formats: FORMATS });
    const choice = one('export-format');
    expect(choice.getAttribute('aria-label')).toBe('File format');
    const excel = [...choice.querySelectorAll<HTMLButtonElement>('button')].find((b) =>
      b.textContent?.includes('Excel'),
    )!;
    await click(excel);
    expect(format.value).toBe('xlsx');

    await click(startButton());
    expect([...one('export-format').querySelectorAll('button')].every((b) => b.disabled)).toBe(true);
    held.finish({ ok: false, cancelled: true, rows: 0 });
    await settle();
    unmount?.();

    await mountExport(heldExport(), { formats: FORMATS.slice(0, 1) });
    expect(byTestId('export-format')).toHaveLength(0);
  });
});
