// Shared helpers of the contract tests: start a sandbox platform in-process, talk to it over real
// HTTP, and check the shapes and orders the interface documents promise.

import { expect } from 'vitest';
import type { z } from 'zod';
import { ErrorBodyV2, ValidationBodyV2 } from '@shared/wire/errors.ts';
import { parseWire } from '@shared/wire/parse.ts';
import type { Account as WireAccount } from '@shared/wire/v2/account.ts';
import type { Engagement as WireEngagement } from '@shared/wire/v2/engagement.ts';
import type { User as WireUser } from '@shared/wire/v2/user.ts';
import { startPlatform, type Platform, type PlatformOptions } from '../platform/server.ts';
import { sandbox } from '../support/sandbox.ts';

export const ADVISOR = 'advisor@sandbox.test';
export const ASSISTANT = 'assistant@sandbox.test';
export const PASSWORD = 'sandbox';

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The options every contract test file starts from (rate limit off unless a test needs it). */
export const BASE_OPTIONS: PlatformOptions = { port: 0, seed: 7, accounts: 60, rateLimit: 0 };

/** A platform of its own, for a test of the platform's start and stop (data file, faults). */
export function start(options: PlatformOptions = {}): Promise<Platform> {
  return startPlatform({ ...BASE_OPTIONS, ...options });
}

/** The sandbox fixture (test/support/sandbox.ts) from BASE_OPTIONS, for a file or a `describe`. */
export function contractSandbox(options: PlatformOptions = {}): Platform {
  return sandbox({ ...BASE_OPTIONS, ...options });
}

// ---- resource shapes of the version 2 document (section 2): the app's schemas ----

export type { Member, Phone } from '@shared/wire/v2/account.ts';
export type { AccountActivity as Activity } from '@shared/wire/v2/activity.ts';
export type { Element, FlatStructure, Group, NestedStructure, Panel } from '@shared/wire/v2/config.ts';
export type {
  EngagementDataItem as DataItem,
  EngagementDocument,
  EngagementHistoryItem as HistoryItem,
  EngagementSignature as Signature,
} from '@shared/wire/v2/engagement-parts.ts';
export type { ProfileValue } from '@shared/wire/v2/profile.ts';
export type { PipelineStage as Pipeline, TemplateSummary } from '@shared/wire/v2/user.ts';

/**
 * What the document promises beyond what the app relies on: the app's schema takes these parts
 * as possibly missing (and copes), the document gives them always.
 */
type Present<T, K extends keyof T> = T & { [P in K]-?: NonNullable<T[P]> };
export type Account = Present<WireAccount, 'quality' | 'pipeline'>;
export type User = Present<WireUser, 'phone' | 'team' | 'permissions'>;
export type Engagement = Present<WireEngagement, 'member_id'>;
export type { ValidationBodyV2 as ValidationError } from '@shared/wire/errors.ts';
export type { ListV2 as List } from '@shared/wire/lists.ts';

/**
 * Parses a sandbox answer with the app's schema: the answer must be read with no failure and no
 * repair (a documented answer the schema refuses is a finding: the schema is fixed against the
 * document). Returns the typed value.
 */
export function expectWire<T extends z.ZodType>(schema: T, value: unknown, label: string): z.output<T> {
  const read = parseWire(schema, value, label);
  if (!read.ok) return expect.fail(`${label}: ${read.message}`);
  expect(read.repairs, `${label}: fields the app's schema had to repair`).toEqual([]);
  return read.value;
}

export const ACCOUNT_KEYS = [
  'id',
  'type',
  'client',
  'coclient',
  'quality',
  'pipeline',
  'favorited',
  'archived',
  'created_at',
  'updated_at',
];
export const MEMBER_KEYS = ['id', 'first_name', 'last_name', 'email', 'phone', 'status', 'pin'];
export const ENGAGEMENT_KEYS = [
  'id',
  'account_id',
  'member_id',
  'template_id',
  'title',
  'description',
  'security',
  'name',
  'email',
  'url',
  'status',
  'filled',
  'time',
  'created_at',
  'opened_at',
  'email_reminders',
  'reminded_at',
  'email_completed',
  'completed_at',
];
export const PROFILE_KEYS = ['id', 'dataset_id', 'member_id', 'row_id', 'type', 'value'];
export const ACTIVITY_KEYS = ['id', 'type', 'icon', 'description', 'options', 'created_at'];

/** Asserts that an object has exactly these keys (no more, no fewer). */
export function expectKeys(value: unknown, keys: string[], label = 'object'): void {
  expect(value, label).toBeTypeOf('object');
  expect(Object.keys(value as object).sort(), `${label} keys`).toEqual([...keys].sort());
}

// ---- HTTP ----

export interface Reply<T> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else undefined. */
  body: T;
  text: string;
}

export interface RequestOptions {
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  /** Sent as is. */
  raw?: string;
  headers?: Record<string, string>;
  /** Overrides the client's token; null sends no Authorization header. */
  token?: string | null;
}

export class Api {
  constructor(
    readonly base: string,
    public token: string | null = null,
  ) {}

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    const token = options.token === undefined ? this.token : options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (options.raw !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = options.raw;
    }
    const res = await fetch(this.base + path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
    return {
      status: res.status,
      headers: res.headers,
      body: (isJson && text ? JSON.parse(text) : undefined) as T,
      text,
    };
  }

  get<T = unknown>(
    path: string,
    query: Record<string, string | number> = {},
    options: RequestOptions = {},
  ): Promise<Reply<T>> {
    const q = new URLSearchParams(
      Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    return this.request<T>('GET', q ? `${path}?${q}` : path, options);
  }

  post<T = unknown>(path: string, json?: unknown, options: RequestOptions = {}): Promise<Reply<T>> {
    return this.request<T>('POST', path, { ...options, ...(json !== undefined ? { json } : {}) });
  }

  postForm<T = unknown>(
    path: string,
    form: Record<string, string>,
    options: RequestOptions = {},
  ): Promise<Reply<T>> {
    return this.request<T>('POST', path, { ...options, form });
  }

  delete<T = unknown>(path: string, json?: unknown, options: RequestOptions = {}): Promise<Reply<T>> {
    return this.request<T>('DELETE', path, { ...options, ...(json !== undefined ? { json } : {}) });
  }

  /** Downloads raw bytes. */
  async bytes(path: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
    const url = path.startsWith('http') ? path : this.base + path;
    const res = await fetch(url, { headers: this.token ? { authorization: `Bearer ${this.token}` } : {} });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

/** A token pair from the sandbox shortcut (no browser round trip). */
export async function sandboxToken(platform: Platform, email = ADVISOR): Promise<TokenPair> {
  const res = await fetch(`${platform.url}/__sandbox/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  expect(res.status, `token for ${email}`).toBe(200);
  return (await res.json()) as TokenPair;
}

/** A version 2 client signed in as `email`. */
export async function v2Client(platform: Platform, email = ADVISOR): Promise<Api> {
  return new Api(`${platform.url}/api/v2`, (await sandboxToken(platform, email)).access_token);
}

/** POST to a control endpoint; returns the parsed JSON answer. */
export async function control<T = unknown>(platform: Platform, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${platform.url}/__sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  expect(res.status, `control ${path}`).toBe(200);
  return (await res.json()) as T;
}

// ---- errors ----

/** Asserts a JSON error body of the version 2 interface with this status. */
export function expectJsonError(reply: Reply<unknown>, status: number): { message: string } {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get('content-type') ?? '', 'error content type').toMatch(/^application\/json/);
  const body = reply.body as { message?: unknown };
  expect(body, 'error body').toBeTypeOf('object');
  expect(typeof body.message, 'error message').toBe('string');
  expect((body.message as string).length).toBeGreaterThan(0);
  expectWire(ErrorBodyV2, reply.body, 'error body');
  return body as { message: string };
}

/** Asserts a Laravel-style 422 `{message, errors: {field: [..]}}` naming at least these fields. */
export function expectValidation(reply: Reply<unknown>, fields: string[]): ValidationBodyV2 {
  expectJsonError(reply, 422);
  expectWire(ValidationBodyV2, reply.body, 'validation error body');
  // The body as received: a parsed copy would not keep a field named `__proto__`.
  const body = reply.body as ValidationBodyV2;
  expect(body.errors, 'errors object').toBeTypeOf('object');
  for (const f of fields) {
    expect(Object.keys(body.errors), `errors should name ${f}`).toContain(f);
  }
  for (const [field, messages] of Object.entries(body.errors)) {
    expect(Array.isArray(messages), `errors.${field} is a list`).toBe(true);
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) expect(typeof m).toBe('string');
  }
  return body;
}

// ---- ordering ----

export type SortValue = string | number | boolean | null | undefined;

export const isEmpty = (v: SortValue) => v === null || v === undefined || v === '';

/** Case-insensitive for text (what a person expects of a sorted name list), natural for the rest. */
export function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'string' && typeof b === 'string')
    return a.localeCompare(b, 'en', { sensitivity: 'base' });
  const x = typeof a === 'boolean' ? Number(a) : (a as number);
  const y = typeof b === 'boolean' ? Number(b) : (b as number);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Asserts that `values` are in ascending (or descending) order. Empty values (null, missing, '')
 * have no place in an order; they must sit together at the end.
 */
export function expectOrdered(values: SortValue[], descending: boolean, label: string): void {
  const firstEmpty = values.findIndex(isEmpty);
  const filled = firstEmpty === -1 ? values : values.slice(0, firstEmpty);
  if (firstEmpty !== -1)
    expect(values.slice(firstEmpty).every(isEmpty), `${label}: empty values last`).toBe(true);
  for (let i = 1; i < filled.length; i++) {
    const c = compareValues(filled[i - 1], filled[i]);
    if (descending ? c < 0 : c > 0) {
      expect.fail(`${label}: ${String(filled[i - 1])} comes before ${String(filled[i])} at ${i - 1}`);
    }
  }
}

/** Number of distinct non-empty values: a sort test is only worth something with at least two. */
export const distinct = (values: SortValue[]) =>
  new Set(values.filter((v) => !isEmpty(v)).map((v) => (typeof v === 'string' ? v.toLowerCase() : v))).size;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let unique = 0;
/** A value unique within this test run (for names and emails). */
export function uniqueTag(prefix = 't'): string {
  unique++;
  return `${prefix}${process.pid.toString(36)}${unique.toString(36)}${Date.now().toString(36).slice(-4)}`;
}

/** Flat dotted-key body for a new account. */
export function newAccountBody(overrides: Record<string, string> = {}): Record<string, string> {
  const tag = uniqueTag('zq');
  return {
    type: 'PROSPECT',
    'client.first_name': `Zara${tag}`,
    'client.last_name': `Quill${tag}`,
    'client.email': `zara.${tag}@example.net`,
    ...overrides,
  };
}

/** Timestamp comparisons: the form YYYY-MM-DD HH:MM:SS sorts as text. */
export const later = (a: string, b: string) => a > b;
