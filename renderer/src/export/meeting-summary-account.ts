// How the meeting summary reads a change of the account's own fields, as the advisor knows them:
// the pipeline stage by its name, the type, favorite and archived in words, and a member's phone
// (calling code, number and country, three fields of the account) as the one number it is.

import { isPlainObject } from '@shared/is-plain-object.ts';
import { pipelineStages } from '../data/config.ts';
import type { AdvisorDb } from '../data/db.ts';
import type { AccountRow, Fields } from '../data/model.ts';
import type { JournalChange } from '../data/journal.ts';
import { countryName } from '../household/values.ts';

const ROLE_WORDS: Readonly<Record<string, string>> = { client: 'Client', coclient: 'Co-client' };

/** The account's own fields that are no member's, by the names the screens give them. */
const ACCOUNT_FIELDS: Readonly<Record<string, string>> = {
  'pipeline.id': 'Stage',
  type: 'Type',
  favorited: 'Favorite',
  archived: 'Archived',
};

const TYPE_WORDS: Readonly<Record<string, string>> = { CLIENT: 'Client', PROSPECT: 'Prospect' };

const text = (v: unknown): string =>
  typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';

const PHONE_PART = /^(client|coclient)\.phone\.(code|number|country)$/;

/** What the account's values are read against: the stages' names, by id. */
export interface AccountWords {
  stages: ReadonlyMap<string, string>;
}

/**
 * The stages' names from the user resource's pipelines this computer keeps (the board's source),
 * and the account's own copy of its stage for one the user resource does not list.
 */
export async function accountWords(db: AdvisorDb, account: AccountRow): Promise<AccountWords> {
  const stages = new Map<string, string>();
  for (const row of await pipelineStages(db)) {
    const title = text(row.server.title);
    if (title) stages.set(String(row.id), title);
  }
  const own = account.meta.pipeline;
  if (own && !stages.has(String(own.id)) && own.title) stages.set(String(own.id), own.title);
  return { stages };
}

/** A field of the account that is no member's, by its name ("Stage"); null for a member's field. */
export function accountFieldName(field: string): string | null {
  return ACCOUNT_FIELDS[field] ?? null;
}

/** `client.phone` → "Client mobile phone" (the account keeps the member's mobile). */
export function phoneFieldName(field: string): string | null {
  const m = /^(client|coclient)\.phone$/.exec(field);
  return m ? `${ROLE_WORDS[m[1] as string]} mobile phone` : null;
}

/** An account field's value in words; null for a member's field (read as the member form reads it). */
export function accountValue(words: AccountWords, field: string, value: unknown): string | null {
  if (field === 'pipeline.id') {
    const id = text(value);
    return id === '' ? 'No stage' : (words.stages.get(id) ?? 'A stage this computer does not list');
  }
  if (field === 'type') return TYPE_WORDS[text(value)] ?? text(value);
  if (field === 'favorited' || field === 'archived')
    return value === true || value === 1
      ? 'Yes'
      : value === false || value === 0 || value === null
        ? 'No'
        : text(value);
  if (/^(client|coclient)\.phone$/.test(field)) return phoneText(value);
  return null;
}

interface PhoneParts {
  code: string;
  number: string;
  country: string;
}

const partsOf = (v: unknown): PhoneParts => {
  const o = isPlainObject(v) ? v : {};
  return { code: text(o.code), number: text(o.number), country: text(o.country) };
};

/** "+1 692 708 8843 (Canada)": the number as typed, the country when one is chosen. */
function phoneText(value: unknown): string {
  const p = partsOf(value);
  const number = [p.code, p.number].filter(Boolean).join(' ');
  if (!number) return '';
  return p.country ? `${number} (${countryName(p.country)})` : number;
}

/** A phone's meaning: its digits after the `+`, and its country; spaces, dashes and dots are formatting. */
export function phoneMeaning(value: unknown): string {
  if (isPlainObject(value)) {
    const p = partsOf(value);
    return `${(p.code + p.number).replace(/[^\d]/g, '')}|${p.country.toUpperCase()}`;
  }
  return text(value).replace(/[^\d]/g, '');
}

/**
 * The account's fields with a member's three phone fields as one (`client.phone`, an object of
 * code, number and country), for a record's fields listed on one line.
 */
export function withPhones(fields: Fields): Fields {
  const out: Fields = {};
  for (const [k, v] of Object.entries(fields)) {
    const m = PHONE_PART.exec(k);
    if (!m) {
      out[k] = v;
      continue;
    }
    const key = `${m[1]}.phone`;
    out[key] = { ...(isPlainObject(out[key]) ? out[key] : {}), [m[2] as string]: v };
  }
  return out;
}

/**
 * The journal's entries with the parts of a member's phone changed at once read as one change of
 * that phone (`client.phone`); a part the change left alone is read from the account as it is now.
 */
export function phoneChanges(entries: readonly JournalChange[], account: AccountRow): JournalChange[] {
  const out: JournalChange[] = [];
  const groups = new Map<string, JournalChange>();
  for (const e of entries) {
    const m = e.section === 'account' && e.kind === 'update' ? PHONE_PART.exec(e.field ?? '') : null;
    if (!m) {
      out.push(e);
      continue;
    }
    const [, role, part] = m as unknown as [string, string, keyof PhoneParts];
    const id = `${e.at}|${e.recordId}|${e.opId ?? ''}|${role}`;
    let group = groups.get(id);
    if (!group) {
      const now = partsOf({
        code: account.fields[`${role}.phone.code`],
        number: account.fields[`${role}.phone.number`],
        country: account.fields[`${role}.phone.country`],
      });
      group = { ...e, field: `${role}.phone`, before: { ...now }, after: { ...now } };
      groups.set(id, group);
      out.push(group);
    }
    (group.before as PhoneParts)[part] = text(e.before);
    (group.after as PhoneParts)[part] = text(e.after);
  }
  return out;
}
