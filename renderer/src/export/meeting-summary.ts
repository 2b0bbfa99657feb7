// The meeting change summary's rows: every change made on this computer to a household in a span,
// as the advisor reads it (section, item, field, before → after in the workspace's words: stages
// and relations by name, choices by label, amounts with their frequency; when, and whether the
// platform has it), from the change journal and the outbox alone. A change that only rewrote a
// value in another form (a phone's spaces, a date's time of day) reads the same before and after,
// and is no change: it is left out.

import { sectionForm } from '@shared/section-forms/build.ts';
import type { FormField } from '@shared/section-forms/form.ts';
import { fieldLabel } from '@shared/section-forms/labels.ts';
import { MEMBER_FIELDS } from '@shared/section-forms/member-form.ts';
import { readableMessage, readableMessages } from '@shared/section-forms/server-messages.ts';
import { isPlainObject } from '@shared/is-plain-object.ts';
import { journalChanges, type ChangeState, type JournalChange } from '../data/journal.ts';
import { sectionLabel } from '../data/labels.ts';
import type { AdvisorDb } from '../data/db.ts';
import type { Fields } from '../data/model.ts';
import { displayValue } from '../household/values.ts';
import { memberLabel, relationLabel } from '../household/workspace.ts';
import { householdTitle, readHousehold, type HouseholdData } from './summary/household-data.ts';
import {
  accountFieldName,
  accountValue,
  accountWords,
  phoneChanges,
  phoneFieldName,
  phoneMeaning,
  withPhones,
  type AccountWords,
} from './meeting-summary-account.ts';

export interface MeetingChangeRow {
  /** Local time (ms) of the change. */
  at: number;
  section: string;
  item: string;
  field: string;
  before: string;
  after: string;
  state: ChangeState;
  /** The state in words (STATE_WORDS). */
  status: string;
  /** The platform's reason, for a refused change; '' otherwise. */
  reason: string;
}

export interface MeetingSummary {
  household: string;
  from: number;
  to: number;
  rows: MeetingChangeRow[];
  counts: Record<ChangeState, number>;
  firm: HouseholdData['firm'];
}

export const STATE_WORDS: Record<ChangeState, string> = {
  sent: 'On the platform',
  pending: 'Not sent yet',
  refused: 'Refused by the platform',
  conflict: 'Conflict: waiting for your choice',
  withdrawn: 'Not sent: undone or replaced here',
};

const ROLE_WORDS = { client: 'Client', coclient: 'Co-client' } as const;

/** The fields of the form a section's records are entered with. */
function formFields(section: string): readonly FormField[] {
  const [path = section] = section.split(':');
  return path === 'details' || path === 'account' ? MEMBER_FIELDS : (sectionForm(path)?.fields ?? []);
}

/** The form field a journal entry's field is, when a form has it. */
function formField(section: string, field: string): FormField | undefined {
  const name = section === 'account' ? field.split('.')[1] : field;
  return formFields(section).find((f) => f.name === name);
}

/** The platform's reason for a refusal in the advisor's words (the forms' field labels). */
function reasonOf(e: JournalChange): string {
  if (e.state !== 'refused') return '';
  const fields = formFields(e.section);
  if (e.fieldMessages.length) return readableMessages(e.fieldMessages, fields).join(' ');
  return e.reason ? readableMessage(e.reason, fields) : '';
}

function fieldName(section: string, field: string): string {
  const known = formField(section, field);
  if (section === 'account') {
    const own = accountFieldName(field) ?? phoneFieldName(field);
    if (own) return own;
    const [role, name = field] = field.split('.');
    const who = role === 'client' || role === 'coclient' ? `${ROLE_WORDS[role]} ` : '';
    return `${who}${(known?.label ?? fieldLabel(name)).toLowerCase()}`.replace(/^./, (c) => c.toUpperCase());
  }
  return known?.label ?? fieldLabel(field, section.split(':')[0]);
}

function plain(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (isPlainObject(value) && typeof value.filename === 'string') return value.filename;
  return JSON.stringify(value);
}

/**
 * Reads a value as the workspace shows it, from the household as it is now (relations, currency),
 * the account's own fields as its screens name them (`words`). A relation to an item no longer
 * here is named as the journal last named it (`names`: the item's name by its local id).
 */
function valueReader(data: HouseholdData, words: AccountWords, names: ReadonlyMap<string, string>) {
  const named = (r: Parameters<typeof relationLabel>[0]) =>
    r.id && !data.items.some((i) => i.id === r.id) && names.get(r.id)
      ? (names.get(r.id) as string)
      : relationLabel(r, data.account, data.items);
  return (section: string, field: string, value: unknown): string => {
    const own = section === 'account' ? accountValue(words, field, value) : null;
    if (own !== null) return own;
    const known = formField(section, field);
    return known ? displayValue(known, value, named, data.currency) : plain(value);
  };
}
type Reader = ReturnType<typeof valueReader>;

/**
 * Whether a change changed what the value means: not when it reads the same before and after, nor
 * for a phone written with other spaces or dashes (`+1 692 708 8843` and `+16927088843`).
 */
function changedMeaning(read: Reader, e: JournalChange): boolean {
  const field = e.field ?? '';
  const phone =
    (e.section === 'account' && phoneFieldName(field)) || formField(e.section, field)?.input === 'phone';
  if (phone) return phoneMeaning(e.before) !== phoneMeaning(e.after);
  return read(e.section, field, e.before) !== read(e.section, field, e.after);
}

/** A record's fields as one line: `Name: Savings · Current value: $12,000`, empty fields left out. */
function fieldsLine(read: Reader, section: string, fields: unknown): string {
  if (!isPlainObject(fields)) return '';
  return Object.entries(section === 'account' ? withPhones(fields as Fields) : (fields as Fields))
    .map(([k, v]) => [fieldName(section, k), read(section, k, v)] as const)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}: ${v}`)
    .join(' · ');
}

function rowOf(data: HouseholdData, read: Reader, e: JournalChange): MeetingChangeRow {
  const place =
    e.section === 'account' ? { title: 'Household', who: '' } : sectionLabel(e.section, data.account);
  const item =
    e.label ||
    (e.section.startsWith('details:')
      ? memberLabel(data.account, e.section.endsWith('coclient') ? 'coclient' : 'client')
      : place.who);
  const base = { at: e.at, section: place.title, item, state: e.state };
  const status = STATE_WORDS[e.state];
  const reason = reasonOf(e);
  if (e.kind === 'create')
    return {
      ...base,
      field: 'Added',
      before: '',
      after: fieldsLine(read, e.section, e.after),
      status,
      reason,
    };
  if (e.kind === 'delete')
    return {
      ...base,
      field: 'Deleted',
      before: fieldsLine(read, e.section, e.before),
      after: '',
      status,
      reason,
    };
  const field = e.field ?? '';
  return {
    ...base,
    field: fieldName(e.section, field),
    before: read(e.section, field, e.before),
    after: read(e.section, field, e.after),
    status,
    reason,
  };
}

/** Every change made here to the household from `from` to `to` (ms), oldest first, with counts by state. */
export async function meetingSummary(
  db: AdvisorDb,
  accountId: string,
  span: { from: number; to: number },
): Promise<MeetingSummary> {
  const data = await readHousehold(db, accountId, undefined);
  const changes = phoneChanges(await journalChanges(db, accountId, span.from, span.to), data.account);
  const names = new Map(changes.filter((e) => e.label).map((e) => [e.recordId, e.label] as const));
  const read = valueReader(data, await accountWords(db, data.account), names);
  const rows = changes
    .filter((e) => e.kind !== 'update' || changedMeaning(read, e))
    .map((e) => rowOf(data, read, e));
  const counts: Record<ChangeState, number> = { sent: 0, pending: 0, refused: 0, conflict: 0, withdrawn: 0 };
  for (const r of rows) counts[r.state]++;
  return { household: householdTitle(data), from: span.from, to: span.to, rows, counts, firm: data.firm };
}
