// The body of a bridge call, read defensively: a size cap answered before the body is kept, an
// aborted upload reported rather than thrown, and JSON nested too deep refused before it is parsed.

import type { IncomingMessage } from 'node:http';

export type RequestBody = { ok: true; text: string } | { ok: false; reason: 'too-large' | 'aborted' };

/**
 * Reads the body up to `limit` bytes. Past the limit the rest is discarded, not kept: the caller
 * answers 413 and closes, and the reading goes on only until the connection is closed, so that
 * the client, still sending, receives the answer instead of a reset.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<RequestBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (body: RequestBody) => {
      if (settled) return;
      settled = true;
      chunks.length = 0;
      resolve(body);
    };
    if (Number(req.headers['content-length']) > limit) settle({ ok: false, reason: 'too-large' });
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) settle({ ok: false, reason: 'too-large' });
      else chunks.push(chunk);
    });
    req.on('end', () => settle({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    // A client that goes away mid-upload: nothing to answer, nothing to crash on.
    req.on('error', () => settle({ ok: false, reason: 'aborted' }));
    req.on('close', () => settle({ ok: false, reason: 'aborted' }));
  });
}

export class TooDeep extends Error {}

/** How deep a JSON text nests its arrays and objects, counted without parsing it. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * JSON.parse for bodies from outside: nesting past `maxDepth` is refused before parsing, as
 * everything that walks the value afterwards (decoding, validation) recurses.
 */
export function parseJsonWithin(text: string, maxDepth: number): unknown {
  if (jsonDepth(text) > maxDepth)
    throw new TooDeep(`The request nests its values deeper than ${maxDepth} levels.`);
  return JSON.parse(text) as unknown;
}
