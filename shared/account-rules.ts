// The version 2 account rules, as the platform checks a create or update body, with its wording
// (`The client.email field must be a valid email address.`), so that a form can say before
// saving exactly what the platform would answer with a 422. Also the permission keys that govern
// accounts, and the countries and calling codes a phone number is written with.
//
// Fields are the FLAT paths of the account body (`client.phone.number`), as the local store keeps
// them. Imports nothing: it runs in the renderer, in Node and in tests alike.

export type AccountType = 'CLIENT' | 'PROSPECT';
export const ACCOUNT_TYPES: readonly AccountType[] = ['PROSPECT', 'CLIENT'];

export type MemberRole = 'client' | 'coclient';
export const MEMBER_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone.code',
  'phone.number',
  'phone.country',
] as const;
export type MemberField = (typeof MEMBER_FIELDS)[number];

/** Flat account fields, as the local store and the form hold them. */
export type AccountFields = Record<string, unknown>;
/** Messages per field path, in the platform's words. */
export type FieldMessages = Record<string, string[]>;

/** What a body is checked against: a create, or an update of an account that has (or has not) a co-client. */
export type AccountCheck = { mode: 'create' } | { mode: 'update'; hadCoclient: boolean };

/** Longest text the platform accepts per field (Laravel's default 255 for names and emails). */
const MAX_LENGTH: Record<MemberField, number> = {
  first_name: 255,
  last_name: 255,
  email: 255,
  'phone.code': 8,
  'phone.number': 32,
  'phone.country': 2,
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

const blank = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** A calling code as the platform stores it: `+` and one to four digits. */
export function normalizeCallingCode(value: string): string {
  const t = value.trim();
  return t === '' ? '' : t.startsWith('+') ? t : `+${t}`;
}

/** A phone number as the platform stores it: spaces, dashes, dots and brackets dropped. */
export function normalizePhoneNumber(value: string): string {
  return value.trim().replace(/[\s\-().]/g, '');
}

// ---- countries -------------------------------------------------------------------------------

/** Codes that look like regions to `Intl` but are not countries. */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ']);
let regionNames: Intl.DisplayNames | null = null;
const regions = (): Intl.DisplayNames => (regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' }));

/** True for an assigned ISO 3166-1 alpha-2 code, in upper case. */
export function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code)) return false;
  return regions().of(code) !== code;
}

/** Calling codes of the countries advisors meet most; any other code can be typed. */
export const CALLING_CODES: Readonly<Record<string, string>> = {
  US: '+1',
  CA: '+1',
  PR: '+1',
  GB: '+44',
  IE: '+353',
  FR: '+33',
  DE: '+49',
  AT: '+43',
  CH: '+41',
  IT: '+39',
  ES: '+34',
  PT: '+351',
  NL: '+31',
  BE: '+32',
  LU: '+352',
  DK: '+45',
  SE: '+46',
  NO: '+47',
  FI: '+358',
  IS: '+354',
  PL: '+48',
  CZ: '+420',
  SK: '+421',
  HU: '+36',
  RO: '+40',
  BG: '+359',
  GR: '+30',
  HR: '+385',
  SI: '+386',
  RS: '+381',
  UA: '+380',
  TR: '+90',
  IL: '+972',
  AE: '+971',
  SA: '+966',
  QA: '+974',
  EG: '+20',
  ZA: '+27',
  NG: '+234',
  KE: '+254',
  MA: '+212',
  IN: '+91',
  PK: '+92',
  CN: '+86',
  HK: '+852',
  TW: '+886',
  JP: '+81',
  KR: '+82',
  SG: '+65',
  MY: '+60',
  TH: '+66',
  VN: '+84',
  PH: '+63',
  ID: '+62',
  AU: '+61',
  NZ: '+64',
  MX: '+52',
  BR: '+55',
  AR: '+54',
  CL: '+56',
  CO: '+57',
  PE: '+51',
};

export interface Country {
  code: string;
  name: string;
  /** Empty when unknown here: the user types it. */
  callingCode: string;
}

let countryList: Country[] | null = null;

/** Every country `Intl` names, by name. */
export function countries(): Country[] {
  if (countryList) return countryList;
  const out: Country[] = [];
  for (let a = 65; a <= 90; a++)
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (isCountryCode(code))
        out.push({ code, name: regions().of(code) ?? code, callingCode: CALLING_CODES[code] ?? '' });
    }
  countryList = out.sort((x, y) => x.name.localeCompare(y.name, 'en'));
  return countryList;
}

// ---- the body a form sends ---------------------------------------------------------------------

const path = (role: MemberRole, field: MemberField) => `${role}.${field}`;

/** True when the fields give the co-client any non-empty value (the platform then requires its names and email). */
export function givesCoclient(fields: AccountFields): boolean {
  return MEMBER_FIELDS.some((f) => !blank(fields[path('coclient', f)]));
}

/**
 * The fields as the platform stores them: texts trimmed and empty ones null, the calling code
 * with its `+`, the number without separators, the country in upper case. Values that are not
 * text (type, flags) pass unchanged.
 */
export function normalizeAccount(fields: AccountFields): AccountFields {
  const out: AccountFields = { ...fields };
  for (const role of ['client', 'coclient'] as const)
    for (const f of MEMBER_FIELDS) {
      const key = path(role, f);
      if (!(key in fields)) continue;
      const v = text(fields[key]).trim();
      out[key] =
        v === ''
          ? null
          : f === 'phone.code'
            ? normalizeCallingCode(v)
            : f === 'phone.number'
              ? normalizePhoneNumber(v)
              : f === 'phone.country'
                ? v.toUpperCase()
                : v;
    }
  return out;
}

// ---- the checks --------------------------------------------------------------------------------

class Messages {
  readonly byField: FieldMessages = {};
  add(field: string, message: string): void {
    (this.byField[field] ??= []).push(message);
  }
}

function checkMember(
  out: Messages,
  fields: AccountFields,
  role: MemberRole,
  required: boolean,
  when: string,
): void {
  for (const f of MEMBER_FIELDS) {
    const key = path(role, f);
    const value = fields[key];
    const isName = f === 'first_name' || f === 'last_name' || f === 'email';
    if (isName && required && blank(value)) {
      out.add(key, `The ${key} field is required${when}.`);
      continue;
    }
    if (blank(value)) continue;
    const v = text(value);
    if (v.length > MAX_LENGTH[f]) {
      out.add(key, `The ${key} field must not be greater than ${MAX_LENGTH[f]} characters.`);
      continue;
    }
    const t = v.trim();
    if (f === 'email' && !isEmail(t)) out.add(key, `The ${key} field must be a valid email address.`);
    if (f === 'phone.code' && !/^\+\d{1,4}$/.test(normalizeCallingCode(t)))
      out.add(key, `The ${key} field format is invalid; write the calling code, for example +1.`);
    if (f === 'phone.number' && !/^\d{4,15}$/.test(normalizePhoneNumber(t)))
      out.add(key, `The ${key} field format is invalid; use 4 to 15 digits.`);
    if (f === 'phone.country' && !isCountryCode(t.toUpperCase()))
      out.add(key, `The ${key} field must be an ISO 3166-1 alpha-2 country code.`);
  }
}

/**
 * Checks an account body (flat fields) as the platform does, and answers its messages by field;
 * an empty object when the platform would accept it.
 *
 * - create: `type` (CLIENT or PROSPECT) and the client's first name, last name and email are
 *   required; a co-client, once any of its fields is given, needs the same three.
 * - update: the fields present are checked; the client's names and email may not be emptied; a
 *   co-client added to an account without one needs its names and email.
 * - names and emails at most 255 characters, emails well formed, the calling code `+` and 1–4
 *   digits, the number 4–15 digits once separators are dropped, the country an ISO 3166-1
 *   alpha-2 code; the co-client's email differs from the client's.
 */
export function checkAccount(fields: AccountFields, check: AccountCheck): FieldMessages {
  const out = new Messages();
  const type = fields.type;
  if (check.mode === 'create' && blank(type)) out.add('type', 'The type field is required.');
  else if (!blank(type) && !ACCOUNT_TYPES.includes(type as AccountType))
    out.add('type', 'The selected type is invalid.');

  if (check.mode === 'create') checkMember(out, fields, 'client', true, '');
  else {
    for (const f of ['first_name', 'last_name', 'email'] as const) {
      const key = path('client', f);
      if (key in fields && blank(fields[key])) out.add(key, `The ${key} field is required.`);
    }
    checkMember(out, fields, 'client', false, '');
  }

  if (givesCoclient(fields)) {
    const required = check.mode === 'create' || !check.hadCoclient;
    const when = check.mode === 'create' ? ' when a co-client is given' : ' when a co-client is added';
    checkMember(out, fields, 'coclient', required, when);
    const a = text(fields['client.email']).trim().toLowerCase();
    const b = text(fields['coclient.email']).trim().toLowerCase();
    if (a !== '' && a === b)
      out.add('coclient.email', 'The coclient.email field and client.email must be different.');
  }
  return out.byField;
}

// ---- permissions (user resource) ---------------------------------------------------------------

export type AccountAction = 'view' | 'create' | 'update' | 'delete';

/** The permission key of an action on an account of a type (`accounts.prospects.update`). */
export function accountPermission(type: AccountType, action: AccountAction): string {
  const base = type === 'CLIENT' ? 'accounts.clients' : 'accounts.prospects';
  return action === 'view' ? base : `${base}.${action}`;
}

export const FAVORITE_PERMISSION = 'accounts.favorite';
export const ARCHIVE_PERMISSION = 'accounts.archive';
export const CONVERT_PERMISSION = 'accounts.convert';

/** Why a permission is missing, in words an advisor can act on. */
export function permissionReason(key: string): string {
  const action = /^accounts\.(clients|prospects)(?:\.(create|update|delete))?$/.exec(key);
  if (action) {
    const what = action[1] as 'clients' | 'prospects';
    const verb = { create: 'create', update: 'change', delete: 'delete' }[action[2] ?? ''] ?? 'see';
    return `Your role on the platform does not let you ${verb} ${what}.`;
  }
  switch (key) {
    case FAVORITE_PERMISSION:
      return 'Your role on the platform does not let you mark favorites.';
    case ARCHIVE_PERMISSION:
      return 'Your role on the platform does not let you archive or restore accounts.';
    case CONVERT_PERMISSION:
      return 'Your role on the platform does not let you convert a prospect to a client.';
    case 'engagements.create':
      return 'Your role on the platform does not let you send questionnaires.';
    case 'engagements.close':
      return 'Your role on the platform does not let you close or reopen questionnaires.';
    case 'engagements.delete':
      return 'Your role on the platform does not let you delete questionnaires.';
    default:
      return `Your role on the platform lacks the permission ${key}.`;
  }
}

/** Why a type may not be edited or created, or null when it may. */
export function accountActionReason(
  can: (key: string) => boolean,
  type: AccountType,
  action: AccountAction,
): string | null {
  const key = accountPermission(type, action);
  return can(key) ? null : permissionReason(key);
}
