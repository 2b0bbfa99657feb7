// The renderer's side of the export service (Bridge `exports`): where a file made here goes to
// disk. `saveExport` writes a finished file (a PDF, a zip); `beginExport` asks where first and
// takes the bytes as they are made (a long list), in chunks the bridge carries.

import { EXPORT_CHUNK_BYTES } from '@shared/bridge-schema.ts';
import type { Bridge } from '@shared/bridge.ts';

/** The bridge's export service (`bridge().exports`), passed in so these helpers run in tests without a window. */
export type ExportApi = Bridge['exports'];

/** Small writes are gathered into one call of about this size (fewer round trips, steady progress). */
const GATHER_BYTES = 1024 * 1024;

export type ExportOutcome =
  | { ok: true; path: string; name: string; bytes: number }
  | { ok: false; cancelled: true }
  | { ok: false; cancelled: false; message: string };

/** A file being written: bytes go in as they are made; `finish` puts it in place, `cancel` leaves nothing. */
export interface ExportSink {
  /** The file's name as it will be saved (after the dialog and the sanitizer). */
  readonly name: string;
  /** Queues bytes; resolves once earlier bytes reached the main process (false: the export failed, see finish). */
  write(bytes: Uint8Array): Promise<boolean>;
  finish(): Promise<ExportOutcome>;
  cancel(): Promise<ExportOutcome>;
}

/**
 * Asks where to save (Electron: the save dialog; the preview: its downloads folder) and opens the
 * file; the outcome instead when the user cancels or the file cannot be made.
 */
export async function beginExport(
  api: ExportApi,
  suggestedName: string,
): Promise<ExportSink | Exclude<ExportOutcome, { ok: true }>> {
  const begun = await api.begin(suggestedName);
  if (!begun.ok)
    return begun.cancelled ? begun : { ok: false, cancelled: false, message: begun.error.message };
  const { exportId, name } = begun;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let failure: string | null = null;
  let ended = false;

  async function send(bytes: Uint8Array): Promise<void> {
    for (let at = 0; at < bytes.length && failure === null; at += EXPORT_CHUNK_BYTES) {
      // A copy, not a view: IPC would carry a view's whole underlying buffer.
      const written = await api.write(exportId, bytes.slice(at, at + EXPORT_CHUNK_BYTES));
      if (!written.ok) failure = written.error.message;
    }
  }
  async function flush(): Promise<void> {
    if (pendingBytes === 0) return;
    const joined = concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    await send(joined);
  }
  return {
    name,
    async write(bytes) {
      if (ended || failure !== null) return false;
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (pendingBytes >= GATHER_BYTES) await flush();
      return failure === null;
    },
    async finish() {
      if (ended) return { ok: false, cancelled: true };
      await flush();
      ended = true;
      if (failure !== null) return { ok: false, cancelled: false, message: failure };
      const done = await api.finish(exportId);
      return done.ok
        ? { ok: true, path: done.path, name, bytes: done.bytes }
        : { ok: false, cancelled: false, message: done.error.message };
    },
    async cancel() {
      ended = true;
      pending = [];
      await api.cancel(exportId);
      return { ok: false, cancelled: true };
    },
  };
}

export interface SaveOptions {
  /** Bytes written so far, of all of them. */
  onProgress?: (written: number, total: number) => void;
  signal?: AbortSignal;
}

/** Saves a finished file: asks where, writes it in chunks (progress after each), puts it in place. */
export async function saveExport(
  api: ExportApi,
  suggestedName: string,
  content: Uint8Array | Blob,
  options: SaveOptions = {},
): Promise<ExportOutcome> {
  const bytes = content instanceof Uint8Array ? content : new Uint8Array(await content.arrayBuffer());
  const sink = await beginExport(api, suggestedName);
  if (!('write' in sink)) return sink;
  return writeWhole(sink, bytes, options);
}

/** Writes a finished file into an export begun already, then finishes it (or cancels, on the signal). */
export async function writeWhole(
  sink: ExportSink,
  bytes: Uint8Array,
  { onProgress, signal }: SaveOptions = {},
): Promise<ExportOutcome> {
  for (let at = 0; at < bytes.length; at += GATHER_BYTES) {
    if (signal?.aborted) return sink.cancel();
    if (!(await sink.write(bytes.subarray(at, at + GATHER_BYTES)))) break;
    onProgress?.(Math.min(at + GATHER_BYTES, bytes.length), bytes.length);
  }
  if (signal?.aborted) return sink.cancel();
  return sink.finish();
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
