// Version 2 accounts: list with filters, create, read, update (flags, stage, convert), delete with
// password, profile, activity and the account's stored files.

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
import { ApiError, notFound } from '../errors.ts';
import { accountPage } from '../account-order.ts';
import { page, paging, sortItems, sortOrder, type SortKeys } from '../listing.ts';
import type { AccountRecord, MemberRecord, Phone } from '../model.ts';
import { verifyPassword } from '../oauth.ts';
import type { Context, Router } from '../router.ts';
import { sendFile } from '../files.ts';
import { Checks, get, has, unflatten } from './input.ts';
import { accountV2, activityV2 } from './shape.ts';

const TYPES = ['CLIENT', 'PROSPECT'] as const;
const MEMBER_FIELDS = ['first_name', 'last_name', 'email', 'phone.code', 'phone.number', 'phone.country'];

const ACCOUNT_SORT = (ctx: Context): SortKeys<AccountRecord> => {
  const stage = (a: AccountRecord) =>
    ctx.store.state.pipelines.find((p) => p.id === a.pipelineId)?.position ?? null;
  return {
    ...ACCOUNT_SORT_KEYS,
    quality: (a) => ctx.store.quality(a).score,
    pipeline: stage,
    favorited: (a) => a.favorited,
    archived: (a) => a.archived,
  };
};

function list(ctx: Context) {
  const q = ctx.query;
  const p = paging(q, 50);
  const sort = q.sort || '-created_at';
  const type = q.type || undefined;
  if (type && !['client', 'prospect', 'favorite', 'archived', 'all'].includes(type)) {
    throw new ApiError(
      422,
      'The selected type is invalid; use client, prospect, favorite, archived or all.',
      { type: ['The selected type is invalid.'] },
    );
  }
  const u = ctx.user;
  const store = ctx.store;
  // A blank sort (`sort=%20`) names no key: insertion order, as sortItems gives it.
  const [key = { name: 'id', get: (a: AccountRecord) => a.id, desc: false }] = sortOrder(
    sort,
    ACCOUNT_SORT(ctx),
  );
  const canView = {
    CLIENT: u.permissions[store.accountPermission('CLIENT', 'view')],
    PROSPECT: u.permissions[store.accountPermission('PROSPECT', 'view')],
  };
  const stage = q.pipeline;
  const needle = q.query ? q.query.trim().toLowerCase() : '';
  const first = needle.charCodeAt(0);
  // Most names differ from the query in their first letter: an ASCII first letter is compared
  // without lowering the whole name (only A-Z change case below 128; any other goes the long way).
  const starts = (v: string | null | undefined) => {
    if (typeof v !== 'string') return false;
    const c = v.charCodeAt(0);
    if (needle !== '' && c < 128 && (c >= 65 && c <= 90 ? c + 32 : c) !== first) return false;
    return v.toLowerCase().startsWith(needle);
  };
  const named = (m: MemberRecord | null) =>
    !!m && (starts(m.first_name) || starts(m.last_name) || starts(m.email));
  const filter = (a: AccountRecord) => {
    if (!canView[a.type]) return false;
    if (type === 'archived' ? !a.archived : type !== 'all' && a.archived) return false;
    if (type === 'client' && a.type !== 'CLIENT') return false;
    if (type === 'prospect' && a.type !== 'PROSPECT') return false;
    if (type === 'favorite' && !a.favorited) return false;
    if (stage && a.pipelineId !== stage) return false;
    return !q.query || named(a.client) || named(a.coclient);
  };
  const { items, total } = accountPage(store, {
    teamId: u.currentTeamId,
    key,
    filter,
    ...p,
  });
  return {
    items: items.map((a) => accountV2(store, a)),
    params: { limit: p.limit, offset: p.offset, sort, total },
  };
}

/**
 * Member fields of a body; with `required`, first name, last name and email must be there. The
 * phone parts the body leaves out keep their values in `current` (updates are partial).
 */
function readMember(
  checks: Checks,
  body: Record<string, unknown>,
  role: 'client' | 'coclient',
  required: boolean,
  when = '',
  current: Phone = { code: null, number: null, country: null },
): MemberInput {
  if (required)
    for (const f of ['first_name', 'last_name', 'email']) checks.required(body, `${role}.${f}`, when);
  const input: MemberInput = {};
  const first = checks.string(body, `${role}.first_name`);
  const last = checks.string(body, `${role}.last_name`);
  const email = checks.email(body, `${role}.email`);
  if (first !== undefined) input.first_name = first;
  if (last !== undefined) input.last_name = last;
  if (email !== undefined) input.email = email;
  if (['code', 'number', 'country'].some((k) => has(body, `${role}.phone.${k}`)))
    input.phone = checks.phone(body, `${role}.phone`, current);
  return input;
}

/** True when the body gives the co-client any non-empty field. */
function givesCoclient(body: Record<string, unknown>): boolean {
  return MEMBER_FIELDS.some((f) => {
    const v = get(body, `coclient.${f}`);
    return v !== undefined && v !== null && v !== '';
  });
}

/** True when the body sends the co-client as null or with every field empty: remove it. */
function clearsCoclient(raw: unknown, body: Record<string, unknown>): boolean {
  if (
    typeof raw === 'object' &&
    raw !== null &&
    'coclient' in raw &&
    (raw as Record<string, unknown>).coclient === null
  )
    return true;
  return MEMBER_FIELDS.some((f) => has(body, `coclient.${f}`)) && !givesCoclient(body);
}

function create(ctx: Context) {
  const body = unflatten(ctx.body);
  const checks = new Checks();
  checks.required(body, 'type');
  const type = checks.oneOf(body, 'type', TYPES);
  const client = readMember(checks, body, 'client', true);
  const coclient = givesCoclient(body)
    ? readMember(checks, body, 'coclient', true, ' when a co-client is given')
    : null;
  if (coclient?.email && client.email && coclient.email.toLowerCase() === client.email.toLowerCase()) {
    checks.fail('coclient.email', 'The coclient.email field and client.email must be different.');
  }
  checks.throwIfAny();
  const account = createAccount(ctx.store, ctx.user, type as AccountRecord['type'], client, coclient);
  return accountV2(ctx.store, account);
}

function update(ctx: Context) {
  const account = ctx.store.account(ctx.user, ctx.params.account as string);
  const body = unflatten(ctx.body);
  const checks = new Checks();
  const type = checks.oneOf(body, 'type', TYPES);
  for (const f of ['client.first_name', 'client.last_name', 'client.email'])
    if (has(body, f)) checks.required(body, f);
  const client = readMember(checks, body, 'client', false, '', account.client.phone);
  const clearCoclient = clearsCoclient(ctx.body, body);
  const coclient = givesCoclient(body)
    ? readMember(
        checks,
        body,
        'coclient',
        !account.coclient,
        ' when a co-client is added',
        account.coclient?.phone,
      )
    : null;
  const archived = checks.boolean(body, 'archived');
  const favorited = checks.boolean(body, 'favorited');
  const stageId = has(body, 'pipeline.id') ? checks.string(body, 'pipeline.id', 64) : undefined;
  const targetType = type ?? account.type;
  if (
    stageId !== undefined &&
    !ctx.store.state.pipelines.some((p) => p.id === stageId && p.type === targetType)
  ) {
    checks.fail(
      'pipeline.id',
      `The selected pipeline.id is invalid; choose a ${targetType === 'CLIENT' ? 'client' : 'prospect'} pipeline stage of the user resource.`,
    );
  }
  const clientEmail = client.email ?? account.client.email;
  const coEmail = clearCoclient ? null : (coclient?.email ?? account.coclient?.email);
  if (coEmail && clientEmail && coEmail.toLowerCase() === clientEmail.toLowerCase()) {
    checks.fail('coclient.email', 'The coclient.email field and client.email must be different.');
  }
  checks.throwIfAny();

  const { store, user } = ctx;
  const editsMembers = Object.keys(client).length > 0 || coclient !== null || clearCoclient;
  if (editsMembers || stageId !== undefined) requireUpdate(store, user, account);
  if (archived !== undefined && archived !== account.archived) store.require(user, 'accounts.archive');
  if (favorited !== undefined && favorited !== account.favorited) store.require(user, 'accounts.favorite');
  if (type && type !== account.type) store.require(user, 'accounts.convert');

  // Every check has passed: apply the change as a whole.
  const before = JSON.stringify(account);
  if (type) convert(store, user, account, type);
  updateMember(account.client, client);
  if (clearCoclient) setCoclient(store, user, account, null);
  else if (coclient) setCoclient(store, user, account, coclient);
  if (archived !== undefined) account.archived = archived;
  if (favorited !== undefined) account.favorited = favorited;
  if (stageId) account.pipelineId = stageId;
  if (JSON.stringify(account) !== before) recordUpdate(store, user, account);
  return accountV2(store, account);
}

function remove(ctx: Context) {
  const account = ctx.store.account(ctx.user, ctx.params.account as string);
  const password = unflatten(ctx.body).password;
  ctx.store.require(ctx.user, ctx.store.accountPermission(account.type, 'delete'));
  verifyUserPassword(ctx, password);
  deleteAccount(ctx.store, ctx.user, account);
}

/** Deletes ask for the signed-in user's password every time (version 2 document). */
export function verifyUserPassword(ctx: Context, password: unknown): void {
  if (typeof password !== 'string' || password === '')
    throw new ApiError(422, 'The password field is required.', {
      password: ['The password field is required.'],
    });
  if (!verifyPassword(password, ctx.user.passwordHash))
    throw new ApiError(422, 'The password is incorrect.', { password: ['The password is incorrect.'] });
}

function activity(ctx: Context) {
  const account = ctx.store.account(ctx.user, ctx.params.account as string);
  const p = paging(ctx.query, 50);
  let items = ctx.store.state.accountActivities.filter((a) => a.accountId === account.id);
  if (ctx.query.type) items = items.filter((a) => a.type === ctx.query.type);
  const sorted = sortItems(
    items,
    ctx.query.sort || '-created_at',
    { type: (a) => a.type, created_at: (a) => a.created_at },
    (a) => a.id,
  );
  return { items: page(sorted, p).map(activityV2) };
}

function profileFile(ctx: Context, type: 'FILE' | 'IMAGE') {
  const account = ctx.store.account(ctx.user, ctx.params.account as string);
  const values = account.profile.filter(
    (v) => v.dataset_id === ctx.params.element && v.type === type && v.file,
  );
  const index = type === 'FILE' ? Number(ctx.params.index) : 0;
  const value = Number.isInteger(index) ? values[index] : undefined;
  const file = ctx.store.file(value?.file);
  if (!file || file.name !== ctx.params.name) throw notFound('File');
  return sendFile(ctx.reply, file);
}

export function registerAccounts(r: Router): void {
  r.get('/accounts', list);
  r.post('/accounts', create);
  r.get('/accounts/:account', (ctx) => {
    const account = ctx.store.account(ctx.user, ctx.params.account as string);
    ctx.store.require(ctx.user, ctx.store.accountPermission(account.type, 'view'));
    return accountV2(ctx.store, account);
  });
  r.post('/accounts/:account', update);
  r.delete('/accounts/:account', remove);
  r.get('/accounts/:account/profile', (ctx) =>
    ctx.store.account(ctx.user, ctx.params.account as string).profile.map(({ file: _f, ...v }) => v),
  );
  r.get('/accounts/:account/activity', activity);
  r.get('/accounts/:account/file/document/:element/:index/:name', (ctx) => profileFile(ctx, 'FILE'));
  r.get('/accounts/:account/file/image/:element/:name', (ctx) => profileFile(ctx, 'IMAGE'));
}
