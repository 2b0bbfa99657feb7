// Files the renderer makes from the local store (a household's summary, the account list) written
// to where the user chooses: the bytes arrive in chunks into a hidden temporary file beside the
// target, are flushed to disk and renamed into place, so an export that fails or is cancelled
// leaves nothing behind and never replaces an existing file with part of one. Files are the
// user's alone (0600), their names made safe like downloads' (file-names.ts).

import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import type { ApiFailure } from '@shared/api/request.ts';
import type {
  DiskFailure,
  ExportBeginResult,
  ExportFinishResult,
  ExportWriteResult,
} from '@shared/bridge.ts';
import { diskFailure, type ChooseSavePath } from '../files/file-service.ts';
import { safeChosenPath, sanitizeFileName } from '../files/file-names.ts';

/** An export nobody writes to for this long was abandoned (a reloaded window): its temporary file goes. */
const IDLE_MS = 10 * 60_000;
/** Exports open at once; more is a renderer that forgets to finish them. */
const MAX_OPEN = 8;

interface OpenExport {
  target: string;
  partial: string;
  file: FileHandle;
  bytes: number;
  /** Writes run one after another, in the order they were asked. */
  queue: Promise<unknown>;
  idle: ReturnType<typeof setTimeout>;
}

export class ExportService {
  private readonly open = new Map<string, OpenExport>();

  constructor(
    private readonly chooseSavePath: ChooseSavePath,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Asks where to save and opens the temporary file there. */
  async begin(suggestedName: string): Promise<ExportBeginResult> {
    if (this.open.size >= MAX_OPEN)
      return {
        ok: false,
        cancelled: false,
        error: refusal('Too many exports are under way; finish or cancel one first.'),
      };
    // A name of which nothing usable is left (`CON.csv`) still says what kind of file it is.
    const name = sanitizeFileName(suggestedName, `export${extname(suggestedName).toLowerCase()}`);
    const chosen = await this.chooseSavePath(name);
    if (chosen === null) return { ok: false, cancelled: true };
    const target = safeChosenPath(chosen, name);
    if ([...this.open.values()].some((e) => e.target === target))
      return {
        ok: false,
        cancelled: false,
        error: refusal('Another export is being saved to this file; wait for it to finish.'),
      };
    const folder = dirname(target);
    // Hidden and random: never the name of a file the user has, never shared by two exports.
    const partial = join(folder, `.${randomBytes(6).toString('base64url')}.part`);
    let file: FileHandle;
    try {
      // The preview's downloads folder is made on first use; a folder the user chose exists already.
      await mkdir(folder, { recursive: true, mode: 0o700 });
      file = await open(partial, 'wx', 0o600);
    } catch (error) {
      return { ok: false, cancelled: false, error: diskFailure(error, folder) };
    }
    const exportId = randomBytes(16).toString('base64url');
    this.open.set(exportId, {
      target,
      partial,
      file,
      bytes: 0,
      queue: Promise.resolve(),
      idle: this.idleTimer(exportId),
    });
    return { ok: true, exportId, name: target.slice(folder.length + 1) };
  }

  /** Appends a chunk; a write that fails ends the export (its temporary file removed). */
  write(exportId: string, chunk: Uint8Array): Promise<ExportWriteResult> {
    const entry = this.open.get(exportId);
    if (!entry) return Promise.resolve({ ok: false, error: unknownExport() });
    this.touch(exportId, entry);
    const written = entry.queue.then(async (): Promise<ExportWriteResult> => {
      if (this.open.get(exportId) !== entry) return { ok: false, error: unknownExport() };
      try {
        let done = 0;
        while (done < chunk.length)
          done += (await entry.file.write(chunk, done, chunk.length - done)).bytesWritten;
        entry.bytes += chunk.length;
        return { ok: true, bytes: entry.bytes };
      } catch (error) {
        await this.discard(exportId);
        return { ok: false, error: diskFailure(error, dirname(entry.target)) };
      }
    });
    entry.queue = written;
    return written;
  }

  /** Waits for the writes asked before, flushes the file to disk and renames it into place. */
  async finish(exportId: string): Promise<ExportFinishResult> {
    const entry = this.open.get(exportId);
    if (!entry) return { ok: false, error: unknownExport() };
    await entry.queue;
    if (this.open.get(exportId) !== entry) return { ok: false, error: unknownExport() };
    this.forget(exportId, entry);
    try {
      await entry.file.sync();
      await entry.file.close();
      await rename(entry.partial, entry.target);
      await syncFolder(dirname(entry.target));
      return { ok: true, path: entry.target, bytes: entry.bytes };
    } catch (error) {
      await entry.file.close().catch(() => undefined);
      await rm(entry.partial, { force: true });
      return { ok: false, error: diskFailure(error, dirname(entry.target)) };
    }
  }

  /** Removes the temporary file; an unknown id (already finished or cancelled) is nothing to do. */
  async cancel(exportId: string): Promise<void> {
    const entry = this.open.get(exportId);
    if (!entry) return;
    await entry.queue.catch(() => undefined);
    await this.discard(exportId);
  }

  /** Ends every export under way (the app quits, the host closes): no temporary file stays. */
  async cancelAll(): Promise<void> {
    await Promise.all([...this.open.keys()].map((id) => this.cancel(id)));
  }

  private async discard(exportId: string): Promise<void> {
    const entry = this.open.get(exportId);
    if (!entry) return;
    this.forget(exportId, entry);
    await entry.file.close().catch(() => undefined);
    await rm(entry.partial, { force: true });
  }

  private forget(exportId: string, entry: OpenExport): void {
    clearTimeout(entry.idle);
    this.open.delete(exportId);
  }

  private touch(exportId: string, entry: OpenExport): void {
    clearTimeout(entry.idle);
    entry.idle = this.idleTimer(exportId);
  }

  private idleTimer(exportId: string): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => void this.cancel(exportId), this.idleMs);
    timer.unref?.();
    return timer;
  }
}

/**
 * The folder's entry of the renamed file reaches the disk too (a power cut right after would
 * otherwise lose the name). Windows cannot open a folder for that, and needs not: best effort.
 */
async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  try {
    const handle = await open(folder, 'r');
    await handle.sync().finally(() => handle.close());
  } catch {
    // Some file systems (network shares) refuse to sync a folder; the file itself is on disk.
  }
}

function refusal(message: string): ApiFailure {
  return { ok: false, kind: 'validation', status: null, message, fields: {}, retryAfterMs: null };
}

/** The export was finished, cancelled or abandoned already: its file is not being written any more. */
function unknownExport(): DiskFailure {
  return {
    ok: false,
    kind: 'io',
    status: null,
    message:
      'This export is no longer under way (it was finished, cancelled or left too long); start it again.',
    fields: { exportId: ['not an export under way'] },
    retryAfterMs: null,
  };
}
