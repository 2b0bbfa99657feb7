// An account's stored files (photos, licences, documents) opened, saved and kept offline: each is
// kept in the signed-in user's cache folder under `.kept/<hash of its address>/<its name>`, so the
// same address finds the same copy offline, and the copy goes with the rest of the user's folder at
// sign-out (FileService.forgetUser). Open hands the viewer a fresh copy of it (opened-copies.ts),
// under the file's real name and extension, never the kept file. The name is the one the platform
// gave when this computer downloaded the file (platformFileName): the window's name for it is
// never what decides which program opens it or what a saved copy is called.

import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { ApiFailure } from '@shared/api/request.ts';
import type {
  DiskFailure,
  DownloadResult,
  FileTransfer,
  KeepFilesResult,
  KeptFile,
  OpenFileResult,
  OpenSavedResult,
  StoredFileRequest,
} from '@shared/bridge.ts';
import {
  cacheName,
  NO_USER,
  NOT_KEPT,
  platformFileName,
  type FileService,
  type PlatformFiles,
} from './file-service.ts';
import { sanitizeFileName } from './file-names.ts';
import { FileTransfers } from './file-transfers.ts';
import { openedCopyPath } from './opened-copies.ts';

/** Opens a file with the system's viewer: '' when it did, else the reason (Electron's shell.openPath). */
export type OpenPath = (path: string) => Promise<string>;

const KEPT = '.kept';

/**
 * What Open hands to the system's viewer: documents and pictures by their extension. Anything else
 * (`setup.exe`, `invoice.pdf.bat`, a `.desktop` or `.command` file) could be run rather than shown.
 */
const OPENABLE =
  /\.(pdf|png|jpe?g|gif|webp|heic|heif|bmp|tiff?|txt|csv|rtf|docx?|xlsx?|pptx?|odt|ods|odp|pages|numbers|key)$/i;

/** Offline, and this computer never downloaded the file: nothing was sent. */
type Failure = ApiFailure | DiskFailure;

export class StoredFiles {
  /** Downloads into the cache under way, by user folder and address: asked twice, fetched once. */
  private readonly fetching = new Map<string, Promise<{ path: string } | { error: Failure }>>();
  readonly transfers = new FileTransfers();
  /** Files Save… put where the user chose in this run of the app: the only paths `openSaved` opens. */
  private readonly saved = new Set<string>();

  constructor(
    private readonly files: FileService,
    private readonly platform: Pick<PlatformFiles, 'address'>,
    /** Absent where no viewer can be started (the browser preview): the file is saved instead. */
    private readonly openPath: OpenPath | null,
  ) {
    files.keptCopy = (folder, api, source) => keptPath(folder, api, source);
  }

  async open(request: StoredFileRequest): Promise<OpenFileResult> {
    // A file's name decides which program the system starts: only documents and pictures are
    // handed to it, never a program or a script. A name the window gives that is neither is
    // refused before anything is fetched; what opens is judged by the name the platform gave.
    const source = this.platform.address(request.api, request.url);
    if (source instanceof URL && !OPENABLE.test(nameOf(request, source)))
      return { ok: false, notKept: false, error: notOpenable(nameOf(request, source)) };
    const found = await this.keptOrFetched(request);
    if ('error' in found) return { ok: false, notKept: found.error === NOT_KEPT, error: found.error };
    const name = basename(found.path);
    if (!OPENABLE.test(name)) return { ok: false, notKept: false, error: notOpenable(name) };
    const bytes = (await stat(found.path)).size;
    if (this.openPath) {
      // The viewer gets a copy: whatever it saves never changes the file kept here.
      const copy = await this.openedCopy(found.path, found.source);
      if (!copy.ok) return { ok: false, notKept: false, error: copy.error };
      const problem = await this.openPath(copy.path);
      if (problem !== '') return { ok: false, notKept: false, error: viewerFailure(problem) };
      return { ok: true, shown: 'viewer', path: copy.path, bytes, from: found.from };
    }
    const saved = await this.saveCopy(found.path, found.source);
    if (!saved.ok) return { ok: false, notKept: false, error: saved.cancelled ? cancelled() : saved.error };
    return { ok: true, shown: 'saved', path: saved.path, bytes: saved.bytes, from: found.from };
  }

  /** To a place the user chooses: copied from this computer's copy when it keeps one, else downloaded. */
  async save(request: StoredFileRequest): Promise<DownloadResult> {
    const source = this.platform.address(request.api, request.url);
    if (!(source instanceof URL)) return { ok: false, cancelled: false, error: source };
    const folder = await this.files.userFolder();
    const kept = folder === null ? null : await keptPath(folder, request.api, source);
    if (kept) return this.saveCopy(kept, source);
    if (request.keptOnly) return { ok: false, cancelled: false, error: NOT_KEPT };
    const track = this.transfers.start(request, folder);
    try {
      const done = await this.files.saveFromPlatform(source, request, track.onBytes);
      if (done.ok) this.saved.add(done.path);
      return done;
    } finally {
      track.end();
    }
  }

  /**
   * "Open" after Save…: the file just saved, with the system's viewer. Only a path this service
   * saved is opened (the window cannot name any other file), and only a document or a picture.
   */
  async openSaved(path: string): Promise<OpenSavedResult> {
    if (!this.saved.has(path) || !existsSync(path)) return { ok: false, error: notSavedHere() };
    const name = path.split(/[\\/]/).pop() ?? '';
    if (!OPENABLE.test(name)) return { ok: false, error: notOpenable(name) };
    if (!this.openPath) return { ok: true, shown: 'saved', path };
    const problem = await this.openPath(path);
    return problem === ''
      ? { ok: true, shown: 'viewer', path }
      : { ok: false, error: viewerFailure(problem) };
  }

  /** Fetches every file not kept yet, one after another (the transport spaces them by its budget). */
  async keep(requests: readonly StoredFileRequest[]): Promise<KeepFilesResult> {
    const result: KeepFilesResult = { kept: 0, fetched: 0, failed: [] };
    for (const request of requests) {
      const found = await this.keptOrFetched(request);
      if ('error' in found) result.failed.push({ url: request.url, error: found.error });
      else if (found.from === 'kept') result.kept++;
      else result.fetched++;
    }
    return result;
  }

  async kept(requests: readonly Pick<StoredFileRequest, 'api' | 'url'>[]): Promise<KeptFile[]> {
    const folder = await this.files.userFolder();
    return Promise.all(
      requests.map(async ({ api, url }) => {
        const source = this.platform.address(api, url);
        const path = folder === null || !(source instanceof URL) ? null : await keptPath(folder, api, source);
        const bytes = path === null ? null : ((await stat(path).catch(() => null))?.size ?? null);
        return { url, kept: bytes !== null, bytes };
      }),
    );
  }

  async underWay(): Promise<FileTransfer[]> {
    return this.transfers.of(await this.files.userFolder());
  }

  /** The kept copy's path, downloaded first when there is none (unless `keptOnly`); or why not. */
  private async keptOrFetched(
    request: StoredFileRequest,
  ): Promise<{ path: string; source: URL; from: 'kept' | 'platform' } | { error: Failure }> {
    // An address that is not a file of the platform is refused before anything is looked up.
    const source = this.platform.address(request.api, request.url);
    if (!(source instanceof URL)) return { error: source };
    const folder = await this.files.userFolder();
    if (folder === null) return { error: NO_USER };
    const kept = await keptPath(folder, request.api, source);
    if (kept) return { path: kept, source, from: 'kept' };
    if (request.keptOnly) return { error: NOT_KEPT };
    const key = join(folder, KEPT, cacheName(request.api, source));
    let fetching = this.fetching.get(key);
    if (!fetching) {
      fetching = this.fetch(request, source, folder).finally(() => this.fetching.delete(key));
      this.fetching.set(key, fetching);
    }
    const fetched = await fetching;
    return 'error' in fetched ? fetched : { path: fetched.path, source, from: 'platform' };
  }

  private async fetch(
    request: StoredFileRequest,
    source: URL,
    folder: string,
  ): Promise<{ path: string } | { error: Failure }> {
    // Named when the platform's answer comes, by the name it gives (the record Open and Save… read).
    const target = join(folder, KEPT, cacheName(request.api, source), 'file');
    const track = this.transfers.start(request, folder);
    try {
      const written = await this.files.downloadTo(target, source, request, track.onBytes, (fileName) =>
        platformFileName(fileName, source),
      );
      if (written.ok) return { path: written.path };
      return { error: written.cancelled ? cancelled() : written.error };
    } finally {
      track.end();
    }
  }

  /** A fresh private copy of the kept file for the viewer, in the user's opened-copies folder. */
  private async openedCopy(
    from: string,
    source: URL,
  ): Promise<{ ok: true; path: string } | { ok: false; error: Failure }> {
    const folder = await this.files.userFolder();
    if (folder === null) return { ok: false, error: NO_USER };
    const copied = await this.files.copyTo(openedCopyPath(folder, basename(from)), from, source);
    if (copied.ok) return { ok: true, path: copied.path };
    return { ok: false, error: copied.cancelled ? cancelled() : copied.error };
  }

  /** The kept copy where the user chooses, under the name it was kept by (the platform's). */
  private async saveCopy(from: string, source: URL): Promise<DownloadResult> {
    const target = await this.files.chooseTarget(basename(from));
    if (target === null) return { ok: false, cancelled: true };
    return this.files.copyTo(target, from, source);
  }
}

/** The file kept for `source` in a user's folder, or null when there is none (a `.part` is none). */
async function keptPath(folder: string, api: string, source: URL): Promise<string | null> {
  const dir = join(folder, KEPT, cacheName(api, source));
  if (!existsSync(dir)) return null;
  // Names made safe never start with a dot; temporary files always do.
  const whole = (await readdir(dir).catch(() => [] as string[])).find((name) => !name.startsWith('.'));
  return whole === undefined ? null : join(dir, whole);
}

/** The name the window gives, else the address's last part, made safe: only ever to refuse early. */
function nameOf(request: StoredFileRequest, source: URL): string {
  const fromAddress = decodeURIComponent(source.pathname.split('/').pop() ?? '');
  return sanitizeFileName(request.name.trim() || fromAddress || 'file');
}

function notOpenable(name: string): ApiFailure {
  return {
    ok: false,
    kind: 'validation',
    status: null,
    message: `${name} is not a document or a picture, so Advisor Desk does not open it; use Save… to keep it.`,
    fields: {},
    retryAfterMs: null,
  };
}

function notSavedHere(): ApiFailure {
  return {
    ok: false,
    kind: 'validation',
    status: null,
    message: 'Advisor Desk opens only the files it saved since it started; open this one from its folder.',
    fields: {},
    retryAfterMs: null,
  };
}

function viewerFailure(problem: string): ApiFailure {
  return {
    ok: false,
    kind: 'validation',
    status: null,
    message: `The file is on this computer but no program opened it (${problem}). Use Save… to put it somewhere and open it from there.`,
    fields: {},
    retryAfterMs: null,
  };
}

function cancelled(): ApiFailure {
  return {
    ok: false,
    kind: 'network',
    status: null,
    message: 'The file was not saved: no place was chosen.',
    fields: {},
    retryAfterMs: null,
  };
}
