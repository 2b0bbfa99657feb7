// What an advisor types, checked where it is typed, in the same words in every form (a member's
// details, a section's item or record, the account dialog): types, ranges, lengths, e-mail, phone
// with its country code, plausible dates, an end not before its start, no negative amount where
// it means nothing. Errors keep a value from being saved (and queued); warnings only say what
// looks odd. The words are the advisor's (`Risk score: enter a number from 0 to 100.`), the same
// ones shared/section-forms/server-messages.ts `readableMessage` gives the platform's refusals.
//
// Sources: the 0.0.1 document gives the types (integer, number, date, e-mail "valid address",
// phones "including country code") and the v2 document the account's fields; neither gives
// lengths or ranges, so those are the limits the platform is known to enforce (the sandbox's,
// README "Member details"; Laravel's 255 for v2 names and e-mails). The rules are kept here, keyed
// by form and field, beside the field descriptors of shared/section-forms/ rather than in them.

import { isEmail } from './account-rules.ts';
import type { FormField } from './section-forms/form.ts';

/** Messages by field name: what must change before saving, and what only looks odd. */
export interface InputVerdict {
  errors: Record<string, string[]>;
  warnings: Record<string, string[]>;
}

/** The rules of one field beyond its kind's. */
interface FieldRule {
  /** Longest text. */
  maxLength?: number;
  /** Range of a number (counts, scores, rates). */
  min?: number;
  max?: number;
  /** An amount below zero means something here (a business loss). */
  negative?: boolean;
  /** A date that must not be in the future (refused), or looks odd there (warned). */
  past?: 'refuse' | 'warn';
  /** A date that looks odd in the past (a goal's target date). */
  future?: 'warn';
  /** The field that must come first (a start date), and whether the same day is refused too. */
  after?: { field: string; strictly?: boolean };
}

/** Forms' scopes: a section's path (`liabilities`), or `details` for a member's full details. */
const RULES: Readonly<Record<string, FieldRule>> = {
  'details.first_name': { maxLength: 255 },
  'details.last_name': { maxLength: 255 },
  'details.middle_initial': { maxLength: 5 },
  'details.comments': { maxLength: 5000 },
  'details.drivers_license.number': { maxLength: 40 },
  'details.previous_marriages': { min: 0, max: 20 },
  'details.risk_score': { min: 0, max: 100 },
  // The platform refuses a birth date after today.
  'details.birth_date': { past: 'refuse' },
  'details.drivers_license.issue_date': { past: 'warn' },
  'details.drivers_license.expire_date': { after: { field: 'drivers_license.issue_date', strictly: true } },
  'family.birth_date': { past: 'warn' },
  'family.college_end': { after: { field: 'college_start' } },
  'liabilities.end_date': { after: { field: 'start_date' } },
  'employment.duration': { min: 0, max: 80 },
  'goals.target': { future: 'warn' },
  // A business or other income may be a loss.
  'income.self_employment': { negative: true },
  'income.other': { negative: true },
};

/** Longest texts where no rule says: the platform's limit for section texts and address parts. */
const TEXT_LIMIT = 2000;
const ADDRESS_PART_LIMIT = 200;
/** Percentages are rates from 0 to 100. */
const PERCENT = { min: 0, max: 100 };
/** Older than this looks like a typo for a date in an advisor's files. */
const OLDEST_YEARS = 120;

// ---- the words ----------------------------------------------------------------------------------

/**
 * How to correct a value that cannot be saved, in the advisor's words (`Email: enter an e-mail
 * address such as name@example.com.`); the platform's refusals read the same
 * (section-forms/server-messages.ts).
 */
export const HOW_TO_FIX = {
  email: 'enter an e-mail address such as name@example.com',
  phone: 'enter the number with its country code, such as +1 555 010 0199',
  wholeNumber: 'enter a whole number',
  range: (min: number, max: number, whole: boolean) =>
    `enter a ${whole ? 'whole number' : 'number'} from ${min} to ${max}`,
  zeroOrMore: 'enter an amount of zero or more',
  pastDate: 'pick a date in the past',
  length: (max: number, now: number) =>
    `shorten it to ${max.toLocaleString('en-US')} characters (it has ${now.toLocaleString('en-US')})`,
  after: (other: string, strictly: boolean) => `pick a date ${strictly ? 'after' : 'on or after'} “${other}”`,
  yearAfter: (other: string) => `enter a year no earlier than “${other}”`,
};

export const WARN = {
  old: `is more than ${OLDEST_YEARS} years ago: check the year`,
  future: 'is in the future: check the date',
  past: 'is already past: check the date',
  year: 'looks unlikely: check the year',
};

const say = (field: FormField, words: string) => `${field.label}: ${words}.`;

// ---- the checks ---------------------------------------------------------------------------------

/** A phone number with its country code: `+`, the code and the number, separators allowed. */
export function isPhoneWithCountryCode(text: string): boolean {
  return /^\+\d{5,18}$/.test(text.trim().replace(/[\s\-().]/g, ''));
}

const iso = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const dayOf = (v: unknown): string | null =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : null;

function yearsBefore(today: Date, years: number): string {
  return iso(new Date(today.getFullYear() - years, today.getMonth(), today.getDate()));
}

class Verdict implements InputVerdict {
  errors: Record<string, string[]> = {};
  warnings: Record<string, string[]> = {};
  error(name: string, message: string) {
    (this.errors[name] ??= []).push(message);
  }
  warn(name: string, message: string) {
    (this.warnings[name] ??= []).push(message);
  }
}

function checkText(out: Verdict, field: FormField, rule: FieldRule, v: unknown, scope: string) {
  if (typeof v !== 'string') return;
  const limit =
    rule.maxLength ??
    (scope === 'details' && field.name.startsWith('address.') ? ADDRESS_PART_LIMIT : TEXT_LIMIT);
  if (v.length > limit) out.error(field.name, say(field, HOW_TO_FIX.length(limit, v.length)));
  else if (field.input === 'email' && !isEmail(v.trim())) out.error(field.name, say(field, HOW_TO_FIX.email));
  else if (field.input === 'phone' && !isPhoneWithCountryCode(v))
    out.error(field.name, say(field, HOW_TO_FIX.phone));
}

function checkNumber(out: Verdict, field: FormField, rule: FieldRule, v: unknown, today: Date) {
  if (typeof v !== 'number') return;
  const whole = field.input === 'integer' || field.input === 'year';
  if (whole && !Number.isInteger(v)) return out.error(field.name, say(field, HOW_TO_FIX.wholeNumber));
  if (field.input === 'year') {
    const year = today.getFullYear();
    if (v < year - OLDEST_YEARS || v > year + 100) out.warn(field.name, say(field, `${v} ${WARN.year}`));
    return;
  }
  const range = field.input === 'percent' ? { ...PERCENT, ...rule } : rule;
  const min = range.min ?? (whole ? 0 : undefined);
  const max = range.max;
  if (min !== undefined && max !== undefined && (v < min || v > max))
    out.error(field.name, say(field, HOW_TO_FIX.range(min, max, whole)));
  else if (min !== undefined && v < min) out.error(field.name, say(field, HOW_TO_FIX.zeroOrMore));
}

function checkDate(
  out: Verdict,
  field: FormField,
  rule: FieldRule,
  day: string | null,
  today: Date,
  label = field.label,
) {
  if (!day) return;
  const now = iso(today);
  if (day > now && rule.past === 'refuse') return out.error(field.name, say(field, HOW_TO_FIX.pastDate));
  if (day > now && rule.past === 'warn') out.warn(field.name, `${label} ${WARN.future}.`);
  if (day < now && rule.future === 'warn') out.warn(field.name, `${label} ${WARN.past}.`);
  if (day < yearsBefore(today, OLDEST_YEARS)) out.warn(field.name, `${label} ${WARN.old}.`);
}

/** An amount, alone or in a currency or target value. */
function checkAmount(out: Verdict, field: FormField, rule: FieldRule, amount: unknown) {
  if (typeof amount === 'number' && amount < 0 && !rule.negative)
    out.error(field.name, say(field, HOW_TO_FIX.zeroOrMore));
}

function checkOrder(
  out: Verdict,
  field: FormField,
  rule: FieldRule,
  values: Readonly<Record<string, unknown>>,
  fields: readonly FormField[],
) {
  if (!rule.after) return;
  const first = fields.find((f) => f.name === rule.after?.field);
  const a = values[rule.after.field];
  const b = values[field.name];
  if (!first || a === null || a === undefined || b === null || b === undefined) return;
  if (field.input === 'year') {
    if (typeof a === 'number' && typeof b === 'number' && b < a)
      out.error(field.name, say(field, HOW_TO_FIX.yearAfter(first.label)));
    return;
  }
  const [start, end] = [dayOf(a), dayOf(b)];
  if (!start || !end) return;
  if (end < start || (rule.after.strictly && end === start))
    out.error(field.name, say(field, HOW_TO_FIX.after(first.label, Boolean(rule.after.strictly))));
}

/**
 * Checks the values of a form (in their stored form: a currency `{value, frequency}`, a date
 * `YYYY-MM-DD`, a target `{value, date}`). `scope`: the section's path, or `details` for a
 * member's details. Blank values are left to the required-field check. `changed`: only the
 * fields the advisor changed are checked (a value the platform holds is not the advisor's to fix
 * before saving another field), and a field that must come after a changed one.
 */
export function checkInput(
  scope: string,
  fields: readonly FormField[],
  values: Readonly<Record<string, unknown>>,
  { today = new Date(), changed = () => true }: { today?: Date; changed?: (name: string) => boolean } = {},
): InputVerdict {
  const out = new Verdict();
  for (const field of fields) {
    const rule = RULES[`${scope}.${field.name}`] ?? {};
    if (!changed(field.name) && !(rule.after && changed(rule.after.field))) continue;
    const v = values[field.name];
    if (v === null || v === undefined) continue;
    switch (field.input) {
      case 'text':
      case 'textarea':
      case 'email':
      case 'phone':
      case 'us-state':
        checkText(out, field, rule, v, scope);
        break;
      case 'integer':
      case 'year':
      case 'number':
      case 'percent':
        checkNumber(out, field, rule, v, today);
        break;
      case 'date':
        checkDate(out, field, rule, dayOf(v), today);
        break;
      case 'currency':
        checkAmount(out, field, rule, (v as { value?: unknown }).value);
        break;
      case 'target': {
        const t = v as { value?: unknown; date?: unknown };
        checkAmount(out, field, rule, t.value);
        checkDate(out, field, rule, dayOf(t.date), today, `${field.label} date`);
        break;
      }
      case 'address':
        for (const part of Object.values(v as Record<string, unknown>))
          if (typeof part === 'string' && part.length > ADDRESS_PART_LIMIT) {
            out.error(field.name, say(field, HOW_TO_FIX.length(ADDRESS_PART_LIMIT, part.length)));
            break;
          }
        break;
    }
    if (!out.errors[field.name]) checkOrder(out, field, rule, values, fields);
  }
  return out;
}

/** Two sets of messages by field in one, each field's first set first. */
export function mergeMessages(
  ...sets: readonly Readonly<Record<string, readonly string[]>>[]
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const set of sets) for (const [name, list] of Object.entries(set)) (out[name] ??= []).push(...list);
  return out;
}

// ---- the account dialog ---------------------------------------------------------------------------

/** The words for the split phone of the account dialog (country, calling code, number). */
const PHONE_PART_HOW_TO_FIX: Readonly<Record<string, string>> = {
  'phone.code': 'choose the country, or type its calling code such as +1',
  'phone.number': 'enter the number’s 4 to 15 digits (its country code goes in the box before it)',
  'phone.country': 'choose a country from the list',
};

/**
 * A message of the version 2 account rules (shared/account-rules.ts, in the platform's wording,
 * `The client.email field must be a valid email address.`) in the advisor's words, the same as
 * the other forms': `Email: enter an e-mail address such as name@example.com.` `label`: the
 * field as the form names it. A message not recognized is returned as it is.
 */
export function accountMessage(key: string, message: string, label: string): string {
  const part = key.replace(/^(client|coclient)\./, '');
  if (key === 'type') return `${label}: choose Prospect or Client.`;
  if (/ is required/.test(message)) return `${label}: required, fill it in.`;
  const longest = / must not be greater than (\d+) characters/.exec(message);
  if (longest) return `${label}: shorten it to ${Number(longest[1]).toLocaleString('en-US')} characters.`;
  if (/must be a valid email/.test(message)) return `${label}: ${HOW_TO_FIX.email}.`;
  if (/must be different/.test(message)) return `${label}: enter an e-mail address other than the client’s.`;
  const phone = PHONE_PART_HOW_TO_FIX[part];
  if (phone && /format is invalid|ISO 3166/.test(message)) return `${label}: ${phone}.`;
  return message;
}

/** A phone number needs its country code: the account dialog's number without a calling code. */
export function checkAccountPhones(
  fields: Readonly<Record<string, unknown>>,
  label: (key: string) => string,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';
  for (const role of ['client', 'coclient'])
    if (!blank(fields[`${role}.phone.number`]) && blank(fields[`${role}.phone.code`]))
      out[`${role}.phone.code`] = [`${label(`${role}.phone.code`)}: ${PHONE_PART_HOW_TO_FIX['phone.code']}.`];
  return out;
}
