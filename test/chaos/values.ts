// Random field values for the chaos scenario: what an advisor types into the forms. Section items
// follow their descriptors in shared/sections.ts (required fields, enums, currencies, relations
// the account can hold); member details and accounts follow the 0.0.1 and version 2 documents.
// Values are valid unless asked otherwise: an invalid one must be refused by the platform (422).
//
// Every record made here carries a MARKER, a value unique in the run in one field of the record
// (its name, an email …), so that the checker can count the server's copies of a local create.

import type { FileInput } from '../../renderer/src/data/files.ts';
import type { Fields } from '../../renderer/src/data/model.ts';
import type { FieldSpec, SectionDescriptor } from '@shared/sections.ts';
import type { Random } from '../platform/random.ts';

export type Marker = string | number;

/** A relation in local form: people by type, items by their LOCAL id. */
export interface LocalRelation {
  type: string;
  id: string | null;
}

/** What values depend on besides chance: the run's markers, the account's relations, stored files. */
export interface ValueSource {
  random: Random;
  /** A text unique in the run. */
  marker(): string;
  /** A number unique in the run (for the one section whose items hold no text). */
  markerNumber(): number;
  /** Relations the record's account can hold now; `people` leaves out items other than persons. */
  relations(people: boolean): LocalRelation[];
  /** The address of a file stored on the platform (documents point at one). */
  fileUrl(): string;
}

/** The field of each collection that carries the marker of an item made here. */
export const MARKER_FIELD: Readonly<Record<string, string>> = {
  annuities: 'name',
  assets: 'name',
  cash: 'name',
  contacts: 'last_name',
  // Its only fields are the file and the relation; a `Note` relation keeps any id as it is.
  documents: 'relation',
  employment: 'employer',
  // A value and a type: the value, a number unique in the run, is the marker.
  'expenses-variable': 'value',
  family: 'last_name',
  goals: 'name',
  insurance: 'name',
  liabilities: 'name',
  plans: 'name',
  taxable: 'name',
};

/** Relation fields that name a person (the others, owners, take any item of the account). */
const PERSON_FIELDS = new Set(['beneficiary', 'insured', 'primary_beneficiary', 'secondary_beneficiary']);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The marker a section item carries, local or server form alike; null when it carries none. */
export function markerOf(section: string, fields: Fields): Marker | null {
  const field = MARKER_FIELD[section.split(':')[0] as string];
  const value = field === undefined ? undefined : fields[field];
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (isObject(value) && (typeof value.id === 'string' || typeof value.value === 'number'))
    return (value.id ?? value.value) as Marker;
  return null;
}

const WORDS = ['Harbor', 'Maple', 'Summit', 'Cedar', 'North', 'Willow', 'Granite', 'Bay', 'Oak', 'River'];
const FIRST_NAMES = ['Ann', 'Bo', 'Cleo', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jun'];
const US_STATES = ['CA', 'NY', 'TX', 'FL', 'WA', 'IL', 'MA', 'CO'];
const FREQUENCIES = ['one-time', 'monthly', 'yearly'];

const pad = (n: number) => String(n).padStart(2, '0');
const date = (r: Random, from: number, to: number) =>
  `${r.int(from, to)}-${pad(r.int(1, 12))}-${pad(r.int(1, 28))}`;
const amount = (r: Random) => r.int(0, 2_000_000) / 100;
const word = (r: Random) => `${r.pick(WORDS)} ${r.pick(WORDS)}`;
const phone = (r: Random) => `+1555${r.digits(7)}`;

/** A valid value of one field of a section, by its kind. */
function validValue(src: ValueSource, field: string, spec: FieldSpec): unknown {
  const r = src.random;
  switch (spec.kind) {
    case 'string':
      if (field === 'email') return `${src.marker()}@example.com`;
      if (field === 'phone') return phone(r);
      if (field.endsWith('first_name')) return r.pick(FIRST_NAMES);
      return word(r);
    case 'integer':
      return field.startsWith('college') ? r.int(2026, 2045) : r.int(0, 40_000);
    case 'float':
      return r.int(0, 1_000) / 100;
    case 'boolean':
      return r.chance(0.5);
    case 'date':
      return field === 'birth_date' ? date(r, 1990, 2020) : date(r, 2000, 2050);
    case 'enum':
      return r.pick(spec.values);
    case 'currency':
      // A plain number is the value at the field's default frequency (the documents' examples).
      return r.chance(0.5) ? amount(r) : { value: amount(r), frequency: r.pick(FREQUENCIES) };
    case 'relation': {
      const candidates = src.relations(PERSON_FIELDS.has(field));
      return candidates.length ? r.pick(candidates) : { type: 'client', id: null };
    }
    case 'address':
      return {
        line1: `${r.int(1, 999)} ${r.pick(WORDS)} St`,
        city: r.pick(WORDS),
        state: r.pick(US_STATES),
        zip: r.digits(5),
        country: 'US',
      };
    case 'file':
      return { url: src.fileUrl() };
    case 'target':
      return { value: r.int(1_000, 500_000), date: date(r, 2026, 2060) };
  }
}

/** A value of the field's kind that the platform refuses. */
function invalidValue(spec: FieldSpec): unknown {
  const invalid: Record<FieldSpec['kind'], unknown> = {
    string: 42,
    integer: 1.5,
    float: 'high',
    boolean: 'maybe',
    date: '2020-13-45',
    enum: 'bogus',
    currency: 'lots',
    relation: { type: 'Stranger', id: null },
    address: 'nowhere',
    file: { url: 'nowhere' },
    target: { value: -5, date: 'soon' },
  };
  return invalid[spec.kind];
}

/** The marker field's new value: unique in the run. */
function markerValue(src: ValueSource, section: SectionDescriptor): unknown {
  const field = MARKER_FIELD[section.path];
  if (field === 'relation') return { type: 'Note', id: src.marker() };
  if (field === 'value') return src.markerNumber();
  return src.marker();
}

/** Turns one random field of `fields` invalid: the change must be refused. */
function spoil(src: ValueSource, fields: Fields, specs: Readonly<Record<string, FieldSpec>>): Fields {
  const field = src.random.pick(Object.keys(fields));
  const spec = specs[field];
  return spec ? { ...fields, [field]: invalidValue(spec) } : fields;
}

/** A new item: its required fields, a few optional ones, and its marker. */
export function newItem(src: ValueSource, section: SectionDescriptor, invalid: boolean): Fields {
  const fields: Fields = {};
  for (const [field, spec] of Object.entries(section.fields)) {
    if (spec.kind === 'file' && section.path !== 'documents') continue; // uploaded, never written
    if (section.required.includes(field) || src.random.chance(0.4))
      fields[field] = validValue(src, field, spec);
  }
  fields[MARKER_FIELD[section.path] as string] = markerValue(src, section);
  return invalid ? spoil(src, fields, section.fields) : fields;
}

/** An edit of one to three fields of an item (now and then a new marker). */
export function itemPatch(src: ValueSource, section: SectionDescriptor, invalid: boolean): Fields {
  const writable = Object.entries(section.fields).filter(
    ([field, spec]) => spec.kind !== 'file' && field !== MARKER_FIELD[section.path],
  );
  const patch: Fields = {};
  for (let i = writable.length ? src.random.int(1, 3) : 0; i > 0; i--) {
    const [field, spec] = src.random.pick(writable);
    patch[field] = validValue(src, field, spec);
  }
  // Documents have nothing else to edit: their relation (the marker) is what changes.
  if (writable.length === 0 || src.random.chance(0.2))
    patch[MARKER_FIELD[section.path] as string] = markerValue(src, section);
  return invalid ? spoil(src, patch, section.fields) : patch;
}

/** A file the user chose, waiting or on the platform (not a bare address, which may be wrong). */
const isChosenFile = (value: unknown) => isObject(value) && typeof value.filename === 'string';

/** Valid values for the same fields: how the user fixes a refused change (a chosen file stays). */
export function fixedItemFields(src: ValueSource, section: SectionDescriptor, fields: Fields): Fields {
  const out: Fields = {};
  for (const field of Object.keys(fields)) {
    const spec = section.fields[field];
    if (!spec || isChosenFile(fields[field])) continue;
    out[field] =
      field === MARKER_FIELD[section.path]
        ? markerValue(src, section)
        : spec.kind === 'relation'
          ? { type: 'client', id: null }
          : validValue(src, field, spec);
  }
  return out;
}

/** A change of a single-record section (`expenses-fixed`, `income:client` …): a few of its fields. */
export function singlePatch(src: ValueSource, section: SectionDescriptor, invalid: boolean): Fields {
  const patch: Fields = {};
  for (let i = src.random.int(1, 3); i > 0; i--) {
    const [field, spec] = src.random.pick(Object.entries(section.fields));
    patch[field] = validValue(src, field, spec);
  }
  return invalid ? spoil(src, patch, section.fields) : patch;
}

// ---- Full member details (flat paths, as the local store keeps them) ---------------------------

type Generator = (r: Random) => unknown;

/**
 * The details fields an advisor edits on the member form. First name, last name, email and phone
 * are left to the account form: both records write the same member on the platform.
 */
const DETAIL_FIELDS: Record<string, { valid: Generator; invalid: unknown }> = {
  middle_initial: { valid: (r) => r.pick(['A', 'B', 'J', 'Q']), invalid: 'ABCDEFG' },
  gender: { valid: (r) => r.pick(['male', 'female']), invalid: 'unknown' },
  birth_date: { valid: (r) => date(r, 1940, 2005), invalid: '2999-01-01' },
  marital_status: {
    valid: (r) => r.pick(['single', 'married', 'divorced', 'widowed', 'other', 'partner']),
    invalid: 'complicated',
  },
  previous_marriages: { valid: (r) => r.int(0, 3), invalid: -1 },
  'citizenship.country': { valid: (r) => r.pick(['US', 'CA', 'GB', 'DE']), invalid: 'XX' },
  home_phone: { valid: phone, invalid: 'call me' },
  work_phone: { valid: phone, invalid: '12' },
  'address.line1': { valid: (r) => `${r.int(1, 999)} ${r.pick(WORDS)} Ave`, invalid: 7 },
  'address.city': { valid: (r) => r.pick(WORDS), invalid: 7 },
  'address.state': { valid: (r) => r.pick(US_STATES), invalid: 'ZZ' },
  'address.zip': { valid: (r) => r.digits(5), invalid: 7 },
  'address.country': { valid: () => 'US', invalid: 'XX' },
  risk_score: { valid: (r) => r.int(0, 100), invalid: 500 },
  comments: { valid: word, invalid: 7 },
  'drivers_license.number': { valid: (r) => `D${r.digits(7)}`, invalid: 7 },
  'drivers_license.issue_date': { valid: (r) => date(r, 2010, 2019), invalid: 'yesterday' },
  'drivers_license.expire_date': { valid: (r) => date(r, 2030, 2039), invalid: 'never' },
  'drivers_license.jurisdiction.state': { valid: (r) => r.pick(US_STATES), invalid: 'ZZ' },
  'drivers_license.jurisdiction.country': { valid: () => 'US', invalid: 'XX' },
};

/** An edit of one to three member details fields, one of them invalid when asked. */
export function detailsPatch(src: ValueSource, invalid: boolean): Fields {
  const patch: Fields = {};
  for (let i = src.random.int(1, 3); i > 0; i--) {
    const field = src.random.pick(Object.keys(DETAIL_FIELDS));
    patch[field] = DETAIL_FIELDS[field]!.valid(src.random);
  }
  if (invalid) {
    const field = src.random.pick(Object.keys(patch));
    patch[field] = DETAIL_FIELDS[field]!.invalid;
  }
  return patch;
}

/** Valid values for the same details fields; a group named (`address`) gets all its parts. */
export function fixedDetails(src: ValueSource, fields: Fields): Fields {
  const names = Object.keys(DETAIL_FIELDS).filter((name) =>
    Object.keys(fields).some((field) => name === field || name.startsWith(`${field}.`)),
  );
  return Object.fromEntries(names.map((name) => [name, DETAIL_FIELDS[name]!.valid(src.random)]));
}

// ---- Accounts (version 2 flat paths) -----------------------------------------------------------

/** A member of an account: names, an email that is the account's marker, now and then a phone. */
export function memberFields(src: ValueSource, role: 'client' | 'coclient'): Fields {
  const r = src.random;
  const fields: Fields = {
    [`${role}.first_name`]: r.pick(FIRST_NAMES),
    [`${role}.last_name`]: word(r).split(' ')[1],
    [`${role}.email`]: `${src.marker()}@example.com`,
  };
  if (r.chance(0.5)) Object.assign(fields, phoneFields(r, role));
  return fields;
}

function phoneFields(r: Random, role: string): Fields {
  return {
    [`${role}.phone.code`]: r.pick(['+1', '1', '+44']),
    [`${role}.phone.number`]: r.pick([r.digits(10), `555-${r.digits(3)}-${r.digits(4)}`]),
    [`${role}.phone.country`]: r.pick(['US', 'us', 'GB']),
  };
}

/** A new account: its type, the client, sometimes a co-client. */
export function newAccount(src: ValueSource, invalid: boolean): Fields {
  const fields: Fields = {
    type: src.random.pick(['CLIENT', 'PROSPECT']),
    ...memberFields(src, 'client'),
    ...(src.random.chance(0.4) ? memberFields(src, 'coclient') : {}),
  };
  if (invalid) fields['client.email'] = 'not-an-email';
  return fields;
}

/** What an advisor changes on the account form: a member's name or phone, the flags, the stage. */
export function accountPatch(
  src: ValueSource,
  account: { hasCoclient: boolean; stages: readonly string[] },
  invalid: boolean,
): Fields {
  const r = src.random;
  const role = account.hasCoclient && r.chance(0.3) ? 'coclient' : 'client';
  const choices: (() => Fields)[] = [
    () => ({ [`${role}.first_name`]: r.pick(FIRST_NAMES) }),
    () => ({ [`${role}.last_name`]: word(r).split(' ')[0] }),
    () => phoneFields(r, role),
    () => ({ favorited: r.chance(0.5) }),
    () => ({ archived: r.chance(0.3) }),
    () => ({ 'pipeline.id': r.pick(account.stages) }),
  ];
  const patch = r.pick(choices)();
  if (invalid)
    Object.assign(
      patch,
      r.pick([
        { 'client.email': 'nope' },
        { 'pipeline.id': 'no-such-stage' },
        { 'client.phone.number': 'abc' },
      ]),
    );
  return patch;
}

/** Valid values for the fields of a refused account change; a co-client named in it is given in full. */
export function fixedAccountFields(src: ValueSource, fields: Fields, stages: readonly string[]): Fields {
  const r = src.random;
  const out: Fields = {};
  for (const role of ['client', 'coclient'] as const)
    if (Object.keys(fields).some((k) => k.startsWith(`${role}.`)))
      Object.assign(out, memberFields(src, role));
  if ('type' in fields) out.type = fields.type === 'PROSPECT' ? 'PROSPECT' : 'CLIENT';
  if ('pipeline.id' in fields) out['pipeline.id'] = r.pick(stages);
  for (const flag of ['favorited', 'archived']) if (flag in fields) out[flag] = r.chance(0.5);
  return out;
}

// ---- Files the user picks -----------------------------------------------------------------------

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const utf8 = (text: string) => new TextEncoder().encode(text);

/**
 * A file the user picks, named after a new marker (the platform keeps the name, so the checker
 * knows which upload a field holds). The platform reads the kind from the bytes: pictures for a
 * photo, a PDF or a picture for a document, anything for a Documents item; `invalid` picks bytes
 * of a kind the field refuses.
 */
export function chosenFile(
  src: ValueSource,
  kind: 'image' | 'document' | 'any',
  invalid: boolean,
): FileInput {
  const name = src.marker();
  const png = (): FileInput => ({
    name: `${name}.png`,
    type: 'image/png',
    bytes: new Uint8Array([...PNG_SIGNATURE, ...utf8(name)]),
  });
  const pdf = (): FileInput => ({
    name: `${name}.pdf`,
    type: 'application/pdf',
    bytes: utf8(`%PDF-1.4\n%${name}\n%%EOF\n`),
  });
  const text = (): FileInput => ({ name: `${name}.txt`, type: 'text/plain', bytes: utf8(`notes ${name}\n`) });
  if (kind === 'image') return invalid ? pdf() : png();
  if (kind === 'document') return invalid ? text() : src.random.pick([png, pdf])();
  return src.random.pick([png, pdf, text])();
}
