// Failure mapping: both interfaces' error bodies, statuses to kinds, Retry-After, and anything a
// server or a proxy might send instead (HTML, empty, wrong types), which must never throw.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_MS,
  MAX_RETRY_AFTER_MS,
  cancelledFailure,
  headerOf,
  kindOfStatus,
  mapFailure,
  networkFailure,
  parseErrorBody,
  parseRetryAfter,
  timeoutFailure,
} from '../../../electron/main/transport/failures.ts';
import { fileNameOf } from '../../../electron/main/transport/downloads.ts';
import { isRetryable, type ApiErrorKind } from '@shared/api/request.ts';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const json = (value: unknown) => JSON.stringify(value);

describe('version 2 error bodies (Laravel style)', () => {
  it('422 gives the message and the field messages by dotted key', () => {
    const failure = mapFailure({
      status: 422,
      headers: { 'content-type': 'application/json' },
      body: json({
        message: 'The client.email field must be a valid email address. (and 1 more error)',
        errors: {
          'client.email': ['The client.email field must be a valid email address.'],
          'client.phone.country': ['The selected client.phone.country is invalid.'],
        },
      }),
    });
    expect(failure).toEqual({
      ok: false,
      kind: 'validation',
      status: 422,
      message: 'The client.email field must be a valid email address. (and 1 more error)',
      fields: {
        'client.email': ['The client.email field must be a valid email address.'],
        'client.phone.country': ['The selected client.phone.country is invalid.'],
      },
      retryAfterMs: null,
    });
  });

  it('other errors carry only a message', () => {
    expect(
      mapFailure({
        status: 403,
        body: json({
          message: 'You do not have the permission accounts.clients.delete needed for this action.',
        }),
      }),
    ).toMatchObject({
      kind: 'forbidden',
      status: 403,
      message: 'You do not have the permission accounts.clients.delete needed for this action.',
      fields: {},
      retryAfterMs: null,
    });
  });

  it('tolerates an errors entry that is a single string, and skips entries that are not text', () => {
    const { fields } = parseErrorBody(
      json({
        message: 'x',
        errors: { password: 'The password is incorrect.', n: [1, null, 'ok'], o: { a: 1 } },
      }),
    );
    expect(fields).toEqual({ password: ['The password is incorrect.'], n: ['ok'] });
  });
});

describe('version 0.0.1 error bodies', () => {
  it('422 with a list of "<field> is required." messages gives one field per first word', () => {
    const failure = mapFailure({
      status: 422,
      body: json({
        status: 'Unprocessable Entity',
        code: 422,
        messages: [
          'type is required.',
          'name is required.',
          'owner is required.',
          'current-value is required.',
        ],
      }),
    });
    expect(failure.kind).toBe('validation');
    expect(failure.status).toBe(422);
    expect(failure.fields).toEqual({
      type: ['type is required.'],
      name: ['name is required.'],
      owner: ['owner is required.'],
      'current-value': ['current-value is required.'],
    });
    expect(failure.message).toBe(
      'type is required. name is required. owner is required. current-value is required.',
    );
    expect(failure.retryAfterMs).toBeNull();
  });

  it('"<field> is invalid…" messages with dotted fields and advice after a colon', () => {
    const { fields } = parseErrorBody(
      json({
        status: 'Unprocessable Entity',
        code: 422,
        messages: [
          'client.first_name is invalid.',
          'file is invalid: upload a PNG, JPEG, GIF or WebP picture.',
          'target.value is required.',
          'client.first_name is required.',
        ],
      }),
    );
    expect(fields).toEqual({
      'client.first_name': ['client.first_name is invalid.', 'client.first_name is required.'],
      file: ['file is invalid: upload a PNG, JPEG, GIF or WebP picture.'],
      'target.value': ['target.value is required.'],
    });
  });

  it('500 with a message string', () => {
    const failure = mapFailure({
      status: 500,
      body: json({ status: 'Internal Server Error', code: 500, messages: 'Injected server error.' }),
    });
    expect(failure).toMatchObject({
      kind: 'server',
      status: 500,
      message: 'Injected server error.',
      fields: {},
      retryAfterMs: DEFAULT_RETRY_MS.server,
    });
  });

  it('404 with a message string', () => {
    expect(
      mapFailure({
        status: 404,
        body: json({ status: 'Not Found', code: 404, messages: 'Account not found.' }),
      }),
    ).toMatchObject({
      kind: 'not-found',
      message: 'Account not found.',
    });
  });
});

describe('statuses to kinds', () => {
  const table: [number, ApiErrorKind][] = [
    [400, 'validation'],
    [401, 'auth'],
    [403, 'forbidden'],
    [404, 'not-found'],
    [405, 'not-found'],
    [408, 'timeout'],
    [409, 'validation'],
    [410, 'not-found'],
    [413, 'validation'],
    [415, 'validation'],
    [422, 'validation'],
    [429, 'rate-limited'],
    [500, 'server'],
    [502, 'server'],
    [503, 'unavailable'],
    [504, 'server'],
    [599, 'server'],
    [302, 'server'],
    [200, 'server'],
  ];
  for (const [status, kind] of table) {
    it(`${status} → ${kind}`, () => {
      expect(kindOfStatus(status)).toBe(kind);
      const failure = mapFailure({ status, body: '' });
      expect(failure.kind).toBe(kind);
      expect(failure.status).toBe(status);
      expect(failure.message.length).toBeGreaterThan(0);
    });
  }

  it('retrying helps after network, timeout, 429, 5xx; not after auth, forbidden, not-found, validation', () => {
    for (const status of [429, 500, 502, 503, 504, 408])
      expect(isRetryable(mapFailure({ status }))).toBe(true);
    for (const status of [400, 401, 403, 404, 405, 410, 413, 415, 422, 302])
      expect(mapFailure({ status }).retryAfterMs).toBeNull();
    expect(networkFailure().retryAfterMs).toBe(DEFAULT_RETRY_MS.network);
    expect(timeoutFailure(30_000)).toMatchObject({
      kind: 'timeout',
      status: null,
      message: 'The platform did not answer within 30 s.',
    });
    expect(isRetryable(cancelledFailure())).toBe(true);
  });

  it('a status that is not a whole number is a server failure without a status', () => {
    for (const status of [Number.NaN, 4.5, Number.POSITIVE_INFINITY, '404' as unknown as number])
      expect(mapFailure({ status })).toMatchObject({ kind: 'server', status: null });
  });

  it('plain words when the server gives none', () => {
    expect(mapFailure({ status: 413, body: '' }).message).toBe(
      'The data or file is too large for the platform.',
    );
    expect(mapFailure({ status: 503 }).message).toMatch(/temporarily unavailable/);
    expect(mapFailure({ status: 301, headers: { location: 'https://elsewhere' } }).message).toMatch(
      /redirected/,
    );
  });
});

describe('Retry-After', () => {
  it('seconds and HTTP dates on 429 and 503', () => {
    expect(mapFailure({ status: 429, headers: { 'Retry-After': '7' } }, NOW).retryAfterMs).toBe(7_000);
    const date = new Date(NOW + 90_000).toUTCString();
    expect(mapFailure({ status: 503, headers: new Headers({ 'retry-after': date }) }, NOW).retryAfterMs).toBe(
      90_000,
    );
  });

  it('our default when absent or unreadable; never negative; bounded', () => {
    expect(mapFailure({ status: 429 }, NOW).retryAfterMs).toBe(DEFAULT_RETRY_MS['rate-limited']);
    expect(mapFailure({ status: 503, headers: { 'retry-after': 'soon' } }, NOW).retryAfterMs).toBe(
      DEFAULT_RETRY_MS.unavailable,
    );
    expect(mapFailure({ status: 429, headers: { 'retry-after': '-5' } }, NOW).retryAfterMs).toBe(
      DEFAULT_RETRY_MS['rate-limited'],
    );
    expect(parseRetryAfter(new Date(NOW - 60_000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter('99999999999', NOW)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('1.5', NOW)).toBe(1_500);
    expect(parseRetryAfter('', NOW)).toBeNull();
    expect(parseRetryAfter(null, NOW)).toBeNull();
  });

  it('is only read on 429 and 503', () => {
    expect(mapFailure({ status: 500, headers: { 'retry-after': '120' } }, NOW).retryAfterMs).toBe(
      DEFAULT_RETRY_MS.server,
    );
    expect(mapFailure({ status: 422, headers: { 'retry-after': '120' } }, NOW).retryAfterMs).toBeNull();
  });

  it('headers as a Headers object, a record in any case, arrays, or something broken', () => {
    expect(headerOf(new Headers({ 'Retry-After': '3' }), 'retry-after')).toBe('3');
    expect(headerOf({ 'RETRY-AFTER': ['4', '5'] }, 'retry-after')).toBe('4');
    expect(headerOf(undefined, 'retry-after')).toBeNull();
    const broken = {
      get() {
        throw new Error('boom');
      },
    } as unknown as Headers;
    expect(headerOf(broken, 'retry-after')).toBeNull();
  });
});

describe('bodies that are not what we expect', () => {
  const garbage: unknown[] = [
    '',
    '   ',
    '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>',
    '{"message":',
    'null',
    '[]',
    '42',
    'true',
    '"   "',
    json({ message: 5, errors: 'nope' }),
    json({ errors: [1, 2] }),
    json({ messages: { a: 1 } }),
    json({ message: null, messages: null, error: null }),
    json([{ nested: true }]),
    undefined,
    null,
    12,
    new Uint8Array([1, 2, 3]),
  ];
  for (const body of garbage) {
    it(`${typeof body === 'string' ? JSON.stringify(body.slice(0, 40)) : String(body)} gives our own words`, () => {
      const failure = mapFailure({ status: 502, body });
      expect(failure).toEqual({
        ok: false,
        kind: 'server',
        status: 502,
        message: 'The platform met a problem. It will be tried again later.',
        fields: {},
        retryAfterMs: DEFAULT_RETRY_MS.server,
      });
    });
  }

  it('a short plain-text body (a proxy page) or a JSON string is used as the message', () => {
    expect(mapFailure({ status: 502, body: 'Bad Gateway' }).message).toBe('Bad Gateway');
    expect(mapFailure({ status: 502, body: '"Upstream went away"' }).message).toBe('Upstream went away');
    // A body someone already parsed is read the same way.
    expect(mapFailure({ status: 502, body: { message: 'Already parsed.' } }).message).toBe('Already parsed.');
  });

  it('other common shapes: OAuth errors, problem+json, nested error objects', () => {
    expect(
      parseErrorBody(json({ error: 'invalid_token', error_description: 'The access token expired.' }))
        .message,
    ).toBe('The access token expired.');
    expect(parseErrorBody(json({ title: 'Conflict', detail: 'The record changed.' })).message).toBe(
      'The record changed.',
    );
    expect(parseErrorBody(json({ error: { message: 'Nested.' } })).message).toBe('Nested.');
    expect(parseErrorBody(json(['name is required.'])).fields).toEqual({ name: ['name is required.'] });
  });

  it('a field named __proto__ stays a field and pollutes nothing', () => {
    const { fields } = parseErrorBody(
      '{"message":"x","errors":{"__proto__":["bad"],"constructor":["worse"]}}',
    );
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(Object.keys(fields).sort()).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).bad).toBeUndefined();
  });

  it('control characters are removed and long messages are cut', () => {
    const failure = mapFailure({
      status: 500,
      body: json({ message: `Line one\n\u0007Line two ${'x'.repeat(2000)}` }),
    });
    expect(failure.message.startsWith('Line one Line two')).toBe(true);
    expect(failure.message.length).toBeLessThanOrEqual(500);
  });

  it('a network error names the reason in plain words, whatever nesting it comes in', () => {
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
    });
    expect(networkFailure(refused).message).toMatch(/connection was refused/);
    expect(networkFailure({ cause: { cause: { code: 'ENOTFOUND' } } }).message).toMatch(
      /address could not be found/,
    );
    expect(networkFailure(new Error('whatever')).message).toBe(
      'The platform could not be reached. Check the network connection.',
    );
    expect(networkFailure('not even an error').kind).toBe('network');
  });
});

describe('what a network failure shows of the network', () => {
  /** The error Node's fetch throws: a TypeError whose cause carries the system's code. */
  const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });
  const coded = (code: string) => Object.assign(new Error(code), { code });

  it('down: no route out, or no name server answers', () => {
    for (const code of ['ENETUNREACH', 'ENETDOWN', 'EAI_AGAIN'])
      expect(networkFailure(fetchFailed(coded(code))).network, code).toBe('down');
    // A connection tried on IPv6 and IPv4 fails with every address's error at once.
    const both = Object.assign(new AggregateError([coded('ENETUNREACH'), coded('ENETUNREACH')]), {
      code: 'ENETUNREACH',
    });
    expect(networkFailure(fetchFailed(both)).network).toBe('down');
  });

  it('up: something answered, only the platform did not (refused, cut, a certificate shown)', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', 'CERT_HAS_EXPIRED'])
      expect(networkFailure(fetchFailed(coded(code))).network, code).toBe('up');
    const refusedTwice = new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]);
    expect(networkFailure(fetchFailed(refusedTwice)).network).toBe('up');
  });

  it('nothing said when it cannot be told: an unknown name, an unreachable host, no cause', () => {
    for (const cause of [coded('ENOTFOUND'), coded('EHOSTUNREACH'), coded('ETIMEDOUT'), new Error('x')])
      expect(networkFailure(fetchFailed(cause))).not.toHaveProperty('network');
    expect(networkFailure()).not.toHaveProperty('network');
  });

  it('a platform that is not running: the real fetch error of a closed port reads as up', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await fetch(`http://127.0.0.1:${port}/api/v2/user`).catch((e: unknown) => e);
    expect(networkFailure(error)).toMatchObject({ kind: 'network', network: 'up' });
  });
});

describe('mapFailure never throws (property)', () => {
  const status = fc.oneof(
    fc.integer({ min: -1000, max: 1000 }),
    fc.constantFrom(400, 401, 403, 404, 405, 410, 413, 415, 422, 429, 500, 502, 503, 504),
    fc.double(),
    fc.constant(Number.NaN),
  );
  const body = fc.oneof(
    fc.string(),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc
      .record({ message: fc.anything(), errors: fc.anything(), messages: fc.anything() })
      .map((v) => JSON.stringify(v) ?? ''),
    fc.array(fc.string()).map((messages) => JSON.stringify({ status: 'x', code: 422, messages })),
    fc.anything(),
  );
  const headers = fc.oneof(
    fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.array(fc.string()))),
    fc.dictionary(fc.constantFrom('retry-after', 'Retry-After', 'RETRY-AFTER'), fc.string()),
    fc.constant(undefined),
  );
  const kinds: ApiErrorKind[] = [
    'network',
    'timeout',
    'auth',
    'forbidden',
    'not-found',
    'validation',
    'rate-limited',
    'server',
    'unavailable',
  ];

  it('gives a well-formed ApiFailure for any status, body and headers', () => {
    fc.assert(
      fc.property(status, body, headers, fc.integer({ min: 0, max: 4_000_000_000_000 }), (s, b, h, now) => {
        const failure = mapFailure({ status: s, body: b, headers: h }, now);
        expect(failure.ok).toBe(false);
        expect(kinds).toContain(failure.kind);
        expect(failure.status === null || Number.isInteger(failure.status)).toBe(true);
        expect(typeof failure.message).toBe('string');
        expect(failure.message.trim().length).toBeGreaterThan(0);
        expect(failure.message.length).toBeLessThanOrEqual(500);
        for (const [field, list] of Object.entries(failure.fields)) {
          expect(field.length).toBeGreaterThan(0);
          expect(Array.isArray(list) && list.every((m) => typeof m === 'string' && m.length > 0)).toBe(true);
        }
        if (failure.retryAfterMs !== null) {
          expect(Number.isFinite(failure.retryAfterMs)).toBe(true);
          expect(failure.retryAfterMs).toBeGreaterThanOrEqual(0);
          expect(failure.retryAfterMs).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
        }
        if (['auth', 'forbidden', 'not-found', 'validation'].includes(failure.kind))
          expect(failure.retryAfterMs).toBeNull();
        // The result survives IPC (structured clone) unchanged.
        expect(structuredClone(failure)).toEqual(failure);
      }),
      { numRuns: 1000 },
    );
  });

  it('every "<field> is required." message of a version 0.0.1 body lands under its field', () => {
    const field = fc.stringMatching(/^[a-z][a-z_]{0,10}([.-][a-z_]{1,8}){0,2}$/);
    fc.assert(
      fc.property(fc.uniqueArray(field, { minLength: 1, maxLength: 8 }), (names) => {
        const messages = names.map((n) => `${n} is required.`);
        const failure = mapFailure({
          status: 422,
          body: json({ status: 'Unprocessable Entity', code: 422, messages }),
        });
        expect(failure.fields).toEqual(Object.fromEntries(names.map((n) => [n, [`${n} is required.`]])));
      }),
    );
  });
});

describe('file names of downloads (Content-Disposition)', () => {
  it('prefers filename*, falls back to filename, keeps what the server said for the files service to clean', () => {
    expect(fileNameOf(`attachment; filename="R_sum_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9.pdf`)).toBe(
      'Résumé.pdf',
    );
    expect(fileNameOf('attachment; filename="plain name.png"')).toBe('plain name.png');
    expect(fileNameOf('attachment; filename=bare.csv')).toBe('bare.csv');
    expect(fileNameOf(`attachment; filename*=UTF-8''%E0%A4%A; filename="fallback.txt"`)).toBe('fallback.txt');
    expect(fileNameOf('attachment; filename="../../etc/passwd"')).toBe('../../etc/passwd');
    expect(fileNameOf('inline')).toBeNull();
    expect(fileNameOf(null)).toBeNull();
  });
});
