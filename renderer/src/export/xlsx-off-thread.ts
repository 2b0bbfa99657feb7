// Builds a workbook in a worker (xlsx-worker.ts) so the window never stalls on a large one; where
// there is no Worker it is built in this thread.

import { workbookBytes, type SheetTable } from './xlsx-sheets.ts';

/** The .xlsx file's bytes; `signal` ends the worker at once (the promise rejects with an AbortError). */
export function workbookOffThread(sheets: readonly SheetTable[], signal?: AbortSignal): Promise<Uint8Array> {
  if (typeof Worker === 'undefined') return workbookBytes(sheets);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./xlsx-worker.ts', import.meta.url), { type: 'module' });
    const stop = () => {
      worker.terminate();
      reject(new DOMException('The export was cancelled.', 'AbortError'));
    };
    signal?.addEventListener('abort', stop, { once: true });
    worker.onmessage = (event: MessageEvent<{ bytes?: Uint8Array; error?: string }>) => {
      signal?.removeEventListener('abort', stop);
      worker.terminate();
      if (event.data.bytes) resolve(event.data.bytes);
      else reject(new Error(event.data.error ?? 'The workbook could not be made.'));
    };
    worker.onerror = (event) => {
      signal?.removeEventListener('abort', stop);
      worker.terminate();
      reject(new Error(event.message || 'The workbook could not be made.'));
    };
    worker.postMessage(sheets);
  });
}
