// Helpers of the contract tests of the version 0.0.1 interface (document 001): a client with PUT
// and multipart uploads, the `{status, code, messages}` error checks, the resource shapes and one
// descriptor per financial section as the document lists it.

import { makePng } from '../platform/samples.ts';
import { beforeAll, expect } from 'vitest';
import type { ListV0 } from '@shared/wire/lists.ts';
import {
  AccountV0 as AccountV0Schema,
  MemberSummary,
  type AccountV0 as WireAccountV0,
} from '@shared/wire/v0/account.ts';
import type { Definition, PropertyDefinition } from '@shared/wire/v0/define.ts';
import type { Form } from '@shared/wire/v0/forms.ts';
import type { MemberSecurity } from '@shared/wire/v0/member.ts';
import type { UserV0 as WireUserV0 } from '@shared/wire/v0/user.ts';
import { SECTIONS, type SectionDescriptor } from '@shared/sections.ts';
import { sectionItemSchema, singleRecordSchema, type SectionItem } from '@shared/wire/v0/sections.ts';
import { FileObject, type CurrencyObject, type FileObject as FileV0 } from '@shared/wire/v0/values.ts';
import { ErrorBodyV0 } from '@shared/wire/errors.ts';
import type { Platform } from '../platform/server.ts';
import { enumsOf, FULL_MEMBER_ENUMS, type EnumeratedFields } from '../support/documented-enums.ts';
import { sandbox } from '../support/sandbox.ts';
import { ADVISOR, ASSISTANT, Api, expectWire, sandboxToken, uniqueTag, type Reply } from './helpers.ts';

/** The options every version 0.0.1 contract file starts its platform with. */
export const V0_OPTIONS = { port: 0, seed: 11, accounts: 40, rateLimit: 0 } as const;

export const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const ITEM_ID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---- resource shapes of the 0.0.1 document (section 2): the app's schemas ----

export type { MemberSummary as MemberV0 } from '@shared/wire/v0/account.ts';
export type { ListV0 } from '@shared/wire/lists.ts';
export type { Definition, PropertyDefinition } from '@shared/wire/v0/define.ts';
export type { FormTemplate as TemplateV0 } from '@shared/wire/v0/forms.ts';
export type { MemberDetails as FullMemberV0 } from '@shared/wire/v0/member.ts';
export type { Report as ReportV0 } from '@shared/wire/v0/reports.ts';
export type { UserActivity as ActivityV0, UserStats as StatsV0 } from '@shared/wire/v0/user.ts';
export type {
  Address as AddressV0,
  FileObject as FileV0,
  RelationObject as RelationV0,
} from '@shared/wire/v0/values.ts';

/** What the document promises beyond what the app relies on (see helpers.ts, Present). */
type Present<T, K extends keyof T> = T & { [P in K]-?: NonNullable<T[P]> };
export type AccountV0 = Present<WireAccountV0, 'client'>;
export type FormV0 = Present<Form, 'account_id' | 'template'>;
export type UserV0 = Present<WireUserV0, 'photo' | 'company_logo'>;
export type AccountListV0 = ListV0<AccountV0>;
export type SecurityV0 = Present<MemberSecurity, 'account_id' | 'pin'>;
/** A currency field as the sandbox answers it: the declared object, value and frequency given. */
export type CurrencyV0 = Present<CurrencyObject, 'value' | 'frequency'>;
/** An item of any section, as a test sends or reads it. */
export type Item = Partial<SectionItem>;

export const ACCOUNT_KEYS_V0 = ['id', 'type', 'client', 'coclient', 'created_at', 'updated_at'];
export const MEMBER_KEYS_V0 = ['first_name', 'last_name', 'email', 'phone', 'status', 'type'];
export const FULL_MEMBER_KEYS = [
  'first_name',
  'middle_initial',
  'last_name',
  'gender',
  'birth_date',
  'marital_status',
  'previous_marriages',
  'citizenship',
  'email',
  'phone',
  'home_phone',
  'work_phone',
  'address',
  'photo',
  'risk_score',
  'comments',
  'drivers_license',
];
export const ADDRESS_KEYS = ['line1', 'line2', 'city', 'state', 'zip', 'country'];
export const LICENSE_KEYS = ['number', 'issue_date', 'expire_date', 'jurisdiction', 'document'];
export const FILE_KEYS = ['type', 'url', 'filetype', 'filesize', 'filename'];
export const SECURITY_KEYS = ['account_id', 'type', 'status', 'pin'];
export const TEMPLATE_KEYS_V0 = [
  'key',
  'type',
  'title',
  'description',
  'status',
  'modified',
  'default',
  'tags',
];
export const FORM_KEYS = [
  'account_id',
  'key',
  'definition_key',
  'status',
  'template',
  'recipients',
  'created_at',
  'updated_at',
  'opened_at',
  'reminded_at',
  'closed_at',
  'urls',
];
export const REPORT_KEYS = [
  'key',
  'type',
  'source',
  'title',
  'description',
  'created_at',
  'updated_at',
  'tags',
  'id',
];
export const ACTIVITY_KEYS_V0 = ['id', 'type', 'icon', 'icon_color', 'title', 'description', 'created_at'];
export const USER_KEYS_V0 = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'photo',
  'company',
  'company_email',
  'company_phone',
  'company_logo',
];
export const STATS_KEYS = ['prospects', 'clients', 'sent_forms', 'closed_forms'];

/** Activity types of the document (section 2, Activity). */
export const ACTIVITY_TYPES = [
  'account.client.created',
  'account.coclient.created',
  'account.client.deleted',
  'account.coclient.deleted',
  'account.converted',
  'account.member.blocked',
  'account.members.switched',
  'account.security.reset',
  'account.currentdata.updated',
  'form.sent',
  'form.deleted',
  'form.link',
  'form.link.accessed',
  'form.accessed',
  'form.resent',
  'form.closed',
  'form.reminders.activated',
  'form.reminders.deactivated',
  'account.exported',
  'account.imported',
];

/**
 * Values the sandbox's `/define` allows beyond the document, by entity and field: a platform that
 * has grown since the document was written (a plan may be a health savings account). The app's
 * built-in table does not know them; the forms offer them from the definition and keep them.
 */
export const BEYOND_THE_DOCUMENT: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  Plan: { type: ['hsa'] },
  FullMember: { marital_status: ['separated'] },
};

/** A Currency's frequencies ("Shared value types": one-time, monthly, yearly). */
export const CURRENCY_FREQUENCIES = ['one-time', 'monthly', 'yearly'];

/**
 * The Currency fields of each collection the document lists ("Data sections"); the single-record
 * sections' are their `currencies` (SINGLE_CASES). A goal's target is a Target, not a Currency.
 */
export const COLLECTION_CURRENCIES: Readonly<Record<string, readonly string[]>> = {
  Annuity: ['contribution_value', 'current_value', 'distribution_value'],
  Asset: ['current_value', 'original_value'],
  Cash: ['current_value'],
  Employment: ['salary'],
  ExpenseVariable: ['value'],
  Insurance: ['premium_value', 'coverage_value', 'cash_value'],
  Liability: ['original_value', 'current_value', 'cost_value'],
  Plan: ['contribution_value', 'employer_contribution_value', 'current_value'],
  Taxable: ['cost_value', 'current_value'],
};

/** An entity the app asks `/define` about, with the lists the document gives it. */
export interface DefinedCase {
  entity: string;
  /** Its enumerated fields with the document's values. */
  enums: Readonly<Record<string, readonly string[]>>;
  /** Its Currency fields, each with a frequency to choose. */
  currencies: readonly string[];
}

/**
 * What the 0.0.1 document lists with choices: the sections' enumerated fields and Currency fields
 * ("Data sections"), and the full member's gender and marital status; the entities without any
 * (Document) left out. 15 sections and the member details.
 */
export function definedCases(): DefinedCase[] {
  return [
    ...COLLECTION_CASES.map((c) => ({
      entity: c.entity,
      enums: c.enums,
      currencies: COLLECTION_CURRENCIES[c.entity] ?? [],
    })),
    ...SINGLE_CASES.map((c) => ({ entity: c.entity, enums: {}, currencies: c.currencies })),
    { entity: 'FullMember', enums: FULL_MEMBER_ENUMS, currencies: [] },
  ].filter((c) => Object.keys(c.enums).length || c.currencies.length);
}

/** The owner values the document says the definition endpoint lists. */
export const DEFINE_OWNER_VALUES = [
  'client',
  'coclient',
  'joint',
  'children',
  'grandchildren',
  'Employment',
  'FamilyMember',
  'Insurance',
  'Plan',
  'Cash',
  'Taxable',
  'Annuity',
  'Asset',
  'Liability',
  'ExpenseVariable',
  'Goal',
  'Contact',
  'Document',
  'Note',
];

// ---- HTTP ----

export interface Upload {
  bytes: Buffer;
  name: string;
  /** What the client claims; the server may read the type from the bytes instead. */
  type: string;
}

export class V0Api extends Api {
  put<T = unknown>(path: string, json?: unknown): Promise<Reply<T>> {
    return this.request<T>('PUT', path, json !== undefined ? { json } : {});
  }

  /** Multipart form data: the file in field `file` (when given) and plain text fields. */
  async upload<T = unknown>(
    method: 'PUT' | 'POST',
    path: string,
    file: Upload | null,
    fields: Record<string, string> = {},
  ): Promise<Reply<T>> {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const res = await fetch(this.base + path, { method, headers, body: form });
    const text = await res.text();
    const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
    return {
      status: res.status,
      headers: res.headers,
      body: (isJson && text ? JSON.parse(text) : undefined) as T,
      text,
    };
  }

  /** Downloads with or without this client's token. */
  async download(
    url: string,
    withToken = true,
  ): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
    const full = url.startsWith('http') ? url : this.base + url;
    const res = await fetch(full, {
      headers: withToken && this.token ? { authorization: `Bearer ${this.token}` } : {},
    });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }
}

export interface V0Session {
  platform: Platform;
  advisor: V0Api;
  assistant: V0Api;
  /** The version 2 interface as the advisor. */
  v2: Api;
}

/**
 * The sandbox fixture of a version 0.0.1 contract file (test/support/sandbox.ts): a platform of
 * V0_OPTIONS and the users' clients, made before the file's own hooks run.
 */
export function v0Sandbox(): V0Session {
  const platform = sandbox(V0_OPTIONS);
  let clients: Omit<V0Session, 'platform'> | undefined;
  beforeAll(async () => {
    const advisorToken = (await sandboxToken(platform, ADVISOR)).access_token;
    const assistantToken = (await sandboxToken(platform, ASSISTANT)).access_token;
    clients = {
      advisor: new V0Api(`${platform.url}/api/v0`, advisorToken),
      assistant: new V0Api(`${platform.url}/api/v0`, assistantToken),
      v2: new Api(`${platform.url}/api/v2`, advisorToken),
    };
  });
  const made = () => clients ?? expect.fail('The v0 clients exist only inside the tests');
  return {
    platform,
    get advisor() {
      return made().advisor;
    },
    get assistant() {
      return made().assistant;
    },
    get v2() {
      return made().v2;
    },
  };
}

// ---- errors ----

/** Asserts the 0.0.1 error body `{status, code, messages}` with code equal to the HTTP status. */
export function expectV0Error(
  reply: Reply<unknown>,
  status: number,
): { status: string; code: number; messages: string | string[] } {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get('content-type') ?? '', 'error content type').toMatch(/^application\/json/);
  const body = reply.body as { status?: unknown; code?: unknown; messages?: unknown };
  expect(Object.keys(body).sort(), 'error body keys').toEqual(['code', 'messages', 'status']);
  expect(typeof body.status, 'error status text').toBe('string');
  expect((body.status as string).length).toBeGreaterThan(0);
  expect(body.code, 'error code').toBe(status);
  if (status === 422) {
    expect(Array.isArray(body.messages), 'messages is an array for 422').toBe(true);
    for (const m of body.messages as unknown[]) expect(typeof m).toBe('string');
    expect((body.messages as string[]).length).toBeGreaterThan(0);
  } else {
    expect(typeof body.messages === 'string' || Array.isArray(body.messages), 'messages').toBe(true);
  }
  return expectWire(ErrorBodyV0, reply.body, 'error body');
}

/** Asserts a 422 whose messages are exactly these (in any order). */
export function expectMessages(reply: Reply<unknown>, messages: string[]): void {
  const body = expectV0Error(reply, 422);
  expect([...(body.messages as string[])].sort()).toEqual([...messages].sort());
}

/** Asserts a 422 that has at least this message (others may come along). */
export function expectMessage(reply: Reply<unknown>, message: string): void {
  const body = expectV0Error(reply, 422);
  expect(body.messages).toContain(message);
}

/** The field names of `<field> is required.` messages. */
export function requiredFields(messages: string[]): string[] {
  return messages
    .map((m) => /^(\S+) is required\.$/.exec(m)?.[1])
    .filter((f): f is string => f !== undefined);
}

export function expectStatus(reply: Reply<unknown>, status: number): void {
  expect(reply.status, `${status} expected: ${reply.text.slice(0, 400)}`).toBe(status);
}

// ---- shapes ----

export function expectKeySet(value: unknown, keys: string[], label: string): void {
  expect(value, label).toBeTypeOf('object');
  expect(value, label).not.toBeNull();
  expect(Object.keys(value as object).sort(), `${label} keys`).toEqual([...keys].sort());
}

export function expectMemberV0(m: unknown, type: 'CLIENT' | 'COCLIENT'): void {
  expectKeySet(m, MEMBER_KEYS_V0, `${type} member`);
  const member = expectWire(MemberSummary, m, `${type} member`);
  for (const k of ['first_name', 'last_name', 'email', 'phone', 'status'] as const)
    expect(typeof member[k], k).toBe('string');
  expect(['ACTIVE', 'NEW', 'BLOCKED']).toContain(member.status);
  expect(member.type).toBe(type);
  if (member.phone) expect(member.phone, 'phone string with country code').toMatch(/^\+\d{5,18}$|^\d{4,15}$/);
}

export function expectAccountV0(a: unknown): asserts a is AccountV0 {
  expectKeySet(a, ACCOUNT_KEYS_V0, 'account');
  const account = expectWire(AccountV0Schema, a, 'account');
  expect(Number.isInteger(account.id)).toBe(true);
  expect(['clients', 'prospects']).toContain(account.type);
  expectMemberV0(account.client, 'CLIENT');
  if (account.coclient !== null) expectMemberV0(account.coclient, 'COCLIENT');
  expect(account.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  expect(account.updated_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  expect(account.updated_at >= account.created_at, 'updated_at on or after created_at').toBe(true);
}

/** A File object whose url lies below `{base_url_v0}/files/`. */
export function expectFileV0(
  f: unknown,
  base: string,
  expected: { type?: 'image' | 'document'; filetype?: string; filename?: string; bytes?: number } = {},
): asserts f is FileV0 {
  expectKeySet(f, FILE_KEYS, 'File');
  const file = expectWire(FileObject, f, 'File');
  expect(['image', 'document']).toContain(file.type);
  expect(file.url.startsWith(`${base}/files/`), `url ${file.url} below ${base}/files/`).toBe(true);
  expect(Number.isInteger(file.filesize), 'filesize is an integer').toBe(true);
  if (expected.type) expect(file.type).toBe(expected.type);
  if (expected.filetype) expect(file.filetype).toBe(expected.filetype);
  if (expected.filename) expect(file.filename).toBe(expected.filename);
  if (expected.bytes !== undefined)
    expect(file.filesize, 'filesize in KB').toBe(Math.ceil(expected.bytes / 1024));
}

// ---- sample files ----

/** A real RGB PNG of noise (hardly compressible, so its size in KB is well above 1). */
export function noisePng(size = 40, seed = 1): Buffer {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x & 0xff;
  };
  return makePng(size, size, () => [next(), next(), next()]);
}

/** A one-page PDF showing these lines. */
export function tinyPdf(lines: string[]): Buffer {
  const text = lines
    .map((l, i) => `BT /F1 12 Tf 56 ${780 - i * 20} Td (${l.replace(/[\\()]/g, '')}) Tj ET`)
    .join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export const png = (name = 'portrait.png', seed = 1): Upload => ({
  bytes: noisePng(40, seed),
  name,
  type: 'image/png',
});
export const pdf = (name = 'license.pdf', lines = ['Driver license', 'Sandbox']): Upload => ({
  bytes: tinyPdf(lines),
  name,
  type: 'application/pdf',
});
export const textFile = (name = 'notes.txt'): Upload => ({
  bytes: Buffer.from('plain text, not a picture\n'.repeat(20)),
  name,
  type: 'text/plain',
});

// ---- accounts ----

/** A create body for a new account: unique names and email; `+13213211212`-style phone. */
export interface MemberBody {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
}

export function accountBody(
  type: 'clients' | 'prospects' = 'prospects',
  withCoclient = false,
): { type: string; client: MemberBody; coclient?: MemberBody } {
  const tag = uniqueTag('v');
  return {
    type,
    client: {
      first_name: `Vera${tag}`,
      last_name: `Lind${tag}`,
      email: `vera.${tag}@example.org`,
      phone: '+13213211212',
    },
    ...(withCoclient
      ? {
          coclient: {
            first_name: `Colm${tag}`,
            last_name: `Lind${tag}`,
            email: `colm.${tag}@example.org`,
            phone: '+447700900123',
          },
        }
      : {}),
  };
}

export async function createAccount(
  api: V0Api,
  type: 'clients' | 'prospects' = 'prospects',
  withCoclient = false,
): Promise<AccountV0> {
  const reply = await api.post<AccountV0>('/accounts', accountBody(type, withCoclient));
  expectStatus(reply, 201);
  return reply.body;
}

// ---- financial sections, as the document lists them ----

export interface SectionCase {
  /** Resource name of the document; also the entity asked of /define. */
  entity: string;
  /** Collection path below the account (below `/{client}` for employment). */
  path: string;
  perMember: boolean;
  /** Fields of the resource in the document's data section table (without id). */
  fields: string[];
  /** Field names the document gives for the `<field> is required.` messages. */
  required: string[];
  /** Every enumerated field with the values the document allows. */
  enums: EnumeratedFields;
  /** A valid create body. */
  valid: (tag: string) => Record<string, unknown>;
  /** A valid partial update and the field it changes. */
  update: { body: (tag: string) => Record<string, unknown>; field: string };
  /** A field sent with a value of the wrong type, and the name the message gives it. */
  wrongType: { field: string; value: unknown; message: string };
}

const owner = 'client';
const name = (what: string) => (tag: string) => `${what} ${tag}`;

export const COLLECTION_CASES: SectionCase[] = [
  {
    entity: 'Annuity',
    path: 'annuities',
    perMember: false,
    fields: [
      'name',
      'owner',
      'provider',
      'primary_beneficiary',
      'secondary_beneficiary',
      'type',
      'contribution_value',
      'current_value',
      'distribution_type',
      'distribution_value',
    ],
    required: ['type', 'name', 'owner', 'current-value'],
    enums: enumsOf('Annuity'),
    valid: (t) => ({ type: 'fixed', name: name('Annuity')(t), owner, current_value: 12000 }),
    update: { body: () => ({ provider: 'Harbor Life' }), field: 'provider' },
    wrongType: { field: 'name', value: 42, message: 'name is invalid.' },
  },
  {
    entity: 'Asset',
    path: 'assets',
    perMember: false,
    fields: ['name', 'type', 'owner', 'current_value', 'original_value'],
    required: ['type', 'name', 'owner', 'current-value'],
    enums: enumsOf('Asset'),
    valid: (t) => ({ type: 'vehicle', name: name('Car')(t), owner, current_value: 25000 }),
    update: { body: (t) => ({ name: `Boat ${t}` }), field: 'name' },
    wrongType: { field: 'original_value', value: 'much', message: 'original-value is invalid.' },
  },
  {
    entity: 'Cash',
    path: 'cash',
    perMember: false,
    fields: ['name', 'type', 'provider', 'owner', 'current_value', 'interest', 'end_date'],
    required: ['type', 'name', 'owner', 'current-value'],
    enums: enumsOf('Cash'),
    valid: (t) => ({ type: 'savings', name: name('Savings')(t), owner, current_value: 800 }),
    update: { body: () => ({ interest: 1.25 }), field: 'interest' },
    wrongType: { field: 'interest', value: '3%', message: 'interest is invalid.' },
  },
  {
    entity: 'Contact',
    path: 'contacts',
    perMember: false,
    fields: ['type', 'first_name', 'last_name', 'email', 'phone', 'company'],
    required: ['first_name', 'last_name', 'type'],
    enums: enumsOf('Contact'),
    valid: (t) => ({ type: 'accountant', first_name: 'Nadia', last_name: `Kerr${t}` }),
    update: { body: () => ({ company: 'Lakeside CPA' }), field: 'company' },
    wrongType: { field: 'email', value: ['a@b.c'], message: 'email is invalid.' },
  },
  {
    entity: 'Employment',
    path: 'employment',
    perMember: true,
    fields: ['employer', 'position', 'duration', 'address', 'salary', 'comissions', 'document'],
    required: ['employer'],
    enums: enumsOf('Employment'),
    valid: (t) => ({ employer: name('Acme')(t) }),
    update: { body: () => ({ position: 'Engineer' }), field: 'position' },
    wrongType: { field: 'duration', value: 2.5, message: 'duration is invalid.' },
  },
  {
    entity: 'ExpenseVariable',
    path: 'expenses-variable',
    perMember: false,
    fields: ['value', 'type'],
    required: ['type', 'value'],
    enums: enumsOf('ExpenseVariable'),
    valid: () => ({ type: 'groceries', value: 450 }),
    update: { body: () => ({ type: 'charity' }), field: 'type' },
    wrongType: { field: 'value', value: 'abc', message: 'value is invalid.' },
  },
  {
    entity: 'FamilyMember',
    path: 'family',
    perMember: false,
    fields: [
      'relationship',
      'first_name',
      'middle_initial',
      'last_name',
      'gender',
      'birth_date',
      'dependent',
      'email',
      'phone',
      'college_type',
      'college_start',
      'college_end',
    ],
    required: ['first_name', 'last_name', 'relationship'],
    enums: enumsOf('FamilyMember'),
    valid: (t) => ({ relationship: 'child', first_name: 'Ada', last_name: `Lind${t}` }),
    update: { body: () => ({ dependent: true }), field: 'dependent' },
    wrongType: { field: 'dependent', value: 'yes', message: 'dependent is invalid.' },
  },
  {
    entity: 'Goal',
    path: 'goals',
    perMember: false,
    fields: ['type', 'name', 'owner', 'beneficiary', 'priority', 'frequency', 'target'],
    required: ['name', 'owner', 'type', 'target'],
    enums: enumsOf('Goal'),
    valid: (t) => ({
      type: 'travel',
      name: name('Trip')(t),
      owner,
      target: { value: 9000, date: '2031-06-01' },
    }),
    update: { body: () => ({ priority: 'high' }), field: 'priority' },
    wrongType: { field: 'target', value: 5000, message: 'target is invalid.' },
  },
  {
    entity: 'Insurance',
    path: 'insurance',
    perMember: false,
    fields: [
      'type',
      'name',
      'provider',
      'owner',
      'insured',
      'primary_beneficiary',
      'secondary_beneficiary',
      'premium_value',
      'coverage_value',
      'cash_value',
    ],
    required: ['type', 'name', 'owner'],
    enums: enumsOf('Insurance'),
    valid: (t) => ({ type: 'term', name: name('Term life')(t), owner }),
    update: { body: () => ({ provider: 'Granite Insurance' }), field: 'provider' },
    wrongType: { field: 'premium_value', value: true, message: 'premium-value is invalid.' },
  },
  {
    entity: 'Liability',
    path: 'liabilities',
    perMember: false,
    fields: [
      'name',
      'owner',
      'provider',
      'type',
      'start_date',
      'end_date',
      'interest',
      'original_value',
      'current_value',
      'cost_value',
    ],
    required: ['type', 'name', 'owner', 'current-value'],
    enums: enumsOf('Liability'),
    valid: (t) => ({ type: 'fixed', name: name('Mortgage')(t), owner, current_value: 150000 }),
    update: { body: () => ({ interest: 4.5 }), field: 'interest' },
    wrongType: { field: 'start_date', value: '15/01/2020', message: 'start_date is invalid.' },
  },
  {
    entity: 'Plan',
    path: 'plans',
    perMember: false,
    fields: [
      'name',
      'type',
      'owner',
      'provider',
      'contribution_value',
      'employer_contribution_value',
      'current_value',
      'primary_beneficiary',
      'secondary_beneficiary',
    ],
    required: ['type', 'name', 'owner', 'current-value'],
    enums: enumsOf('Plan'),
    valid: (t) => ({ type: '401k', name: name('401k')(t), owner, current_value: 42000 }),
    update: { body: () => ({ provider: 'Summit Trust' }), field: 'provider' },
    wrongType: {
      field: 'employer_contribution_value',
      value: 'half',
      message: 'employer-contribution-value is invalid.',
    },
  },
  {
    entity: 'Taxable',
    path: 'taxable',
    perMember: false,
    fields: ['name', 'provider', 'owner', 'cost_value', 'current_value'],
    required: ['name', 'owner', 'current-value'],
    enums: enumsOf('Taxable'),
    valid: (t) => ({ name: name('Brokerage')(t), owner, current_value: 3000 }),
    update: { body: () => ({ provider: 'Pioneer Investments' }), field: 'provider' },
    wrongType: { field: 'cost_value', value: { value: 'cheap' }, message: 'cost-value is invalid.' },
  },
];

/** The Documents section (multipart upload; `file` is its only required field). */
export const DOCUMENT_FIELDS = ['file', 'relation'];

export interface SingleCase {
  entity: string;
  path: string;
  perMember: boolean;
  currencies: string[];
  others: string[];
}

export const SINGLE_CASES: SingleCase[] = [
  {
    entity: 'ExpenseFixed',
    path: 'expenses-fixed',
    perMember: false,
    others: [],
    currencies: [
      'rent',
      'alimony',
      'child_support',
      'college',
      'other_insurance',
      'life_insurance',
      'health_insurance',
      'disability_insurance',
      'long_term_care_insurance',
      'homeowner_insurance',
      'auto_insurance',
      'umbrella_insurance',
      'eo_malpractice_insurance',
      'college_plan',
      'annuity',
      'retirement_plan',
      'credit_card',
      'mortgage',
      'loan',
      'other',
    ],
  },
  {
    entity: 'ExpenseTax',
    path: 'expenses-tax',
    perMember: false,
    others: [],
    currencies: ['federal_income', 'state_income', 'fica', 'real_estate', 'other'],
  },
  {
    entity: 'Income',
    path: 'income',
    perMember: true,
    others: ['comments'],
    currencies: [
      'employment',
      'self_employment',
      'annuities',
      'social_security',
      'dividends',
      'interest',
      'other',
    ],
  },
];

/** Parses a section item the sandbox answered with the app's schema of its section (by path). */
export function expectItem(path: string, item: unknown, label: string): SectionItem {
  return expectWire(sectionItemSchema(sectionByPath(path)), item, label);
}

/** Parses a single-record section the sandbox answered with the app's schema (by path). */
export function expectSingle(path: string, body: unknown, label: string): Record<string, unknown> {
  return expectWire(singleRecordSchema(sectionByPath(path)), body, label);
}

function sectionByPath(path: string): SectionDescriptor {
  const section = SECTIONS.find((s) => s.path === path);
  if (!section) throw new Error(`No section at ${path}.`);
  return section;
}

/** The collection path of a section for an account (and member, for per-member sections). */
export function sectionPath(
  accountId: number,
  path: string,
  perMember: boolean,
  member: 'client' | 'coclient' = 'client',
): string {
  return perMember ? `/accounts/${accountId}/${member}/${path}` : `/accounts/${accountId}/${path}`;
}

/** Whether a property definition (or any part of a composite one) is marked required. */
export function definesRequired(d: Definition): boolean {
  if (isProperty(d)) return d.required;
  return Object.values(d).some(definesRequired);
}

export function isProperty(d: Definition): d is PropertyDefinition {
  return (
    typeof (d as PropertyDefinition).required === 'boolean' &&
    typeof (d as PropertyDefinition).read === 'boolean'
  );
}

/** Today's date (UTC, as the platform writes timestamps). */
export const today = () => new Date().toISOString().slice(0, 10);

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Minimal CSV reader (RFC 4180: quotes, doubled quotes, commas and newlines inside quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
