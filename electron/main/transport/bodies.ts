// The bodies of the platform's requests and answers: a request's JSON (multipart when files are
// attached) written or refused before anything is sent, an answer read as JSON, text or nothing.

import type { ApiFailure, ApiRequest, ApiResult, HttpMethod } from '@shared/api/request.ts';
import { unlessAborted, type BodyPayload, type Exchange } from './exchange.ts';
import { refusedRequest, unreadableAnswer } from './failures.ts';

/** JSON, or multipart when files are attached; a failure when the body cannot be encoded. */
export function encodeBody(req: ApiRequest): BodyPayload | ApiFailure {
  const files = Array.isArray(req.files) ? req.files : [];
  if (req.method === 'GET' && (req.body !== undefined || files.length > 0))
    return refusedRequest('A GET request cannot carry a body.');
  if (files.length > 0) {
    if (
      req.body !== undefined &&
      (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))
    )
      return refusedRequest('With files, the body must be an object whose fields become form fields.');
    const form = new FormData();
    for (const [key, value] of Object.entries((req.body ?? {}) as Record<string, unknown>)) {
      if (typeof value === 'object' && value !== null) form.append(key, JSON.stringify(value));
      else if (typeof value === 'string') form.append(key, value);
      else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
        form.append(key, String(value));
    }
    for (const file of files) {
      if (typeof file?.field !== 'string' || !(file.bytes instanceof Uint8Array))
        return refusedRequest('An attached file has no field name or no bytes.');
      const blob = new Blob([file.bytes], { type: typeof file.type === 'string' ? file.type : '' });
      form.append(file.field, blob, typeof file.name === 'string' && file.name !== '' ? file.name : 'file');
    }
    return { body: form, contentType: null };
  }
  if (req.body === undefined) return null;
  let json: string | undefined;
  try {
    json = JSON.stringify(req.body);
  } catch {
    json = undefined;
  }
  if (json === undefined) return refusedRequest('The request body cannot be written as JSON.');
  return { body: json, contentType: 'application/json' };
}

/** A successful answer's data: parsed JSON, the text of any other type, null when there is none. */
export async function readSuccess<T>(exchange: Exchange, method: HttpMethod): Promise<ApiResult<T>> {
  const { response } = exchange;
  let text: string;
  try {
    text = await unlessAborted(response.text(), exchange.signal);
  } catch (error) {
    return exchange.failureOf(error);
  } finally {
    exchange.settle();
  }
  if (response.status === 204 || response.status === 205 || (method === 'DELETE' && text === ''))
    return { ok: true, status: response.status, data: null as T };
  const type = response.headers.get('content-type') ?? '';
  if (!/[/+]json\b/i.test(type)) return { ok: true, status: response.status, data: text as T };
  if (text.trim() === '') return { ok: true, status: response.status, data: null as T };
  try {
    return { ok: true, status: response.status, data: JSON.parse(text) as T };
  } catch {
    return unreadableAnswer(response.status);
  }
}

/** An error answer's text, for mapFailure; a body cut short only loses the server's wording. */
export async function readFailureBody(exchange: Exchange): Promise<string> {
  try {
    return await unlessAborted(exchange.response.text(), exchange.signal);
  } catch {
    return '';
  } finally {
    exchange.settle();
  }
}

/** Reads and discards an answer we will not use, so its connection can be reused. */
export async function discard(exchange: Exchange): Promise<void> {
  try {
    await unlessAborted(exchange.response.arrayBuffer(), exchange.signal);
  } catch {
    // Nothing to keep from it.
  } finally {
    exchange.settle();
  }
}
