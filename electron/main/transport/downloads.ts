// A platform file handed on as a stream: read only when the consumer asks, with the platform's
// silence timed while a chunk is awaited, and the name the server gave it (Content-Disposition).

import type { ApiName, Priority } from '@shared/api/request.ts';
import { unlessAborted, type Exchange } from './exchange.ts';

export interface DownloadOptions {
  api: ApiName;
  priority?: Priority;
  signal?: AbortSignal;
  /** Until the answer starts, then the longest silence while the body streams. Default: the transport's. */
  timeoutMs?: number;
}

export interface DownloadAnswer {
  ok: true;
  status: number;
  /**
   * The file, read once: pipe it to disk with `Readable.fromWeb` and `stream/promises.pipeline`,
   * or collect it with `new Response(body).arrayBuffer()`. Cancel it when it is not wanted.
   * It errors with a TimeoutError when the platform goes silent for the timeout, and with the
   * caller's abort reason when the caller's signal fires.
   */
  body: ReadableStream<Uint8Array>;
  contentType: string | null;
  contentLength: number | null;
  /** The name from Content-Disposition as the server wrote it: data, to be sanitized before use. */
  fileName: string | null;
}

/**
 * Hands the body on as a stream that is read only when the consumer asks, with the timeout
 * armed only while we wait on the platform: a slow disk does not count as a silent platform.
 */
export function downloadAnswer(exchange: Exchange, timeoutMs: number): DownloadAnswer {
  const { response } = exchange;
  exchange.rearm(null);
  const reader = response.body?.getReader() ?? null;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        if (!reader) {
          exchange.settle();
          controller.close();
          return;
        }
        exchange.rearm(timeoutMs);
        try {
          const chunk = await unlessAborted(reader.read(), exchange.signal);
          exchange.rearm(null);
          if (chunk.done) {
            exchange.settle();
            controller.close();
          } else {
            controller.enqueue(chunk.value as Uint8Array);
          }
        } catch (error) {
          const failure = exchange.failureOf(error);
          exchange.settle();
          reader.cancel().catch(() => undefined);
          controller.error(
            failure.kind === 'timeout'
              ? new DOMException('The platform stopped sending the file.', 'TimeoutError')
              : error,
          );
        }
      },
      cancel: async (reason) => {
        exchange.settle();
        await reader?.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  const length = response.headers.get('content-length');
  return {
    ok: true,
    status: response.status,
    body: stream,
    contentType: response.headers.get('content-type'),
    contentLength: length !== null && /^\d+$/.test(length) ? Number(length) : null,
    fileName: fileNameOf(response.headers.get('content-disposition')),
  };
}

/** The file name of a Content-Disposition header: `filename*` (RFC 5987) first, then `filename`. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
  if (extended?.[2]) {
    try {
      const name = decodeURIComponent(extended[2].trim());
      if (name !== '') return name;
    } catch {
      // Fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(disposition);
  const name = (plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2])?.trim();
  return name ? name : null;
}
