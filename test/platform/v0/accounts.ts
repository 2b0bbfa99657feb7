// Version 0.0.1 accounts and members: list, create, read, replace, delete; full member details
// with photo and driver's-license document; member security and its PIN reset.

import {
  ACCOUNT_SORT_KEYS,
  convert,
  createAccount,
  deleteAccount,
  recordUpdate,
  requireUpdate,
  setCoclient,
  updateMember,
  type MemberInput,
} from '../accounts.ts';
import { FULL_MEMBER_ENUMS } from '../../support/documented-enums.ts';
import { beyondTheDocument } from '../sections.ts';
import { isCountryCode, US_STATES } from '../catalog.ts';
import { parseDate } from '../clock.ts';
import { invalid } from '../errors.ts';
import { accountPage } from '../account-order.ts';
import { page, paging, sortItems, sortOrder, type SortKeys } from '../listing.ts';
import type { AccountRecord, MemberRecord } from '../model.ts';
import type { Context, Router } from '../router.ts';
import { fileObject, isEmail, normalizeAddress } from '../validate.ts';
import { accountV0, fileUrl, fullMember, parsePhoneText } from './shape.ts';
import { requireUpload } from './upload.ts';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const blank = (v: unknown) => v === undefined || v === null || v === '';

const SORT: SortKeys<AccountRecord> = { id: (a) => a.id, ...ACCOUNT_SORT_KEYS };

function list(ctx: Context) {
  const q = ctx.query;
  const p = paging(q, 100, 'v0');
  if (q.type && q.type !== 'clients' && q.type !== 'prospects') throw invalid(['type is invalid.']);
  const u = ctx.user;
  const store = ctx.store;
  const canView = {
    CLIENT: u.permissions[store.accountPermission('CLIENT', 'view')],
    PROSPECT: u.permissions[store.accountPermission('PROSPECT', 'view')],
  };
  const filter = (a: AccountRecord) =>
    canView[a.type] && (!q.type || (q.type === 'clients') === (a.type === 'CLIENT'));
  const sort = q.sort || 'id';
  const keys = sortOrder(sort, SORT, 'v0');
  if (keys.length > 1) {
    // Several keys: sorted for this request (the kept orders are of one key).
    const sorted = sortItems(store.visibleAccounts(u).filter(filter), sort, SORT, (a) => a.id, 'v0');
    return { items: page(sorted, p).map(accountV0), limit: p.limit, offset: p.offset, total: sorted.length };
  }
  const [key = { name: 'id', get: (a: AccountRecord) => a.id, desc: false }] = keys;
  const { items, total } = accountPage(store, { teamId: u.currentTeamId, key, filter, ...p });
  return { items: items.map(accountV0), limit: p.limit, offset: p.offset, total };
}

/** Reads a member summary of a body; the messages name the field as `client.email` etc. */
function readMember(raw: unknown, role: 'client' | 'coclient', messages: string[]): MemberInput {
  if (!isObject(raw)) return {};
  const out: MemberInput = {};
  for (const key of ['first_name', 'last_name'] as const) {
    if (!(key in raw)) continue;
    const v = raw[key];
    if (v !== null && (typeof v !== 'string' || v.length > 255)) messages.push(`${role}.${key} is invalid.`);
    else out[key] = v === null ? '' : v.trim();
  }
  if ('email' in raw) {
    const v = raw.email;
    if (!blank(v) && !isEmail(v)) messages.push(`${role}.email is invalid.`);
    else out.email = typeof v === 'string' ? v.trim() : '';
  }
  if ('phone' in raw) {
    const phone =
      typeof raw.phone === 'string'
        ? parsePhoneText(raw.phone)
        : raw.phone === null
          ? parsePhoneText('')
          : null;
    if (!phone) messages.push(`${role}.phone is invalid.`);
    else out.phone = phone;
  }
  return out;
}

const givesMember = (raw: unknown) =>
  isObject(raw) && ['first_name', 'last_name', 'email', 'phone'].some((k) => !blank(raw[k]));

function readType(body: Record<string, unknown>, messages: string[]): AccountRecord['type'] | undefined {
  if (blank(body.type)) return undefined;
  if (body.type === 'clients') return 'CLIENT';
  if (body.type === 'prospects') return 'PROSPECT';
  messages.push('type is invalid.');
  return undefined;
}

function create(ctx: Context) {
  const body = isObject(ctx.body) ? ctx.body : {};
  const messages: string[] = [];
  if (blank(body.type)) messages.push('type is required.');
  const type = readType(body, messages);
  const client = readMember(body.client, 'client', messages);
  if (blank(client.first_name)) messages.unshift('client.first_name is required.');
  if (blank(client.email) && !messages.includes('client.email is invalid.'))
    messages.unshift('client.email is required.');
  const coclient = givesMember(body.coclient) ? readMember(body.coclient, 'coclient', messages) : null;
  if (coclient && blank(coclient.first_name)) messages.push('coclient.first_name is required.');
  if (coclient && blank(coclient.email) && !messages.includes('coclient.email is invalid.'))
    messages.push('coclient.email is required.');
  if (coclient?.email && client.email && coclient.email.toLowerCase() === client.email.toLowerCase())
    messages.push('coclient.email is invalid: it must differ from client.email.');
  if (messages.length) throw invalid(messages);
  const account = createAccount(ctx.store, ctx.user, type as AccountRecord['type'], client, coclient);
  ctx.reply.code(201);
  return accountV0(account);
}

/** PUT takes the create body; fields left out keep their values, `coclient: null` removes the co-client. */
function replace(ctx: Context) {
  const { store, user } = ctx;
  const account = store.account(user, ctx.params.accountId as string);
  if (!isObject(ctx.body)) throw invalid(['body is invalid: send the account as a JSON object.']);
  const body = ctx.body;
  const messages: string[] = [];
  const type = readType(body, messages);
  const client = readMember(body.client, 'client', messages);
  if ('first_name' in client && blank(client.first_name)) messages.push('client.first_name is required.');
  if ('email' in client && blank(client.email)) messages.push('client.email is required.');
  const removeCoclient = body.coclient === null;
  const coclient = givesMember(body.coclient) ? readMember(body.coclient, 'coclient', messages) : null;
  if (coclient && !account.coclient) {
    if (blank(coclient.first_name)) messages.push('coclient.first_name is required.');
    if (blank(coclient.email)) messages.push('coclient.email is required.');
  } else if (coclient) {
    // A co-client that stays must keep a first name and an email, as the client must.
    if ('first_name' in coclient && blank(coclient.first_name))
      messages.push('coclient.first_name is required.');
    if ('email' in coclient && blank(coclient.email) && !messages.includes('coclient.email is invalid.'))
      messages.push('coclient.email is required.');
  }
  const clientEmail = client.email ?? account.client.email;
  const coEmail = removeCoclient ? null : (coclient?.email ?? account.coclient?.email);
  if (coEmail && clientEmail.toLowerCase() === coEmail.toLowerCase())
    messages.push('coclient.email is invalid: it must differ from client.email.');
  if (messages.length) throw invalid(messages);
  requireUpdate(store, user, account);
  if (type && type !== account.type) store.require(user, 'accounts.convert');
  const before = JSON.stringify(account);
  if (type) convert(store, user, account, type);
  updateMember(account.client, client);
  if (removeCoclient) setCoclient(store, user, account, null);
  else if (coclient) setCoclient(store, user, account, coclient);
  if (JSON.stringify(account) !== before) recordUpdate(store, user, account);
  return accountV0(account);
}

/** Full member details: a partial body is merged; the merged member must keep a first name and an email. */
function updateDetails(ctx: Context) {
  const { store, user } = ctx;
  const account = store.account(user, ctx.params.accountId as string);
  const role = ctx.params.client as 'client' | 'coclient';
  const member = store.member(account, role);
  const body = isObject(ctx.body) ? ctx.body : null;
  if (!body) throw invalid(['body is invalid.']);
  const next = structuredClone(member);
  const messages = applyDetails(next, body);
  if (blank(next.first_name)) messages.unshift('first_name is required.');
  if (blank(next.email)) messages.unshift('email is required.');
  const other = role === 'client' ? account.coclient : account.client;
  if (next.email && other?.email && other.email.toLowerCase() === next.email.toLowerCase())
    messages.push('email is invalid: each member of an account needs their own address.');
  if (messages.length) throw invalid(messages);
  requireUpdate(store, user, account);
  if (JSON.stringify(next) !== JSON.stringify(member)) {
    Object.assign(member, next);
    recordUpdate(store, user, account);
  }
  return fullMember(store, ctx.base.v0, member);
}

/**
 * A member's marital statuses: the document's, and beyond it `separated` (between married and
 * divorced), a value the platform allows (validation and `/define` alike) that the app's built-in
 * table does not know, so that tests can show such a value offered and kept on the member form.
 */
export const MARITAL_STATUSES = beyondTheDocument(FULL_MEMBER_ENUMS.marital_status, 'divorced', 'separated');

/** YYYY-MM-DD or the timestamp form; stored in the timestamp form the document gives. */
function timestampDate(v: unknown): string | null | undefined {
  if (v === null || v === '') return null;
  if (typeof v !== 'string') return undefined;
  const day = v.length === 19 && v.endsWith(' 00:00:00') ? v.slice(0, 10) : v;
  return parseDate(day) !== null ? `${day} 00:00:00` : undefined;
}

function applyDetails(m: MemberRecord, body: Record<string, unknown>): string[] {
  const messages: string[] = [];
  const text = (key: 'first_name' | 'last_name' | 'middle_initial' | 'comments', max: number) => {
    if (!(key in body)) return;
    const v = body[key];
    if (v !== null && (typeof v !== 'string' || v.length > max))
      return void messages.push(`${key} is invalid.`);
    if (key === 'first_name' || key === 'last_name') m[key] = typeof v === 'string' ? v.trim() : '';
    else m[key] = typeof v === 'string' && v !== '' ? v : null;
  };
  text('first_name', 255);
  text('last_name', 255);
  text('middle_initial', 5);
  text('comments', 5000);
  if ('gender' in body) {
    if (body.gender !== null && body.gender !== 'male' && body.gender !== 'female')
      messages.push('gender is invalid.');
    else m.gender = body.gender;
  }
  if ('birth_date' in body) {
    const d = timestampDate(body.birth_date);
    if (d === undefined || (d && d.slice(0, 10) > new Date().toISOString().slice(0, 10)))
      messages.push('birth_date is invalid.');
    else m.birth_date = d;
  }
  if ('marital_status' in body) {
    const v = body.marital_status;
    if (v !== null && (typeof v !== 'string' || !MARITAL_STATUSES.includes(v)))
      messages.push('marital_status is invalid.');
    else m.marital_status = v;
  }
  if ('previous_marriages' in body) {
    const v = body.previous_marriages;
    if (v !== null && (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 20))
      messages.push('previous_marriages is invalid.');
    else m.previous_marriages = v;
  }
  if ('citizenship' in body) {
    const c = isObject(body.citizenship)
      ? body.citizenship.country
      : body.citizenship === null
        ? null
        : undefined;
    const code = typeof c === 'string' ? c.toUpperCase() : c;
    if (
      code === undefined ||
      (code !== null && code !== '' && (typeof code !== 'string' || !isCountryCode(code)))
    )
      messages.push('citizenship.country is invalid.');
    else m.citizenship = { country: code || null };
  }
  if ('email' in body) {
    if (!blank(body.email) && !isEmail(body.email)) messages.push('email is invalid.');
    else m.email = typeof body.email === 'string' ? body.email.trim() : '';
  }
  if ('phone' in body) {
    const p =
      typeof body.phone === 'string'
        ? parsePhoneText(body.phone)
        : body.phone === null
          ? parsePhoneText('')
          : null;
    if (!p) messages.push('phone is invalid.');
    else m.phone = p;
  }
  for (const key of ['home_phone', 'work_phone'] as const) {
    if (!(key in body)) continue;
    const v = body[key];
    if (v === null || v === '') m[key] = null;
    else if (typeof v !== 'string' || !parsePhoneText(v)) messages.push(`${key} is invalid.`);
    else m[key] = v.replace(/[\s\-().]/g, '');
  }
  if ('address' in body) {
    // The merged address is checked, so that a state sent alone is still checked against a stored US country.
    const given = body.address === null ? {} : normalizeAddress(body.address);
    const merged = given && (body.address === null ? {} : normalizeAddress({ ...m.address, ...given }));
    if (!merged)
      messages.push(
        'address is invalid: use line1, line2, city, state (a US state code in the US), zip and an ISO country code.',
      );
    else m.address = merged;
  }
  if ('risk_score' in body) {
    const v = body.risk_score;
    if (v !== null && (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 100))
      messages.push('risk_score is invalid.');
    else m.risk_score = v;
  }
  if ('drivers_license' in body) messages.push(...applyLicense(m, body.drivers_license));
  return messages;
}

function applyLicense(m: MemberRecord, raw: unknown): string[] {
  if (raw === null) {
    m.drivers_license = {
      ...m.drivers_license,
      number: null,
      issue_date: null,
      expire_date: null,
      jurisdiction: { state: null, country: null },
    };
    return [];
  }
  if (!isObject(raw)) return ['drivers_license is invalid.'];
  const messages: string[] = [];
  const dl = { ...m.drivers_license, jurisdiction: { ...m.drivers_license.jurisdiction } };
  if ('number' in raw) {
    if (raw.number !== null && (typeof raw.number !== 'string' || raw.number.length > 40))
      messages.push('drivers_license.number is invalid.');
    else dl.number = raw.number || null;
  }
  for (const key of ['issue_date', 'expire_date'] as const) {
    if (!(key in raw)) continue;
    const d = timestampDate(raw[key]);
    if (d === undefined) messages.push(`drivers_license.${key} is invalid.`);
    else dl[key] = d;
  }
  if (dl.issue_date && dl.expire_date && dl.expire_date <= dl.issue_date)
    messages.push('drivers_license.expire_date is invalid: it must come after issue_date.');
  if ('jurisdiction' in raw) {
    const j = raw.jurisdiction;
    if (!isObject(j)) messages.push('drivers_license.jurisdiction is invalid.');
    else {
      // Merged like the address: a part left out keeps its value.
      const code = (key: 'state' | 'country') => {
        if (!(key in j)) return dl.jurisdiction[key];
        const v = j[key];
        return typeof v === 'string' && v ? v.toUpperCase() : null;
      };
      const country = code('country');
      const state = code('state');
      if (country && !isCountryCode(country))
        messages.push('drivers_license.jurisdiction.country is invalid.');
      else if (state && (country ?? 'US') === 'US' && !US_STATES.includes(state))
        messages.push('drivers_license.jurisdiction.state is invalid.');
      else dl.jurisdiction = { state, country };
    }
  }
  m.drivers_license = dl;
  return messages;
}

function security(ctx: Context) {
  const account = ctx.store.account(ctx.user, ctx.params.accountId as string);
  const role = ctx.params.client as 'client' | 'coclient';
  const m = ctx.store.member(account, role);
  return {
    account_id: account.id,
    type: role === 'client' ? 'client' : 'co-client',
    status: m.status,
    pin: Number(m.pin),
  };
}

export function registerAccountsV0(r: Router): void {
  r.get('/accounts', list);
  r.post('/accounts', create);
  r.get('/accounts/:accountId', (ctx) => {
    const account = ctx.store.account(ctx.user, ctx.params.accountId as string);
    ctx.store.require(ctx.user, ctx.store.accountPermission(account.type, 'view'));
    return accountV0(account);
  });
  r.put('/accounts/:accountId', replace);
  r.delete('/accounts/:accountId', (ctx) =>
    deleteAccount(ctx.store, ctx.user, ctx.store.account(ctx.user, ctx.params.accountId as string)),
  );
  for (const role of ['client', 'coclient'] as const) {
    const base = `/accounts/:accountId/${role}`;
    const withRole = (h: (ctx: Context) => unknown) => (ctx: Context) =>
      h({ ...ctx, params: { ...ctx.params, client: role } });
    r.get(
      `${base}/details`,
      withRole((ctx) => {
        const account = ctx.store.account(ctx.user, ctx.params.accountId as string);
        return fullMember(ctx.store, ctx.base.v0, ctx.store.member(account, role));
      }),
    );
    r.put(`${base}/details`, withRole(updateDetails));
    r.put(
      `${base}/details/photo`,
      withRole((ctx) => memberFile(ctx, 'photo', 'set')),
    );
    r.delete(
      `${base}/details/photo`,
      withRole((ctx) => memberFile(ctx, 'photo', 'remove')),
    );
    r.put(
      `${base}/details/drivers_license/document`,
      withRole((ctx) => memberFile(ctx, 'license', 'set')),
    );
    r.delete(
      `${base}/details/drivers_license/document`,
      withRole((ctx) => memberFile(ctx, 'license', 'remove')),
    );
    r.get(`${base}/security`, withRole(security));
    r.post(
      `${base}/security/reset`,
      withRole((ctx) => {
        const { store, user } = ctx;
        const account = store.account(user, ctx.params.accountId as string);
        const m = store.member(account, role);
        requireUpdate(store, user, account);
        m.pin = store.random.digits(6);
        m.status = 'NEW';
        store.touch(account);
        store.userActivity(
          user,
          account.teamId,
          'account.security.reset',
          `A new PIN was issued to ${store.memberName(m)}`,
        );
        return security(ctx);
      }),
    );
  }
}

/** Photo (pictures only) and driver's-license document (PDF or picture): upload replaces, delete removes. */
async function memberFile(ctx: Context, which: 'photo' | 'license', action: 'set' | 'remove') {
  const { store, user } = ctx;
  const account = store.account(user, ctx.params.accountId as string);
  const m = store.member(account, ctx.params.client as string);
  requireUpdate(store, user, account);
  if (action === 'remove') {
    if (which === 'photo') m.photo = null;
    else m.drivers_license.document = null;
    store.touch(account);
    return undefined;
  }
  const { file } = await requireUpload(ctx, which === 'photo' ? 'image' : 'image-or-pdf');
  const stored = store.saveFile(
    file.name,
    file.mime,
    file.bytes,
    which === 'photo' ? 'image' : 'document',
    account.teamId,
  );
  if (which === 'photo') m.photo = stored.id;
  else m.drivers_license.document = stored.id;
  store.touch(account);
  return fileObject(stored, fileUrl(ctx.base.v0, stored.id, stored.name));
}
