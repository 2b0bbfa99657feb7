// The window's side of an account's stored files: open one with the system's viewer or save it,
// through the main process (which holds the sign-in and this computer's copies), with its progress
// read while it downloads, and the outcome in the advisor's words. Offline, only this computer's
// copy is asked for: a file never downloaded here says so, and nothing is sent.

import { fileNameParts, plainOf } from '@shared/platform-text.ts';
import type { DownloadResult, FileTransfer, OpenFileResult, StoredFileRequest } from '@shared/bridge.ts';
import type { StoredFile } from '../data/stored-files.ts';
import { bridge } from './bridge/index.ts';

export interface FileProgress {
  bytes: number;
  total: number | null;
}

export type FileOutcome =
  | { ok: true; message: string; path: string }
  | { ok: false; cancelled: boolean; notKept: boolean; message: string };

export interface FileActionOptions {
  /** Whether the platform may be asked; false: this computer's copy only. */
  online: boolean;
  onProgress?: (progress: FileProgress) => void;
  /** How often progress is read while the file downloads (ms). */
  pollMs?: number;
}

type FileRef = Pick<StoredFile, 'api' | 'url' | 'name'>;

const request = (file: FileRef, online: boolean): StoredFileRequest => ({
  api: file.api,
  url: file.url,
  name: file.name,
  priority: 'interactive',
  ...(online ? {} : { keptOnly: true }),
});

/** Opens the file with the system's viewer (the browser preview saves it in its downloads folder). */
export async function openStoredFile(file: FileRef, options: FileActionOptions): Promise<FileOutcome> {
  const answer: OpenFileResult = await withProgress(
    file,
    options,
    bridge().files.open(request(file, options.online)),
  );
  if (!answer.ok)
    return { ok: false, cancelled: false, notKept: answer.notKept, message: answer.error.message };
  const message =
    answer.shown === 'viewer'
      ? // The viewer has a copy that goes at sign-out (the kept file stays the platform's).
        `Opened ${file.name ? plainOf(fileNameParts(file.name)) : 'the file'}. It is a copy: to keep changes made in it, use Save As… in the viewer.`
      : `The browser preview cannot start a viewer: the file was saved in ${answer.path}.`;
  return { ok: true, message, path: answer.path };
}

/** Saves the file where the advisor chooses (from this computer's copy when it keeps one). */
export async function saveStoredFile(file: FileRef, options: FileActionOptions): Promise<FileOutcome> {
  const answer: DownloadResult = await withProgress(
    file,
    options,
    bridge().files.save(request(file, options.online)),
  );
  if (answer.ok) return { ok: true, message: `Saved in ${answer.path}.`, path: answer.path };
  if (answer.cancelled) return { ok: false, cancelled: true, notKept: false, message: '' };
  const notKept = !options.online && answer.error.kind === 'network';
  return { ok: false, cancelled: false, notKept, message: answer.error.message };
}

/** A file action that threw (no answer from the main process at all), in the advisor's words. */
export function thrownOutcome(error: unknown): FileOutcome {
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, cancelled: false, notKept: false, message };
}

/** The share of a download done (0–100), or null while its length is not known. */
export function progressPercent(progress: FileProgress | null): number | null {
  return progress?.total ? Math.min(100, Math.round((100 * progress.bytes) / progress.total)) : null;
}

/** Which of these files this computer keeps offline, with their sizes in bytes. */
export async function keptFiles(files: readonly FileRef[]): Promise<Map<string, number | null>> {
  if (files.length === 0) return new Map();
  const answers = await bridge().files.kept(files.map(({ api, url }) => ({ api, url })));
  return new Map(answers.filter((a) => a.kept).map((a) => [a.url, a.bytes]));
}

/** Reads the main process's downloads while `pending` runs, and tells the bytes of this file. */
async function withProgress<T>(file: FileRef, options: FileActionOptions, pending: Promise<T>): Promise<T> {
  const { onProgress } = options;
  if (!onProgress) return pending;
  let done = false;
  const poll = async () => {
    while (!done) {
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
      if (done) return;
      const under: FileTransfer[] = await bridge()
        .files.transfers()
        .catch(() => []);
      const mine = under.find((t) => t.api === file.api && t.url === file.url);
      if (mine && !done) onProgress({ bytes: mine.bytes, total: mine.total });
    }
  };
  void poll();
  try {
    return await pending;
  } finally {
    done = true;
  }
}
