// How the workspace's forms hold values: a record's stored fields become a draft the inputs edit
// (empty texts, currencies with their frequency, dates without a time), and a draft becomes the
// patch of the fields the user really changed, so that opening and saving a form unchanged queues
// nothing, and a date the server keeps as `1980-03-14 00:00:00` is not "changed" into `1980-03-14`.

import { countries } from '@shared/account-rules.ts';
import { ChangeRefused } from '../data/changes/index.ts';
import { StorageError } from '../data/storage.ts';
import type { FormField } from '@shared/section-forms/form.ts';
import { fieldLabel, valueLabel } from '@shared/section-forms/labels.ts';
import type { FlowLine, StoredFrequency } from '@shared/finance.ts';
import { isPlainObject } from '@shared/is-plain-object.ts';
import { platformError, platformPlain } from '@shared/platform-text.ts';
import { phoneText } from './phone.ts';

export type Fields = Record<string, unknown>;

export interface CurrencyDraft {
  value: number | null;
  /** One of the document's, or one the platform allows that the app does not know. */
  frequency: StoredFrequency;
}

export interface RelationValue {
  type: string;
  id: string | null;
}

export interface TargetDraft {
  value: number | null;
  date: string | null;
}

export const ADDRESS_PARTS = ['line1', 'line2', 'city', 'state', 'zip', 'country'] as const;
export type AddressDraft = Record<(typeof ADDRESS_PARTS)[number], string>;

const finite = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const textOf = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** `1980-03-14`, from `1980-03-14` or `1980-03-14 00:00:00`; null when it is no date. */
export function datePart(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(v.trim());
  return m ? (m[1] as string) : null;
}

export function relationOf(v: unknown): RelationValue | null {
  if (typeof v === 'string') return v === '' ? null : { type: v, id: null };
  if (!isPlainObject(v) || typeof v.type !== 'string' || v.type === '') return null;
  return { type: v.type, id: typeof v.id === 'string' && v.id !== '' ? v.id : null };
}

/** The key a relation is known by in pickers: `client:`, `FamilyMember:<local id>`. */
export const relationKey = (r: RelationValue | null): string => (r ? `${r.type}:${r.id ?? ''}` : '');

/** The value an input edits, from the stored value. */
export function toDraft(field: FormField, stored: unknown): unknown {
  switch (field.input) {
    case 'currency': {
      const fallback = field.frequency ?? 'one-time';
      const o = isPlainObject(stored) ? stored : {};
      const value = typeof stored === 'number' ? finite(stored) : finite(o.value);
      // No amount yet (the platform answers an unset one as 0, one-time): the frequency is the
      // one an advisor means for this field, so that Social Security typed in counts by the month.
      if (value === null || value === 0) return { value, frequency: field.usualFrequency ?? fallback };
      // A frequency the app does not know (the platform allows it) is kept as it is, never replaced.
      const frequency = typeof o.frequency === 'string' && o.frequency !== '' ? o.frequency : fallback;
      return { value, frequency } satisfies CurrencyDraft;
    }
    case 'relation':
      return relationOf(stored);
    case 'target': {
      const o = isPlainObject(stored) ? stored : {};
      return { value: finite(o.value), date: datePart(o.date) } satisfies TargetDraft;
    }
    case 'address': {
      const o = isPlainObject(stored) ? stored : {};
      const draft: AddressDraft = { line1: '', line2: '', city: '', state: '', zip: '', country: '' };
      for (const p of ADDRESS_PARTS) draft[p] = textOf(o[p]);
      return draft;
    }
    case 'date':
      return datePart(stored);
    case 'boolean':
      return stored === true;
    case 'integer':
    case 'year':
    case 'number':
    case 'percent':
    case 'money':
      return finite(stored);
    case 'file':
      return stored ?? null;
    default:
      return textOf(stored);
  }
}

/** The value to store, from a draft: empty texts and amounts become null. */
export function fromDraft(field: FormField, draft: unknown): unknown {
  switch (field.input) {
    case 'currency': {
      const c = draft as CurrencyDraft | null;
      if (!c || c.value === null) return null;
      // A balance has no frequency: one stored all the same is not written back.
      return { value: c.value, frequency: field.balance ? 'one-time' : c.frequency };
    }
    case 'relation':
      return relationOf(draft);
    case 'target': {
      const t = draft as TargetDraft | null;
      return t && (t.value !== null || t.date) ? { value: t.value, date: t.date || null } : null;
    }
    case 'address': {
      const a = (draft ?? {}) as Partial<AddressDraft>;
      const parts = Object.fromEntries(ADDRESS_PARTS.map((p) => [p, a[p]?.trim() || null]));
      return Object.values(parts).some((v) => v !== null) ? parts : null;
    }
    case 'date':
      return datePart(draft);
    case 'boolean':
      return draft === true;
    case 'integer':
    case 'year':
    case 'number':
    case 'percent':
      return finite(draft);
    case 'money': {
      // Declared an integer: whole units of money.
      const n = finite(draft);
      return n === null ? null : Math.round(n);
    }
    case 'file':
      return draft ?? null;
    default: {
      const t = typeof draft === 'string' ? draft.trim() : '';
      return t === '' ? null : t;
    }
  }
}

/** A stored value in one comparable form, so that equal meanings compare equal. */
function comparable(field: FormField, v: unknown): unknown {
  return fromDraft(field, toDraft(field, v));
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

export function draftOf(fields: readonly FormField[], stored: Readonly<Fields>): Fields {
  return Object.fromEntries(fields.map((f) => [f.name, toDraft(f, stored[f.name])]));
}

/** The stored form of every field of a draft (for validation and for a create). */
export function valuesOf(fields: readonly FormField[], draft: Readonly<Fields>): Fields {
  return Object.fromEntries(fields.map((f) => [f.name, fromDraft(f, draft[f.name])]));
}

/** Only the fields whose meaning differs from what is stored; files are changed by uploads, never here. */
export function patchOf(
  fields: readonly FormField[],
  stored: Readonly<Fields>,
  draft: Readonly<Fields>,
): Fields {
  const patch: Fields = {};
  for (const f of fields) {
    if (f.input === 'file') continue;
    const next = fromDraft(f, draft[f.name]);
    if (!same(comparable(f, stored[f.name]), next)) patch[f.name] = next;
  }
  return patch;
}

/** The fields of a new item worth sending: what was filled in. */
export function createdFields(fields: readonly FormField[], draft: Readonly<Fields>): Fields {
  const out: Fields = {};
  for (const f of fields) {
    if (f.input === 'file') continue;
    const v = fromDraft(f, draft[f.name]);
    if (v !== null && !(f.input === 'boolean' && v === false)) out[f.name] = v;
  }
  return out;
}

/** A value of unknown shape as text (conflict views of fields without a schema). */
export function plainText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A form's fields in titled groups. */
export interface FieldGroup {
  title?: string;
  fields: readonly FormField[];
}

// ---- display ------------------------------------------------------------------------------------

const FREQUENCY_SUFFIX: Readonly<Record<string, string>> = {
  monthly: ' /mo',
  yearly: ' /yr',
  'one-time': ' one-time',
};

/**
 * How often an amount comes, after it: ` /mo`, ` /yr`, and ` one-time` where the field usually
 * recurs (not for a balance); a frequency the app does not know by its raw value.
 */
export function frequencySuffix(field: FormField, frequency: string): string {
  if (frequency === 'one-time' && (field.usualFrequency ?? 'one-time') === 'one-time') return '';
  return FREQUENCY_SUFFIX[frequency] ?? (frequency ? ` ${frequency}` : '');
}

/**
 * A frequency stored on a balance (which has none), said as stored rather than as a flow:
 * ` (stored as monthly)`; nothing for one time.
 */
export function balanceFrequencyNote(frequency: string): string {
  return frequency && frequency !== 'one-time' ? ` (stored as ${valueLabel(frequency).toLowerCase()})` : '';
}

/** A plain number with its unit (`12 years`, `$5,000 /yr`, `4.5%`). */
function withUnit(field: FormField, n: number, currency: string): string {
  switch (field.input === 'percent' ? '%' : field.unit) {
    case '%':
      return `${n}%`;
    case 'years':
      return `${n} ${n === 1 ? 'year' : 'years'}`;
    case 'per year':
      return `${money(n, currency)} /yr`;
    default:
      return field.input === 'money' ? money(n, currency) : String(n);
  }
}

export function money(value: number, currency = 'USD', cents = false): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    maximumFractionDigits: cents ? 2 : 0,
    minimumFractionDigits: cents ? 2 : 0,
  }).format(value);
}

/**
 * An amount of the cash flow left out of the monthly figures (one-time, or at a frequency the app
 * cannot convert) in words: what, and where it is ("Dividends (income of Ann Tester)", "Real
 * estate tax (taxes)"). `memberNames`: the members' names by role.
 */
export function flowLineLabel(line: FlowLine, memberNames: Readonly<Record<string, string>>): string {
  const [path, member] = line.source.split(':');
  const what = line.group === 'variable' ? valueLabel(line.name) : fieldLabel(line.name, path);
  const where =
    path === 'income'
      ? `income${member ? ` of ${memberNames[member] ?? member}` : ''}`
      : path === 'expenses-tax'
        ? 'taxes'
        : path === 'expenses-fixed'
          ? 'fixed expenses'
          : 'variable expenses';
  return `${what} (${where})`;
}

/** An amount with its frequency as stored, for one the app cannot convert: `$3,000 quarterly`. */
export const amountAsStored = (line: Pick<FlowLine, 'money'>, currency = 'USD'): string =>
  `${money(line.money.value, currency, !Number.isInteger(line.money.value))} ${line.money.frequency}`;

/**
 * A chart's label, on two lines when long ("Retirement &" / "college"): a bar chart's axis may
 * take only part of the chart's width, and a label wider than that would be cut at the edge.
 */
export function axisLabel(label: string, max = 14): string | string[] {
  if (label.length <= max) return label;
  const cut = label.lastIndexOf(' ', Math.ceil(label.length / 2) + 2);
  return cut > 0 ? [label.slice(0, cut), label.slice(cut + 1)] : label;
}

/** A stored value as a short text for tables and conflict views. */
export function displayValue(
  field: FormField,
  stored: unknown,
  relationLabel: (r: RelationValue) => string,
  currency = 'USD',
): string {
  const v = toDraft(field, stored);
  switch (field.input) {
    case 'currency': {
      const c = v as CurrencyDraft;
      if (c.value === null) return '';
      const amount = money(c.value, currency, !Number.isInteger(c.value));
      if (field.balance) return `${amount}${balanceFrequencyNote(c.frequency)}`;
      return `${amount}${frequencySuffix(field, c.frequency)}`;
    }
    case 'relation':
      return v ? relationLabel(v as RelationValue) : '';
    case 'target': {
      const t = v as TargetDraft;
      return [t.value === null ? '' : money(t.value, currency), t.date ? `by ${formatDate(t.date)}` : '']
        .filter(Boolean)
        .join(' ');
    }
    case 'address':
      return Object.values(v as AddressDraft)
        .filter(Boolean)
        .join(', ');
    case 'select':
      return field.options?.find((o) => o.value === v)?.label ?? textOf(v);
    case 'boolean':
      return stored === true ? 'Yes' : stored === false ? 'No' : '';
    case 'percent':
    case 'money':
    case 'integer':
      return v === null ? '' : withUnit(field, v as number, currency);
    case 'date':
      return formatDate(v);
    case 'country':
      return countryName(v);
    case 'file': {
      const file = isPlainObject(stored) ? stored : null;
      return file ? textOf(file.filename) || 'File' : '';
    }
    case 'phone':
      return phoneText(v);
    default:
      return v === null ? '' : textOf(v);
  }
}

/**
 * The server's messages (keyed as it names fields: `drivers_license.expire_date`, `address`) on
 * the fields of a form with dotted names; what names no field is kept under `''`.
 */
export function messagesOnFields(
  fields: readonly FormField[],
  messages: Readonly<Record<string, readonly string[]>>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, list] of Object.entries(messages)) {
    const field =
      fields.find((f) => f.messageName === key || f.name === key) ??
      fields.find((f) => f.name.startsWith(`${key}.`) || key.startsWith(`${f.name}.`));
    (out[field?.name ?? ''] ??= []).push(...list);
  }
  return out;
}

// ---- dates in the user's words ------------------------------------------------------------------

/**
 * The user's locale (the system's, in the desktop app). Read through `globalThis` so that Node
 * code typechecked without the DOM (the meeting summary's sandbox test) can import it.
 */
export const userLocale = (): string | undefined =>
  (globalThis as { navigator?: { language?: string } }).navigator?.language || undefined;

/** `1980-03-14` as a local date (a UTC midnight would show the day before west of Greenwich). */
export function isoToDate(v: unknown): Date | null {
  const m = typeof v === 'string' ? /^(\d{4})-(\d{2})-(\d{2})/.exec(v) : null;
  return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
}

/** A picked date in the interface's format, `1980-03-14`. */
export function dateToIso(v: unknown): string | null {
  if (!(v instanceof Date) || Number.isNaN(v.getTime())) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())}`;
}

/** A stored date as the user reads dates (`Mar 14, 1980`, `14 mars 1980`); '' when it is none. */
export function formatDate(v: unknown, locale = userLocale()): string {
  const d = isoToDate(v);
  return d ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(d) : '';
}

/** How dates are typed: the user's numeric date (`05/14/2016`, `14.05.2016`). */
export const NUMERIC_DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };

/**
 * The date picker's pattern for the user's numeric date, from Intl (`mm/dd/yy` in the US — the
 * picker's `yy` is the four-digit year), and a placeholder that shows it (`MM/DD/YYYY`).
 */
export function datePattern(locale = userLocale()): { format: string; placeholder: string } {
  const parts = new Intl.DateTimeFormat(locale, NUMERIC_DATE).formatToParts(new Date(2016, 4, 14));
  let format = '';
  let placeholder = '';
  for (const p of parts) {
    if (p.type === 'year') [format, placeholder] = [`${format}yy`, `${placeholder}YYYY`];
    else if (p.type === 'month') [format, placeholder] = [`${format}mm`, `${placeholder}MM`];
    else if (p.type === 'day') [format, placeholder] = [`${format}dd`, `${placeholder}DD`];
    else {
      // Literal text is quoted when it holds letters the picker would read as a pattern.
      format += /[a-z']/i.test(p.value) ? `'${p.value.replace(/'/g, "''")}'` : p.value;
      placeholder += p.value;
    }
  }
  return { format, placeholder };
}

// ---- countries and US states --------------------------------------------------------------------

/** Every country by its name in the user's language, storing its ISO code. */
let countryList: { value: string; label: string }[] | null = null;
export function countryOptions(): { value: string; label: string }[] {
  if (countryList) return countryList;
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(userLocale() ? [userLocale() as string, 'en'] : ['en'], { type: 'region' });
  } catch {
    names = new Intl.DisplayNames(['en'], { type: 'region' });
  }
  countryList = countries()
    .map((c) => ({ value: c.code, label: names?.of(c.code) ?? c.name }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return countryList;
}

/** Whether a country value is the United States (where a state is chosen from the US states). */
export const isUs = (country: unknown): boolean =>
  typeof country === 'string' && country.toUpperCase() === 'US';

export function countryName(code: unknown): string {
  if (typeof code !== 'string' || code === '') return '';
  return countryOptions().find((c) => c.value === code.toUpperCase())?.label ?? code;
}

/** The US states, the district and the territories (us-states.ts). */
export { US_STATE_OPTIONS } from './us-states.ts';

// ---- saving ---------------------------------------------------------------------------------------

/**
 * Why a save failed, for the form: a change the change module refuses in its words, a storage
 * problem (a full disk …) in plain words with the way out, anything else as it is. The form keeps
 * what the user typed either way. A message may quote the platform's names or values: hidden
 * characters are spelt out (`[U+202E]`).
 */
export function saveFailure(error: unknown, what = 'Not saved'): string {
  if (error instanceof ChangeRefused) return platformPlain(error.message);
  if (error instanceof StorageError) return `${error.problem.message} ${error.problem.whatToDo}`;
  return `${what}: ${platformError(error)}`;
}
