// Validation and normalization of section bodies, driven by the descriptors in sections.ts.
// Messages keep the 0.0.1 form `<field> is required.`; other failures read `<field> is invalid.`
// (the documents show only the first form; the second is the sandbox's choice, listed in the README).

import { EMAIL, US_STATES, isCountryCode } from './catalog.ts';
import { parseDate } from './clock.ts';
import type { AccountRecord, Address, SectionItem, StoredFile } from './model.ts';
import {
  FREQUENCIES,
  RELATION_SECTION,
  messageName,
  type FieldSpec,
  type Frequency,
  type SectionSpec,
} from './sections.ts';

export type Result<T> = { ok: true; value: T } | { ok: false; messages: string[] };

export interface Relation {
  type: string;
  id: string | null;
}
export interface Currency {
  value: number;
  frequency: Frequency;
}

export interface SectionContext {
  account: AccountRecord;
  /** Items of a collection section of this account, by path (`employment` covers both members). */
  items(path: string): SectionItem[];
  /** Id of the stored file a File object's url points at, or null. */
  fileIdFromUrl(url: string): string | null;
}

const MAX_TEXT = 2000;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isBlank = (v: unknown) => v === undefined || v === null || v === '';

/** Normalizes a value of one field; returns undefined when it is not acceptable. */
function normalizeField(spec: FieldSpec, value: unknown, ctx: SectionContext): unknown {
  if (value === null) return null;
  switch (spec.kind) {
    case 'string':
      return typeof value === 'string' && value.length <= MAX_TEXT ? value : undefined;
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value) ? value : undefined;
    case 'float':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'date':
      return typeof value === 'string' && parseDate(value) !== null ? value : undefined;
    case 'currency':
      return normalizeCurrency(value, spec.frequency);
    case 'address':
      return normalizeAddress(value);
    case 'relation':
      return normalizeRelation(value, spec.types, ctx);
    case 'file':
      return isObject(value) && typeof value.url === 'string'
        ? (ctx.fileIdFromUrl(value.url) ?? undefined)
        : undefined;
    case 'target':
      return isObject(value) ? normalizeTarget(value) : undefined;
  }
}

/** Plain numbers are accepted as the value at the field's default frequency (the documents' examples). */
export function normalizeCurrency(value: unknown, frequency: Frequency): Currency | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? { value, frequency } : undefined;
  if (!isObject(value)) return undefined;
  const v = value.value ?? 0;
  const f = value.frequency ?? frequency;
  if (typeof v !== 'number' || !Number.isFinite(v)) return undefined;
  if (typeof f !== 'string' || !FREQUENCIES.includes(f as Frequency)) return undefined;
  return { value: v, frequency: f as Frequency };
}

export function normalizeAddress(value: unknown): Address | undefined {
  if (!isObject(value)) return undefined;
  const out: Address = {};
  for (const key of ['line1', 'line2', 'city', 'state', 'zip', 'country'] as const) {
    const v = value[key];
    if (v === undefined) continue;
    if (v !== null && (typeof v !== 'string' || v.length > 200)) return undefined;
    out[key] = v;
  }
  if (out.country) {
    out.country = out.country.toUpperCase();
    if (!isCountryCode(out.country)) return undefined;
  }
  if (out.state && out.country === 'US' && !US_STATES.includes(out.state.toUpperCase())) return undefined;
  if (out.state && out.country === 'US') out.state = out.state.toUpperCase();
  return out;
}

function normalizeRelation(
  value: unknown,
  types: readonly string[],
  ctx: SectionContext,
): Relation | undefined {
  const raw = typeof value === 'string' ? { type: value, id: null } : value;
  if (!isObject(raw) || typeof raw.type !== 'string' || !types.includes(raw.type)) return undefined;
  const type = raw.type === 'ExenseVariable' ? 'ExpenseVariable' : raw.type;
  const id = raw.id ?? null;
  if (id !== null && typeof id !== 'string') return undefined;
  if ((type === 'coclient' || type === 'joint') && !ctx.account.coclient) return undefined;
  const section = RELATION_SECTION[type];
  if (section !== undefined) {
    if (id === null || !ctx.items(section).some((item) => item.id === id)) return undefined;
    return { type, id };
  }
  return { type, id: type === 'Note' ? id : null };
}

function normalizeTarget(value: Record<string, unknown>): { value: unknown; date: unknown } | undefined {
  const v = value.value;
  const d = value.date;
  if (v !== undefined && v !== null && (typeof v !== 'number' || !Number.isFinite(v) || v < 0))
    return undefined;
  if (d !== undefined && d !== null && (typeof d !== 'string' || parseDate(d) === null)) return undefined;
  return { value: v ?? null, date: d ?? null };
}

/**
 * Validates a body against a section. `existing` is the stored item for an update: the body's
 * fields are merged into it and the merged record must satisfy the required rules.
 */
export function validateSection(
  spec: SectionSpec,
  body: unknown,
  existing: Record<string, unknown> | null,
  ctx: SectionContext,
  readOnly: readonly string[] = [],
): Result<Record<string, unknown>> {
  if (!isObject(body)) return { ok: false, messages: ['body is invalid.'] };
  const merged: Record<string, unknown> = { ...(existing ?? {}) };
  const invalid: string[] = [];
  for (const [field, fieldSpec] of Object.entries(spec.fields)) {
    if (!(field in body) || readOnly.includes(field)) continue;
    const normalized = normalizeField(fieldSpec, body[field], ctx);
    if (normalized === undefined) invalid.push(`${messageName(spec, field)} is invalid.`);
    else merged[field] = normalized;
  }
  const missing: string[] = [];
  for (const field of spec.required) {
    const fieldSpec = spec.fields[field] as FieldSpec;
    if (isBlank(merged[field])) {
      if (!invalid.includes(`${messageName(spec, field)} is invalid.`))
        missing.push(`${messageName(spec, field)} is required.`);
    } else if (fieldSpec.kind === 'target') {
      const target = merged[field] as { value: unknown; date: unknown };
      if (isBlank(target.value)) missing.push('target.value is required.');
      if (isBlank(target.date)) missing.push('target.date is required.');
    }
  }
  const messages = [...missing, ...invalid];
  return messages.length ? { ok: false, messages } : { ok: true, value: merged };
}

/** Values of every field of a section as the interface returns them (unset fields are null, currencies 0). */
export function completeFields(spec: SectionSpec, fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, fieldSpec] of Object.entries(spec.fields)) {
    const v = fields[field];
    if (fieldSpec.kind === 'currency') out[field] = v ?? { value: 0, frequency: fieldSpec.frequency };
    else if (fieldSpec.kind === 'address')
      out[field] = {
        line1: null,
        line2: null,
        city: null,
        state: null,
        zip: null,
        country: null,
        ...(v as Address | undefined),
      };
    else out[field] = v ?? null;
  }
  return out;
}

export function isEmail(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 254 && EMAIL.test(value);
}

export type FileObject = {
  type: 'image' | 'document';
  url: string;
  filetype: string;
  filesize: number;
  filename: string;
};

/** The File object of the 0.0.1 interface; size in KB, rounded up. */
export function fileObject(file: StoredFile, url: string): FileObject {
  return {
    type: file.kind,
    url,
    filetype: file.mime,
    filesize: Math.ceil(file.size / 1024),
    filename: file.name,
  };
}
