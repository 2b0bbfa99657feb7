// The platform's messages (`citizenship.country is invalid.`, version 2's `The client.email field
// must be…`) in the advisor's words: the field's label and what to do about it.

import { SECTION_FORMS } from './build.ts';
import type { FormField } from './form.ts';
import { words } from './labels.ts';
import { MEMBER_FIELDS } from './member-form.ts';

/** Parts of composite values, named where a message names the part rather than a field. */
const PART_LABELS: Readonly<Record<string, string>> = {
  address: 'Address',
  citizenship: 'Citizenship',
  drivers_license: 'Driver’s license',
  'drivers_license.jurisdiction': 'Issuing state and country',
  'target.value': 'Target amount',
  'target.date': 'Target date',
  body: 'This record',
  client: 'Client',
  coclient: 'Co-client',
};

let knownFields: Map<string, FormField> | null = null;

/** Every field a message may name when its form is not known (the sync panel): members first. */
function anyField(key: string): FormField | undefined {
  if (!knownFields) {
    knownFields = new Map();
    for (const f of [...MEMBER_FIELDS, ...SECTION_FORMS.flatMap((s) => s.fields)])
      for (const k of [f.messageName, f.name]) if (!knownFields.has(k)) knownFields.set(k, f);
  }
  return knownFields.get(key);
}

/** The field a message's key names (`current-value`, `target.date`, `address`), and its label. */
function namedField(key: string, fields?: readonly FormField[]): { field?: FormField; label: string } {
  const exact = fields
    ? fields.find((f) => f.messageName === key || f.name === key)
    : PART_LABELS[key]
      ? undefined
      : anyField(key);
  if (exact) return { field: exact, label: exact.label };
  const root = key.split('.')[0] ?? key;
  const whole = fields?.find((f) => f.messageName === root || f.name === root) ?? anyField(root);
  const part = PART_LABELS[key];
  if (part) return { field: whole, label: part };
  // An account's member field: `coclient.email` is the co-client's e-mail.
  const [who, ...rest] = key.split('.');
  if ((who === 'client' || who === 'coclient') && rest.length) {
    const inner = anyField(rest.join('.'));
    const what = (inner?.label ?? words(rest.join(' '))).toLowerCase();
    return { field: inner, label: `${PART_LABELS[who]} ${what}` };
  }
  return { field: whole, label: words(key.replace(/\./g, ' ')) };
}

/** What the advisor does about a missing value. */
function whatIsMissing(field: FormField | undefined, key: string): string {
  if (key === 'target.value') return 'enter the amount to reach';
  if (key === 'target.date') return 'pick the date to reach it by';
  switch (field?.input) {
    case 'select':
    case 'relation':
    case 'country':
    case 'us-state':
      return 'required, choose one from the list';
    case 'date':
      return 'required, pick a date';
    case 'currency':
    case 'money':
    case 'number':
    case 'integer':
    case 'percent':
    case 'year':
      return 'required, enter an amount';
    case 'target':
      return 'required, enter an amount and a date';
    case 'file':
      return 'required, attach a file';
    default:
      return 'required, fill it in';
  }
}

/** The platform's word that an e-mail is another member's (`…needs their own address`, `must differ`). */
const ANOTHER_MEMBERS_EMAIL = /own address|must differ|must be different/i;

/** What the advisor does about a value the platform does not accept. */
function whatIsWrong(field: FormField | undefined, key: string, detail?: string): string {
  if (field?.input === 'email' && detail && ANOTHER_MEMBERS_EMAIL.test(detail))
    return 'the other member of the account has this address: enter this member’s own';
  if (key === 'address' || key.endsWith('jurisdiction'))
    return 'choose the country from the list, and for the US a state from the list';
  switch (field?.input) {
    case 'country':
      return 'choose a country from the list';
    case 'us-state':
      return 'choose a US state from the list';
    case 'date':
      return field.name === 'birth_date' ? 'pick a date in the past' : 'pick a date from the calendar';
    case 'email':
      return 'enter an e-mail address such as name@example.com';
    case 'phone':
      return 'enter the number with its country code, such as +1 555 010 0199';
    case 'integer':
    case 'year':
      return 'enter a whole number';
    case 'number':
    case 'percent':
      return field.name === 'risk_score' ? 'enter a number from 0 to 100' : 'enter a number';
    case 'currency':
    case 'money':
      return 'enter an amount';
    case 'target':
      return 'enter an amount of zero or more and a date';
    case 'select':
      return 'choose one of the values in the list';
    case 'relation':
      return 'choose again from the list (the one chosen may no longer exist)';
    case 'file':
      return 'attach the file again';
    default:
      return 'check the value (it may be too long)';
  }
}

const SERVER_MESSAGE = /^([A-Za-z0-9_.-]+) is (required|invalid)(?::\s*([\s\S]+?))?\.?$/;

/**
 * Version 2's wording (Laravel's): `The client.email field must be a valid email address.`, or
 * without "field" (older versions) when the key cannot be a word: it has a dot or an underscore
 * (`The client.email must be…`; `The one-time payment…` is a sentence).
 */
const V2_FIELD_MESSAGE = /^The (?:([A-Za-z0-9_.-]+) field\b|([a-z0-9]+(?:[._][a-z0-9]+)+)(?= ))\s*([\s\S]*)$/;
/** Version 2's wording of a value outside a list: `The selected type is invalid.` */
const V2_SELECTED = /^The selected ([A-Za-z0-9_.-]+) is invalid\.?$/;
/** Another field named inside a message: a key with a dot or an underscore (`client.email`). */
const KEY_IN_TEXT = /(?<![\w.-])[a-z][a-z0-9]*(?:[._][a-z0-9]+)+(?![\w-])/g;

/** A label inside a sentence: `Client e-mail` → `client e-mail` (an acronym such as `ZIP code` kept). */
const inSentence = (label: string) =>
  /^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;

/**
 * A message of the platform (`citizenship.country is invalid.`) in the advisor's words, with the
 * field's label and what to do (`Citizenship: choose a country from the list.`). What the platform
 * adds after its verdict (`…is invalid: it must come after issue_date.`) is kept, in its words.
 * Version 2's messages name the field by its key (`The client.email field must be a valid email
 * address.`): the label takes its place (`Client e-mail must be a valid email address.`).
 * `fields`: the form the message is about; without it, any form's field of that name is used.
 * Messages of another form are returned as they are.
 */
export function readableMessage(message: string, fields?: readonly FormField[]): string {
  const v2 = V2_FIELD_MESSAGE.exec(message.trim());
  if (v2) {
    const [, named, bare, rest = ''] = v2;
    const key = named ?? bare ?? '';
    const others = rest.replace(KEY_IN_TEXT, (k) => inSentence(namedField(k, fields).label));
    return `${namedField(key, fields).label} ${others}`.trim();
  }
  const selected = V2_SELECTED.exec(message.trim());
  if (selected) {
    const [, key = ''] = selected;
    const { field, label } = namedField(key, fields);
    return `${label}: ${whatIsWrong(field, key)}.`;
  }
  const m = SERVER_MESSAGE.exec(message.trim());
  if (!m) return message;
  const [, key = '', verdict, detail] = m;
  const { field, label } = namedField(key, fields);
  const todo = verdict === 'required' ? whatIsMissing(field, key) : whatIsWrong(field, key, detail);
  // A detail the words already say (another member's e-mail) is not repeated.
  const said = field?.input === 'email' && detail !== undefined && ANOTHER_MEMBERS_EMAIL.test(detail);
  return `${label}: ${todo}${detail && !said ? ` (the platform says: ${detail})` : ''}.`;
}

/** Several messages in the advisor's words, each once. */
export function readableMessages(messages: readonly string[], fields?: readonly FormField[]): string[] {
  return [...new Set(messages.map((m) => readableMessage(m, fields)))];
}
