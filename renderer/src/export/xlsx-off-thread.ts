// Builds a workbook in a worker (xlsx-worker.ts) so the window never stalls on a large one; where
// there is no Worker it is built in this thread. Typed without the DOM library (the bench page
// and tests typecheck with Node's), through the little of a Worker used here. The writer itself is
// loaded only for that fallback, so the window's bundle does not carry it.

import type { SheetTable } from './xlsx-sheets.ts';

interface WorkerAnswer {
  bytes?: Uint8Array;
  error?: string;
}
interface WorkerLike {
  postMessage(message: unknown): void;
  terminate(): void;
  onmessage: ((event: { data: WorkerAnswer }) => void) | null;
  onerror: ((event: { message?: string }) => void) | null;
}
type WorkerClass = new (url: URL, options: { type: 'module' }) => WorkerLike;

/** The .xlsx file's bytes; `signal` ends the worker at once (the promise rejects with an AbortError). */
export async function workbookOffThread(
  sheets: readonly SheetTable[],
  signal?: AbortSignal,
): Promise<Uint8Array> {
  // Named Worker so that vite sees `new Worker(new URL(…))` and bundles the worker's module.
  const Worker = (globalThis as { Worker?: WorkerClass }).Worker;
  if (Worker === undefined) return (await import('./xlsx-sheets.ts')).workbookBytes(sheets);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./xlsx-worker.ts', import.meta.url), { type: 'module' });
    const end = () => {
      signal?.removeEventListener('abort', stop);
      worker.terminate();
    };
    const stop = () => {
      end();
      reject(new DOMException('The export was cancelled.', 'AbortError'));
    };
    signal?.addEventListener('abort', stop, { once: true });
    worker.onmessage = ({ data }) => {
      end();
      if (data.bytes) resolve(data.bytes);
      else reject(new Error(data.error ?? 'The workbook could not be made.'));
    };
    worker.onerror = (event) => {
      end();
      reject(new Error(event.message || 'The workbook could not be made.'));
    };
    worker.postMessage(sheets);
  });
}
