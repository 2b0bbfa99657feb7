// Downloads from the platform: to a path the user picks, or to the signed-in user's cache folder
// for offline viewing (one folder per user key, removed with the rest of their copy on request),
// where the pictures the app shows (a member's photo) are kept too and read back, offline as well.
// Bytes are streamed to a temporary file beside the target and renamed into place, so a failed
// download never leaves half a file under the final name. Files are the user's alone (0600, in
// folders made 0700) and marked as come from the internet where the OS has such a mark.

import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { constants } from 'node:fs';
import { chmod, copyFile, mkdir, open, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ApiFailure, ApiName, Priority } from '@shared/api/request.ts';
import type {
  DiskFailure,
  DownloadRequest,
  DownloadResult,
  PreviewRequest,
  PreviewResult,
} from '@shared/bridge.ts';
import { downloadMarksFor, type DownloadMarks } from './download-marks.ts';
import { safeChosenPath, sanitizeFileName, uniqueName } from './file-names.ts';

export type DownloadBody =
  | {
      ok: true;
      body: WebReadableStream<Uint8Array> | Uint8Array;
      contentLength?: number | null;
      /** The name the platform gave the file (Content-Disposition), unsanitized; null or absent when none. */
      fileName?: string | null;
    }
  | ApiFailure;

/** Told of a download's bytes as they arrive, with the length the platform announced (or null). */
export type OnBytes = (bytes: number, total: number | null) => void;

/** The transport's side of a download: auth, rate limit and the address check live there. */
export interface PlatformFiles {
  download(url: string, options: { api: ApiName; priority: Priority }): Promise<DownloadBody>;
  /** The address `url` stands for, or why it is not a file of the platform; sends nothing. */
  address(api: ApiName, url: string): URL | ApiFailure;
}

/** Asks the user where to save; null when they cancel. The browser preview saves into a folder instead. */
export type ChooseSavePath = (suggestedName: string) => Promise<string | null>;

/** The user key (data/identity/) bound to the sign-in now, or null before one is bound. */
export type BoundUser = () => Promise<string | null>;

/** A user key (data/identity/): the name of each user's folder in the cache. */
export const USER_KEY = /^[0-9a-f]{32}$/;

/** Nobody bound to the sign-in yet: nothing is kept for offline viewing, so nothing of theirs is mixed. */
export const NO_USER: ApiFailure = {
  ok: false,
  kind: 'auth',
  status: null,
  message: 'Documents are kept for offline viewing once you are signed in. Sign in and try again.',
  fields: {},
  retryAfterMs: null,
};

/** Asked for this computer's copy alone (offline, or an export) and there is none: nothing was sent. */
export const NOT_KEPT: ApiFailure = {
  ok: false,
  kind: 'network',
  status: null,
  message: 'Not downloaded yet — available when online.',
  fields: {},
  retryAfterMs: null,
};

/** Where a user's pictures are kept for showing, beside the documents kept for offline viewing. */
const PREVIEWS = '.previews';
/** A picture shown in a card is small; a larger file is not read into the window's memory. */
const MAX_PREVIEW_BYTES = 20 * 1024 * 1024;

/**
 * A file's name as the platform gave it when this computer downloaded it: its Content-Disposition,
 * else the address's last part, made safe. Never a name the window sent: that could make the
 * system open any bytes as a document of its choosing.
 */
export function platformFileName(fileName: string | null | undefined, source: URL): string {
  let fromAddress = '';
  try {
    fromAddress = decodeURIComponent(source.pathname.split('/').pop() ?? '');
  } catch {
    // An address with a broken %-escape is refused before any download; nothing to take from it.
  }
  return sanitizeFileName(fileName?.trim() || fromAddress || 'file');
}

/** A kept file's name: the same address always finds the same file, and nothing of it is readable. */
export const cacheName = (api: string, source: URL) =>
  createHash('sha256').update(`${api}\n${source.href}`).digest('hex').slice(0, 40);

export class FileService {
  /** Cache paths being written now: two downloads of one name must not both pick it. */
  private readonly claimed = new Set<string>();
  /** Where a file kept for offline use is, when it is (stored-files.ts): previews read it from there. */
  keptCopy: ((folder: string, api: string, source: URL) => Promise<string | null>) | null = null;

  constructor(
    private readonly platform: PlatformFiles,
    /** Holds one folder per user key: a user's documents never sit among another's. */
    private readonly cacheRoot: string,
    private readonly chooseSavePath: ChooseSavePath,
    private readonly boundUser: BoundUser = () => Promise.resolve(null),
    private readonly marks: DownloadMarks = downloadMarksFor(process.platform),
  ) {}

  async fetch(request: DownloadRequest, onBytes?: OnBytes): Promise<DownloadResult> {
    // An address that is not a file of the platform is refused before the user is asked anything.
    const source = this.platform.address(request.api, request.url);
    if (!(source instanceof URL)) return { ok: false, cancelled: false, error: source };
    let cacheDir: string | null = null;
    if (request.target === 'cache') {
      cacheDir = await this.userFolder();
      if (cacheDir === null) return { ok: false, cancelled: false, error: NO_USER };
    }
    const target = await this.targetOf(request, cacheDir);
    if (target === null) return { ok: false, cancelled: true };
    try {
      return await this.downloadTo(target, source, request, onBytes);
    } finally {
      this.claimed.delete(target);
    }
  }

  /**
   * A picture to show (a member's photo, the firm's logo): read from the bound user's cache when
   * it was kept before, which needs no network, else downloaded there first (the same transport,
   * budget and address check as any download) unless `keptOnly` asks for this computer's copy alone. Removed with the rest of the user's copy (forgetUser).
   */
  async preview(request: PreviewRequest): Promise<PreviewResult> {
    const source = this.platform.address(request.api, request.url);
    if (!(source instanceof URL)) return { ok: false, error: source };
    const folder = await this.userFolder();
    if (folder === null) return { ok: false, error: NO_USER };
    // A file kept for a meeting is shown from there: no second copy, and no request offline.
    const target =
      (await this.keptCopy?.(folder, request.api, source)) ??
      join(folder, PREVIEWS, cacheName(request.api, source));
    if (!existsSync(target)) {
      if (request.keptOnly) return { ok: false, error: NOT_KEPT };
      const written = await this.downloadTo(target, source, request);
      if (!written.ok) return { ok: false, error: written.cancelled ? cutShort(null) : written.error };
    }
    try {
      if ((await stat(target)).size > MAX_PREVIEW_BYTES) return { ok: false, error: tooLarge() };
      return { ok: true, bytes: new Uint8Array(await readFile(target)) };
    } catch (error) {
      return { ok: false, error: diskFailure(error, dirname(target)) };
    }
  }

  /** The path the user chose (null when they cancel), or a free name in the cache, claimed until written. */
  private async targetOf(request: DownloadRequest, cacheDir: string | null): Promise<string | null> {
    if (request.target === 'save' || cacheDir === null) return this.chooseTarget(request.suggestedName);
    const name = sanitizeFileName(request.suggestedName);
    const taken = (n: string) => existsSync(join(cacheDir, n)) || this.claimed.has(join(cacheDir, n));
    const target = join(cacheDir, uniqueName(name, taken));
    this.claimed.add(target);
    return target;
  }

  /**
   * The folder and the temporary file come first: a folder that cannot be made costs no request
   * of the interface's budget, and is reported as the disk problem it is.
   */
  async downloadTo(
    target: string,
    source: URL,
    request: Pick<DownloadRequest, 'api' | 'url' | 'priority'>,
    onBytes?: OnBytes,
    /** Names the file in target's folder from the platform's answer (a kept file); else `target`. */
    named?: (fileName: string | null) => string,
  ): Promise<DownloadResult> {
    const opened = await this.openPartial(target);
    if ('error' in opened) return { ok: false, cancelled: false, error: opened.error };
    const { file, partial } = opened;
    let written: number | false = false;
    try {
      const priority = request.priority ?? 'interactive';
      const answer = await this.platform.download(request.url, { api: request.api, priority });
      if (!answer.ok) return { ok: false, cancelled: false, error: answer };
      const final = named ? join(dirname(target), named(answer.fileName ?? null)) : target;
      written = await this.stream(answer, file, partial, final, source, onBytes);
      return { ok: true, path: final, bytes: written };
    } catch (error) {
      return writeFailure(error, dirname(target));
    } finally {
      if (written === false) await discardPartial(file, partial);
    }
  }

  /**
   * Save… of a file this computer does not keep: the platform's answer names it (never the
   * window), then the user chooses where, then its bytes are written there as any download's.
   */
  async saveFromPlatform(
    source: URL,
    request: Pick<DownloadRequest, 'api' | 'url' | 'priority'>,
    onBytes?: OnBytes,
  ): Promise<DownloadResult> {
    const priority = request.priority ?? 'interactive';
    const answer = await this.platform.download(request.url, { api: request.api, priority });
    if (!answer.ok) return { ok: false, cancelled: false, error: answer };
    const target = await this.chooseTarget(platformFileName(answer.fileName, source));
    const drop = async () => {
      if (!(answer.body instanceof Uint8Array)) await answer.body.cancel().catch(() => undefined);
    };
    if (target === null) return (await drop(), { ok: false, cancelled: true });
    const opened = await this.openPartial(target);
    if ('error' in opened) return (await drop(), { ok: false, cancelled: false, error: opened.error });
    const { file, partial } = opened;
    let written: number | false = false;
    try {
      written = await this.stream(answer, file, partial, target, source, onBytes);
      return { ok: true, path: target, bytes: written };
    } catch (error) {
      return writeFailure(error, dirname(target));
    } finally {
      if (written === false) await discardPartial(file, partial);
    }
  }

  /** The temporary file a download is written into beside `target`, its folder made first. */
  private async openPartial(
    target: string,
  ): Promise<{ file: FileHandle; partial: string } | { error: DiskFailure }> {
    const partial = partialBeside(target);
    try {
      await this.makeFolder(dirname(target));
      return { file: await open(partial, 'wx', 0o600), partial };
    } catch (error) {
      return { error: diskFailure(error, dirname(target)) };
    }
  }

  /** Writes the answer's body into `partial`, marks it and renames it to `target`; the bytes written. */
  private async stream(
    answer: Extract<DownloadBody, { ok: true }>,
    file: FileHandle,
    partial: string,
    target: string,
    source: URL,
    onBytes?: OnBytes,
  ): Promise<number> {
    const body =
      answer.body instanceof Uint8Array ? Readable.from([answer.body]) : Readable.fromWeb(answer.body);
    let bytes = 0;
    const total = answer.contentLength ?? null;
    onBytes?.(0, total);
    body.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      onBytes?.(bytes, total);
    });
    await pipeline(body, file.createWriteStream());
    // Marked before it gets its name: the stream or attribute moves with the rename.
    await this.marks.mark(partial, source);
    await rename(partial, target);
    return bytes;
  }

  /**
   * A copy of a file already on this computer (one kept offline) at `target`, the way a download
   * lands: a private temporary file beside it, marked as come from `source`, renamed when whole.
   */
  async copyTo(target: string, from: string, source: URL): Promise<DownloadResult> {
    const partial = partialBeside(target);
    try {
      await this.makeFolder(dirname(target));
      await copyFile(from, partial, constants.COPYFILE_EXCL);
      await chmod(partial, 0o600);
      await this.marks.mark(partial, source);
      await rename(partial, target);
      return { ok: true, path: target, bytes: (await stat(target)).size };
    } catch (error) {
      await rm(partial, { force: true }).catch(() => undefined);
      return { ok: false, cancelled: false, error: diskFailure(error, dirname(target)) };
    }
  }

  /** The bound user's own folder in the cache, or null before a user is bound to the sign-in. */
  async userFolder(): Promise<string | null> {
    const user = await this.boundUser();
    return user === null || !USER_KEY.test(user) ? null : join(this.cacheRoot, user);
  }

  /** Asks where to save `name` (the dialog, or the preview's downloads folder); null when cancelled. */
  async chooseTarget(name: string): Promise<string | null> {
    const safe = sanitizeFileName(name);
    const chosen = await this.chooseSavePath(safe);
    return chosen === null ? null : safeChosenPath(chosen, safe);
  }

  /**
   * Folders it makes are the user's alone (0700); the cache folders (the root, a user's folder in
   * it and their pictures' folder) are the app's, so they are made private even when they already
   * existed. A folder the user chose is left as it is.
   */
  private async makeFolder(folder: string): Promise<void> {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const below = relative(this.cacheRoot, folder);
    if (below === '' || below.startsWith('..')) return;
    let own = this.cacheRoot;
    await chmod(own, 0o700);
    for (const part of below.split(sep)) await chmod((own = join(own, part)), 0o700);
  }

  /**
   * Removes every document kept for offline viewing for `user` (a user key): part of "remove this
   * computer's copy" at sign-out. Another user's folder is never touched; a key that is not one
   * (a path, say) is refused.
   */
  async forgetUser(user: string): Promise<{ ok: true } | { ok: false; message: string }> {
    if (!USER_KEY.test(user)) return { ok: false, message: 'That is not a user key of this app.' };
    try {
      await rm(join(this.cacheRoot, user), { recursive: true, force: true });
      return { ok: true };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        message: `The documents kept for offline viewing could not be removed (${reason}).`,
      };
    }
  }
}

async function discardPartial(file: FileHandle, partial: string): Promise<void> {
  await file.close().catch(() => undefined);
  await rm(partial, { force: true });
}

/** Errors of the file system carry the call that failed (open, write, rename …); the network's do not. */
function isDiskError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { syscall?: unknown }).syscall === 'string' &&
    typeof (error as { code?: unknown }).code === 'string'
  );
}

const DISK_REASONS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'Advisor Desk may not write there',
  EPERM: 'Advisor Desk may not write there',
  EROFS: 'the disk is read-only',
  ENOTDIR: 'part of the path is a file, not a folder',
  EEXIST: 'part of the path is a file, not a folder',
  ENOENT: 'the folder does not exist and could not be created',
  ENAMETOOLONG: 'the path is too long',
};

/** Why a file could not be written, in plain words (also used by the diagnostics' save). */
export function diskReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return (typeof code === 'string' && DISK_REASONS[code]) || 'the file could not be written';
}

/** The file could not be written: says where and why, and that retrying the network will not help. */
/**
 * A temporary file's path beside `target`: hidden, short (the target's name may already use most
 * of what the file system allows) and random, so two downloads of one file never share one.
 */
function partialBeside(target: string): string {
  return join(dirname(target), `.${randomBytes(6).toString('base64url')}.part`);
}

/** A download that failed while written: the disk's fault said as such, else cut short. */
function writeFailure(error: unknown, folder: string): DownloadResult {
  return {
    ok: false,
    cancelled: false,
    error: isDiskError(error) ? diskFailure(error, folder) : cutShort(error),
  };
}

export function diskFailure(error: unknown, folder: string): DiskFailure {
  const reason = diskReason(error);
  return {
    ok: false,
    kind: 'io',
    status: null,
    message: `The file could not be saved in ${folder}: ${reason}. Choose another folder or free some space, then try again.`,
    fields: {},
    retryAfterMs: null,
  };
}

/** A picture too large to show in a card: the platform is not at fault, and trying again will not help. */
function tooLarge(): ApiFailure {
  return {
    ok: false,
    kind: 'validation',
    status: null,
    message: 'The picture is too large to show here; download it to see it.',
    fields: {},
    retryAfterMs: null,
  };
}

/** The platform stopped sending (reset, silence, cancel): worth trying again later. */
export function cutShort(error: unknown): ApiFailure {
  return {
    ok: false,
    kind: 'network',
    status: null,
    message: `The download stopped before it finished: ${error instanceof Error ? error.message : 'the connection was lost'}`,
    fields: {},
    retryAfterMs: 5000,
  };
}
