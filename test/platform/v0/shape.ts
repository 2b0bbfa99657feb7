// Records in the shape of the version 0.0.1 interface.

import { CALLING_CODES, USER_ACTIVITIES } from '../catalog.ts';
import type {
  AccountRecord,
  FormRecord,
  MemberRecord,
  Phone,
  TemplateRecord,
  UserActivity,
  UserRecord,
} from '../model.ts';
import type { Store } from '../store.ts';
import { fileObject } from '../validate.ts';

/** The phone object as the 0.0.1 phone string: calling code and number run together. */
export function phoneText(p: Phone): string {
  return p.number ? `${p.code ?? ''}${p.number}` : '';
}

/**
 * Splits a 0.0.1 phone string: a leading `+` and the longest known calling code give code and
 * country; without `+` the whole is the number. Returns null for anything but 4–15 digits.
 */
export function parsePhoneText(text: string): Phone | null {
  const compact = text.replace(/[\s\-().]/g, '');
  if (compact === '') return { code: null, number: null, country: null };
  if (!/^\+?\d{4,18}$/.test(compact)) return null;
  if (!compact.startsWith('+'))
    return compact.length <= 15 ? { code: null, number: compact, country: null } : null;
  const match = CALLING_CODES.filter((c) => compact.startsWith(c.code)).sort(
    (a, b) => b.code.length - a.code.length,
  )[0];
  const code = match?.code ?? compact.slice(0, 2);
  const number = compact.slice(code.length);
  return number.length >= 4 && number.length <= 15 ? { code, number, country: match?.country ?? null } : null;
}

export function memberSummary(m: MemberRecord, type: 'CLIENT' | 'COCLIENT') {
  return {
    first_name: m.first_name,
    last_name: m.last_name,
    email: m.email,
    phone: phoneText(m.phone),
    status: m.status,
    type,
  };
}

export function accountV0(a: AccountRecord) {
  return {
    id: a.id,
    type: a.type === 'CLIENT' ? 'clients' : 'prospects',
    client: memberSummary(a.client, 'CLIENT'),
    coclient: a.coclient ? memberSummary(a.coclient, 'COCLIENT') : null,
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

export function fileUrl(base: string, id: string, name: string): string {
  return `${base}/files/${id}/${encodeURIComponent(name)}`;
}

export function storedFile(store: Store, base: string, id: string | null) {
  const file = store.file(id);
  return file ? fileObject(file, fileUrl(base, file.id, file.name)) : null;
}

export function fullMember(store: Store, base: string, m: MemberRecord) {
  return {
    first_name: m.first_name,
    middle_initial: m.middle_initial,
    last_name: m.last_name,
    gender: m.gender,
    birth_date: m.birth_date,
    marital_status: m.marital_status,
    previous_marriages: m.previous_marriages,
    citizenship: { country: m.citizenship.country },
    email: m.email,
    phone: phoneText(m.phone),
    home_phone: m.home_phone,
    work_phone: m.work_phone,
    address: { line1: null, line2: null, city: null, state: null, zip: null, country: null, ...m.address },
    photo: storedFile(store, base, m.photo),
    risk_score: m.risk_score,
    comments: m.comments,
    drivers_license: {
      ...m.drivers_license,
      jurisdiction: { ...m.drivers_license.jurisdiction },
      document: storedFile(store, base, m.drivers_license.document),
    },
  };
}

export function templateV0(t: TemplateRecord, withId = false) {
  return {
    ...(withId ? { id: t.id } : {}),
    key: t.key,
    type: t.auth,
    title: t.title,
    description: t.description,
    status: t.status,
    modified: t.modified,
    default: t.default,
    tags: [...t.tags],
  };
}

export function formV0(store: Store, base: string, f: FormRecord) {
  const template = store.state.templates.find((t) => t.id === f.template_id);
  return {
    account_id: f.account_id,
    key: f.key,
    definition_key: f.definition_key,
    status: f.status,
    template: template ? templateV0(template) : null,
    recipients: f.recipients.map((r) => ({ ...r })),
    created_at: f.created_at,
    updated_at: f.updated_at,
    opened_at: f.opened_at,
    reminded_at: f.reminded_at,
    closed_at: f.closed_at,
    urls: `${base}/accounts/${f.account_id}/forms/${f.key}/preview`,
  };
}

export function activityV0(a: UserActivity) {
  const meta = USER_ACTIVITIES[a.type] ?? { icon: 'mdi-information', icon_color: 'secondary', title: a.type };
  return {
    id: a.id,
    type: a.type,
    icon: meta.icon,
    icon_color: meta.icon_color,
    title: meta.title,
    description: a.description,
    created_at: a.created_at,
  };
}

export function userV0(store: Store, base: string, u: UserRecord) {
  return {
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    phone: phoneText(u.phone),
    photo: storedFile(store, base, u.photo),
    company: u.company,
    company_email: u.company_email,
    company_phone: u.company_phone,
    company_logo: storedFile(store, base, u.company_logo),
  };
}
