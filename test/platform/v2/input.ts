// Reading version 2 bodies: JSON or form-encoded, nested or with flat dotted keys
// (`client.phone.code`), checked with Laravel-style messages collected per field.

import { ApiError } from '../errors.ts';
import { isCountryCode } from '../catalog.ts';
import type { Phone } from '../model.ts';
import { isEmail } from '../validate.ts';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Path segments that would reach an object's prototype rather than a field of the body. */
const RESERVED_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/** An own property of a body node; inherited names (`toString`, `__proto__` …) read as absent. */
const own = (node: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(node, key) ? node[key] : undefined;

/**
 * `{"client.first_name": "Ann"}` and `{"client": {"first_name": "Ann"}}` read the same. A key with
 * a `__proto__`, `constructor` or `prototype` segment is refused with 422 naming it, so no body can
 * reach an object's prototype.
 */
export function unflatten(body: unknown, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isObject(body)) return out;
  for (const [key, value] of Object.entries(body)) {
    const path = key.split('.');
    const field = prefix + key;
    if (path.some((part) => RESERVED_SEGMENTS.has(part))) {
      const message = `The ${field} field is not allowed: __proto__, constructor and prototype are reserved names.`;
      throw new ApiError(422, message, { [field]: [message] });
    }
    let node = out;
    for (const part of path.slice(0, -1)) {
      if (!isObject(own(node, part))) node[part] = {};
      node = node[part] as Record<string, unknown>;
    }
    const last = path[path.length - 1] as string;
    const current = own(node, last);
    node[last] =
      isObject(value) && isObject(current)
        ? { ...current, ...unflatten(value, `${field}.`) }
        : isObject(value)
          ? unflatten(value, `${field}.`)
          : value;
  }
  return out;
}

export function get(body: Record<string, unknown>, path: string): unknown {
  let node: unknown = body;
  for (const part of path.split('.')) {
    if (!isObject(node)) return undefined;
    node = own(node, part);
  }
  return node;
}

export function has(body: Record<string, unknown>, path: string): boolean {
  return get(body, path) !== undefined;
}

/** Collects failures per field and throws them as one 422. */
export class Checks {
  readonly errors: Record<string, string[]> = {};

  fail(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  required(body: Record<string, unknown>, field: string, when = ''): void {
    const v = get(body, field);
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === ''))
      this.fail(field, `The ${field} field is required${when}.`);
  }

  string(body: Record<string, unknown>, field: string, max = 255): string | null | undefined {
    const v = get(body, field);
    if (v === undefined || v === null) return v;
    if (typeof v !== 'string') return void this.fail(field, `The ${field} field must be a string.`);
    if (v.length > max)
      return void this.fail(field, `The ${field} field must not be greater than ${max} characters.`);
    return v.trim();
  }

  email(body: Record<string, unknown>, field: string): string | null | undefined {
    const v = this.string(body, field);
    if (v && !isEmail(v)) return void this.fail(field, `The ${field} field must be a valid email address.`);
    return v;
  }

  /** Accepts JSON booleans and the form-encoded spellings true/false/1/0. */
  boolean(body: Record<string, unknown>, field: string): boolean | undefined {
    const v = get(body, field);
    if (v === undefined) return undefined;
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === '1' || v === 1) return true;
    if (v === 'false' || v === '0' || v === 0) return false;
    return void this.fail(field, `The ${field} field must be true or false.`);
  }

  integer(body: Record<string, unknown>, field: string): number | undefined {
    const v = get(body, field);
    if (v === undefined || v === null || v === '') return undefined;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d{1,12}$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n)) return void this.fail(field, `The ${field} field must be an integer.`);
    return n;
  }

  oneOf<T extends string>(body: Record<string, unknown>, field: string, values: readonly T[]): T | undefined {
    const v = get(body, field);
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string' || !values.includes(v as T))
      return void this.fail(field, `The selected ${field} is invalid.`);
    return v as T;
  }

  /** A phone object; the code gains its `+`, the number loses spaces and dashes, the country is upper case. */
  phone(body: Record<string, unknown>, prefix: string, current: Phone): Phone {
    const code = this.string(body, `${prefix}.code`, 8);
    const number = this.string(body, `${prefix}.number`, 32);
    const country = this.string(body, `${prefix}.country`, 2);
    const out = { ...current };
    if (code !== undefined) {
      const c = code ? (code.startsWith('+') ? code : `+${code}`) : null;
      if (c && !/^\+\d{1,4}$/.test(c))
        this.fail(
          `${prefix}.code`,
          `The ${prefix}.code field format is invalid; write the calling code, for example +1.`,
        );
      else out.code = c;
    }
    if (number !== undefined) {
      const n = number ? number.replace(/[\s\-().]/g, '') : null;
      if (n && !/^\d{4,15}$/.test(n))
        this.fail(`${prefix}.number`, `The ${prefix}.number field format is invalid; use 4 to 15 digits.`);
      else out.number = n;
    }
    if (country !== undefined) {
      const c = country ? country.toUpperCase() : null;
      if (c && !isCountryCode(c))
        this.fail(
          `${prefix}.country`,
          `The ${prefix}.country field must be an ISO 3166-1 alpha-2 country code.`,
        );
      else out.country = c;
    }
    return out;
  }

  throwIfAny(): void {
    const fields = Object.keys(this.errors);
    if (fields.length === 0) return;
    const first = this.errors[fields[0] as string]?.[0] ?? 'The given data was invalid.';
    const more =
      fields.length > 1 ? ` (and ${fields.length - 1} more error${fields.length > 2 ? 's' : ''})` : '';
    throw new ApiError(422, first + more, this.errors);
  }
}
