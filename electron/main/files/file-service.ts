// Downloads from the platform: to a path the user picks, or to a cache folder for offline viewing.
// Bytes are streamed to a temporary file and renamed into place, so a failed download never
// leaves half a file under the final name.

import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ApiFailure, ApiName, Priority } from '@shared/api/request.ts';
import type { DiskFailure, DownloadRequest, DownloadResult } from '@shared/bridge.ts';
import { sanitizeFileName, uniqueName } from './file-names.ts';

export type DownloadBody = { ok: true; body: WebReadableStream<Uint8Array> | Uint8Array } | ApiFailure;

/** The transport's download: auth, rate limit and the url check live there. */
export type Downloader = (
  url: string,
  options: { api: ApiName; priority: Priority },
) => Promise<DownloadBody>;

/** Asks the user where to save; null when they cancel. The browser preview saves into a folder instead. */
export type ChooseSavePath = (suggestedName: string) => Promise<string | null>;

export class FileService {
  /** Cache paths being written now: two downloads of one name must not both pick it. */
  private readonly claimed = new Set<string>();

  constructor(
    private readonly download: Downloader,
    private readonly cacheDir: string,
    private readonly chooseSavePath: ChooseSavePath,
  ) {}

  async fetch(request: DownloadRequest): Promise<DownloadResult> {
    const target = await this.targetOf(request);
    if (target === null) return { ok: false, cancelled: true };
    try {
      return await this.downloadTo(target, request);
    } finally {
      this.claimed.delete(target);
    }
  }

  /** The path the user chose (null when they cancel), or a free name in the cache, claimed until written. */
  private async targetOf(request: DownloadRequest): Promise<string | null> {
    const name = sanitizeFileName(request.suggestedName);
    if (request.target === 'save') {
      const chosen = await this.chooseSavePath(name);
      // The user chose the folder; the name is still ours to make safe.
      return chosen === null ? null : join(dirname(chosen), sanitizeFileName(basename(chosen), name));
    }
    const taken = (n: string) =>
      existsSync(join(this.cacheDir, n)) || this.claimed.has(join(this.cacheDir, n));
    const target = join(this.cacheDir, uniqueName(name, taken));
    this.claimed.add(target);
    return target;
  }

  /**
   * The folder and the temporary file come first: a folder that cannot be made costs no request
   * of the interface's budget, and is reported as the disk problem it is.
   */
  private async downloadTo(target: string, request: DownloadRequest): Promise<DownloadResult> {
    // A unique name: two downloads of the same file must not write into one temporary file.
    const partial = `${target}.part-${randomUUID()}`;
    let file: FileHandle;
    try {
      await mkdir(dirname(target), { recursive: true });
      file = await open(partial, 'wx');
    } catch (error) {
      return { ok: false, cancelled: false, error: diskFailure(error, dirname(target)) };
    }
    let written = false;
    try {
      const priority = request.priority ?? 'interactive';
      const answer = await this.download(request.url, { api: request.api, priority });
      if (!answer.ok) return { ok: false, cancelled: false, error: answer };
      const source =
        answer.body instanceof Uint8Array ? Readable.from([answer.body]) : Readable.fromWeb(answer.body);
      let bytes = 0;
      source.on('data', (chunk: Buffer) => (bytes += chunk.length));
      await pipeline(source, file.createWriteStream());
      await rename(partial, target);
      written = true;
      return { ok: true, path: target, bytes };
    } catch (error) {
      const where = dirname(target);
      return {
        ok: false,
        cancelled: false,
        error: isDiskError(error) ? diskFailure(error, where) : cutShort(error),
      };
    } finally {
      if (!written) await discardPartial(file, partial);
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
function diskFailure(error: unknown, folder: string): DiskFailure {
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

/** The platform stopped sending (reset, silence, cancel): worth trying again later. */
function cutShort(error: unknown): ApiFailure {
  return {
    ok: false,
    kind: 'network',
    status: null,
    message: `The download stopped before it finished: ${error instanceof Error ? error.message : 'the connection was lost'}`,
    fields: {},
    retryAfterMs: 5000,
  };
}
