// Downloads from the platform: to a path the user picks, or to a cache folder for offline viewing.
// Bytes are streamed to a temporary file and renamed into place, so a failed download never
// leaves half a file under the final name.

import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ApiFailure, ApiName, Priority } from '../../../shared/api/request.ts';
import type { DownloadRequest, DownloadResult } from '../../../shared/bridge.ts';
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
  constructor(
    private readonly download: Downloader,
    private readonly cacheDir: string,
    private readonly chooseSavePath: ChooseSavePath,
  ) {}

  async fetch(request: DownloadRequest): Promise<DownloadResult> {
    const name = sanitizeFileName(request.suggestedName);
    let target: string;
    if (request.target === 'save') {
      const chosen = await this.chooseSavePath(name);
      if (chosen === null) return { ok: false, cancelled: true };
      // The user chose the folder; the name is still ours to make safe.
      target = join(dirname(chosen), sanitizeFileName(basename(chosen), name));
    } else {
      await mkdir(this.cacheDir, { recursive: true });
      target = join(
        this.cacheDir,
        uniqueName(name, (n) => existsSync(join(this.cacheDir, n))),
      );
    }
    const answer = await this.download(request.url, {
      api: request.api,
      priority: request.priority ?? 'interactive',
    });
    if (!answer.ok) return { ok: false, cancelled: false, error: answer };
    const partial = `${target}.part-${process.pid}-${Date.now()}`;
    try {
      const source =
        answer.body instanceof Uint8Array ? Readable.from([answer.body]) : Readable.fromWeb(answer.body);
      let bytes = 0;
      source.on('data', (chunk: Buffer) => (bytes += chunk.length));
      await pipeline(source, createWriteStream(partial, { flags: 'wx' }));
      await rename(partial, target);
      return { ok: true, path: target, bytes };
    } catch (error) {
      await rm(partial, { force: true });
      return {
        ok: false,
        cancelled: false,
        error: {
          ok: false,
          kind: 'network',
          status: null,
          message: `The download stopped before it finished: ${(error as Error).message}`,
          fields: {},
          retryAfterMs: 5000,
        },
      };
    }
  }
}
