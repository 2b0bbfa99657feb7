// Bridge arguments and results over HTTP (the browser preview): JSON cannot carry bytes, so the
// Uint8Array of an upload, or of a picture shown, travels as `{ $bytes: <base64> }` and is turned
// back on arrival.

import { isPlainObject } from './is-plain-object.ts';

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function encodeBridgeArgs(value: unknown): unknown {
  if (value instanceof Uint8Array) return { $bytes: toBase64(value) };
  if (Array.isArray(value)) return value.map(encodeBridgeArgs);
  if (isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encodeBridgeArgs(v)]));
  return value;
}

export function decodeBridgeArgs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeBridgeArgs);
  if (isPlainObject(value)) {
    if (Object.keys(value).length === 1 && typeof value.$bytes === 'string') return fromBase64(value.$bytes);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodeBridgeArgs(v)]));
  }
  return value;
}

/**
 * The channels whose results carry bytes, and only these are turned: a platform's answer passed
 * on as it came (`api.request`) is never read as bytes, whatever its fields are called.
 */
export const BYTES_RESULTS: ReadonlySet<string> = new Set(['files.preview']);
