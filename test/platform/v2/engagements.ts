// Version 2 engagements: list with filters, create from a template, close and reopen, delete with
// password, the preview HTML, the collected data and the documents, signatures and history.

import { ApiError, notFound } from '../errors.ts';
import { sendFile } from '../files.ts';
import { page, paging, sortItems, startsWith } from '../listing.ts';
import type { EmailRecord, EngagementRecord, ProfileValue, TemplateRecord, UserRecord } from '../model.ts';
import { stableUuid } from '../random.ts';
import type { Context, Router } from '../router.ts';
import type { Store } from '../store.ts';
import { verifyUserPassword } from './accounts.ts';
import { Checks, unflatten } from './input.ts';
import { engagementV2 } from './shape.ts';

const SORT_KEYS = [
  'account_id',
  'member_id',
  'template_id',
  'title',
  'description',
  'security',
  'name',
  'email',
  'status',
  'filled',
  'created_at',
  'opened_at',
  'reminded_at',
  'completed_at',
] as const;

function canSee(user: UserRecord, e: EngagementRecord): boolean {
  return e.status === 'COMPLETED'
    ? user.permissions['engagements.completed']
    : user.permissions['engagements.in-progress'];
}

function visible(store: Store, user: UserRecord): EngagementRecord[] {
  const accounts = new Set(store.visibleAccounts(user).map((a) => a.id));
  return store.state.engagements.filter((e) => accounts.has(e.account_id) && canSee(user, e));
}

function find(ctx: Context): EngagementRecord {
  const e = visible(ctx.store, ctx.user).find((x) => x.id === ctx.params.engagement);
  if (!e) throw notFound('Engagement');
  return e;
}

function integerFilter(query: Record<string, string>, name: string): number | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,12}$/.test(raw))
    throw new ApiError(422, `The ${name} field must be an integer.`, {
      [name]: [`The ${name} field must be an integer.`],
    });
  return Number(raw);
}

function list(ctx: Context) {
  const q = ctx.query;
  const p = paging(q, 50);
  const sort = q.sort || '-created_at';
  if (q.type && !['completed', 'in-progress'].includes(q.type)) {
    throw new ApiError(422, 'The selected type is invalid; use completed or in-progress.', {
      type: ['The selected type is invalid.'],
    });
  }
  const accountId = integerFilter(q, 'account_id');
  const memberId = integerFilter(q, 'member_id');
  let items = visible(ctx.store, ctx.user).filter(
    (e) =>
      (!q.type || (q.type === 'completed') === (e.status === 'COMPLETED')) &&
      (accountId === undefined || e.account_id === accountId) &&
      (memberId === undefined || e.member_id === memberId) &&
      (!q.template_id || e.template_id === q.template_id),
  );
  if (q.query)
    items = items.filter(
      (e) => startsWith(e.title, q.query as string) || startsWith(e.name, q.query as string),
    );
  const keys = Object.fromEntries(SORT_KEYS.map((k) => [k, (e: EngagementRecord) => e[k]]));
  const inserted = new Map(ctx.store.state.engagements.map((e, i) => [e.id, i]));
  const sorted = sortItems(items, sort, keys, (e) => inserted.get(e.id));
  return {
    items: page(sorted, p).map((e) => engagementV2(e, ctx.base.v2)),
    params: { limit: p.limit, offset: p.offset, sort, total: sorted.length },
  };
}

function create(ctx: Context) {
  const { store, user } = ctx;
  store.require(user, 'engagements.create');
  const body = unflatten(ctx.body);
  const checks = new Checks();
  for (const f of ['template_id', 'account_id', 'member_id']) checks.required(body, f);
  const templateId = checks.string(body, 'template_id', 64);
  const accountId = checks.integer(body, 'account_id');
  const memberId = checks.integer(body, 'member_id');
  const flags = {
    email_new: checks.boolean(body, 'email_new'),
    email_reminders: checks.boolean(body, 'email_reminders'),
    email_completed: checks.boolean(body, 'email_completed'),
  };
  const template = templateId ? store.templatesOf(user).find((t) => t.id === templateId) : undefined;
  if (templateId && !template)
    checks.fail(
      'template_id',
      'The selected template_id is invalid; choose one of the templates of the user resource.',
    );
  const account =
    accountId !== undefined ? store.visibleAccounts(user).find((a) => a.id === accountId) : undefined;
  if (accountId !== undefined && !account) checks.fail('account_id', 'The selected account_id is invalid.');
  const member =
    account && memberId !== undefined
      ? [account.client, account.coclient].find((m) => m?.id === memberId)
      : undefined;
  if (account && memberId !== undefined && !member)
    checks.fail('member_id', 'The selected member_id is not the client or co-client of that account.');
  checks.throwIfAny();
  if (!template || !account || !member) throw new ApiError(422, 'The given data was invalid.');
  const now = store.now();
  const engagement: EngagementRecord = {
    id: store.random.uuid(),
    account_id: account.id,
    member_id: member.id,
    template_id: template.id,
    title: template.title,
    description: template.description,
    security: template.security,
    name: store.memberName(member),
    email: member.email,
    status: 'NEW',
    filled: 0,
    time: 0,
    created_at: now,
    opened_at: null,
    email_reminders: flags.email_reminders ?? false,
    reminded_at: null,
    email_completed: flags.email_completed ?? false,
    completed_at: null,
    answers: [],
    documents: [],
    signatures: [],
    history: [],
  };
  store.state.engagements.push(engagement);
  if (flags.email_new) recordEmail(store, engagement, 'new');
  const author = `${user.first_name} ${user.last_name}`;
  store.accountActivity(
    account,
    'engagement.created',
    `${author} sent “${template.title}” to ${engagement.name}`,
    { author, template: template.title, name: engagement.name },
  );
  return engagementV2(engagement, ctx.base.v2);
}

/** Closing a completed engagement, or reopening an open one, changes nothing and answers 200. */
function transition(ctx: Context, to: 'COMPLETED' | 'NEW') {
  // An engagement that is not there is not found, whatever the user may do (404 before 403).
  const e = find(ctx);
  ctx.store.require(ctx.user, 'engagements.close');
  if (e.status !== to) {
    const { store, user } = ctx;
    const author = `${user.first_name} ${user.last_name}`;
    if (to === 'COMPLETED')
      completeEngagement(store, e, author, `${author} closed “${e.title}” of ${e.name}`);
    else {
      e.status = 'NEW';
      e.completed_at = null;
      const account = store.account(user, e.account_id);
      store.accountActivity(account, 'engagement.reopened', `${author} reopened “${e.title}” for ${e.name}`, {
        author,
        template: e.title,
        name: e.name,
      });
    }
  }
  return engagementV2(e, ctx.base.v2);
}

/**
 * Completes an engagement, closed by the advisor or finished by its member (the control endpoint):
 * a new version in its history, its answers written into the profile, and an activity.
 */
export function completeEngagement(
  store: Store,
  e: EngagementRecord,
  author: string,
  description: string,
): void {
  e.status = 'COMPLETED';
  // A completion is later than the one before it, even within the same second.
  e.completed_at = store.clock.after(e.history.at(-1)?.completed_at ?? e.created_at);
  e.history.push({
    id: store.random.uuid(),
    author,
    created_at: e.created_at,
    completed_at: e.completed_at,
    answers: e.answers.map((a) => ({ ...a })),
  });
  writeProfile(store, e);
  const account = store.state.accounts.find((a) => a.id === e.account_id);
  if (account)
    store.accountActivity(account, 'engagement.completed', description, {
      author,
      template: e.title,
      name: e.name,
    });
}

/** An email the platform would send about an engagement, kept where tests read it (`/__sandbox/emails`). */
export function recordEmail(store: Store, e: EngagementRecord, kind: EmailRecord['kind']): void {
  (store.state.emails ??= []).push({ engagement_id: e.id, kind, to: e.email, at: store.now() });
}

/** The profile as a set: the order in which values were written is no change of the account. */
const profileText = (profile: ProfileValue[]) =>
  JSON.stringify([...profile].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));

/**
 * Answers to elements connected to the profile replace the member's profile values. A FILE or
 * IMAGE answer keeps pointing at the uploaded file, so the account file endpoints still serve it.
 * A profile that changes is a change of the account: its `updated_at` moves.
 */
function writeProfile(store: Store, e: EngagementRecord): void {
  const account = store.state.accounts.find((a) => a.id === e.account_id);
  if (!account) return;
  const before = profileText(account.profile);
  for (const answer of e.answers) {
    if (!answer.dataset_id) continue;
    const element = store.state.dataset.elements.find((x) => x.id === answer.dataset_id);
    const file = e.documents.find((d) => d.field_id === answer.element_id)?.files[0];
    account.profile = account.profile.filter(
      (v) => !(v.dataset_id === answer.dataset_id && v.member_id === e.member_id),
    );
    account.profile.push({
      id: stableUuid(e.id, answer.element_id, 'value'),
      dataset_id: answer.dataset_id,
      member_id: e.member_id,
      row_id: stableUuid(e.id, answer.element_id, 'row'),
      type: element?.type ?? 'STRING',
      value: answer.value,
      ...(file ? { file } : {}),
    });
  }
  if (profileText(account.profile) !== before) store.touch(account);
}

function templateOf(store: Store, e: EngagementRecord): TemplateRecord | undefined {
  return store.state.templates.find((t) => t.id === e.template_id);
}

function data(ctx: Context) {
  const e = find(ctx);
  if (e.status !== 'COMPLETED')
    throw new ApiError(422, 'The engagement is not completed; its data can be read once it is closed.');
  const s = templateOf(ctx.store, e)?.structure;
  return e.answers.map((answer) => {
    const element = s?.elements.find((x) => x.id === answer.element_id);
    const group = s?.groups.find((g) => g.id === element?.group_id);
    const panel = s?.panels.find((p) => p.id === group?.panel_id);
    return {
      id: stableUuid(e.id, answer.element_id, 'value'),
      dataset_id: answer.dataset_id,
      member_id: e.member_id,
      row_id: stableUuid(e.id, answer.element_id, 'row'),
      type: element?.type ?? 'STRING',
      value: answer.value,
      title: element?.title ?? '',
      description: element?.description ?? null,
      path: [panel?.title ?? '', group?.title ?? '', element?.title ?? ''],
    };
  });
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Deliberately carries an inline script: the app must show this HTML sandboxed, without scripts.
 * `?version=` (a history item's id, as its `url` gives it) shows the answers of that version.
 * HTML a test set through the control endpoint stands for the current version's page.
 */
function preview(ctx: Context) {
  const e = find(ctx);
  if (e.preview_html !== undefined && !ctx.query.version)
    return ctx.reply.type('text/html; charset=utf-8').send(e.preview_html);
  const s = templateOf(ctx.store, e)?.structure;
  const version = ctx.query.version ? e.history.find((h) => h.id === ctx.query.version) : undefined;
  if (ctx.query.version && !version) throw notFound('Engagement version');
  const answers = new Map((version?.answers ?? e.answers).map((a) => [a.element_id, a.value]));
  const panels = (s?.panels ?? [])
    .map((panel) => {
      const groups = (s?.groups ?? [])
        .filter((g) => g.panel_id === panel.id)
        .map((g) => {
          const rows = (s?.elements ?? [])
            .filter((el) => el.group_id === g.id)
            .map((el) => `<tr><th>${escape(el.title)}</th><td>${escape(answers.get(el.id) ?? '—')}</td></tr>`)
            .join('');
          return `<h3>${escape(g.title)}</h3><table>${rows}</table>`;
        })
        .join('');
      return `<section><h2>${escape(panel.title)}</h2>${groups}</section>`;
    })
    .join('');
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escape(e.title)}</title></head><body>
<h1>${escape(e.title)}</h1><p>${escape(e.description)}</p><p>For ${escape(e.name)} · ${version ? 'Version completed ' + escape(version.completed_at) : e.status === 'COMPLETED' ? 'Completed ' + escape(e.completed_at ?? '') : 'In progress'}</p>
${panels}
<script>window.__engagementPreviewScriptRan = true;</script>
</body></html>`;
  return ctx.reply.type('text/html; charset=utf-8').send(html);
}

function subList<T>(
  ctx: Context,
  items: T[],
  defaultSort: string,
  keys: Record<string, (x: T) => string | number | null>,
  map: (x: T) => unknown,
) {
  const p = paging(ctx.query, 50);
  const sort = ctx.query.sort || defaultSort;
  const inserted = new Map(items.map((x, i) => [x, i]));
  const sorted = sortItems(items, sort, keys, (x) => inserted.get(x));
  return {
    items: page(sorted, p).map(map),
    params: { limit: p.limit, offset: p.offset, sort, total: sorted.length },
  };
}

export function registerEngagements(r: Router): void {
  r.get('/engagements', list);
  r.post('/engagements', create);
  r.get('/engagements/:engagement', (ctx) => engagementV2(find(ctx), ctx.base.v2));
  r.post('/engagements/:engagement/close', (ctx) => transition(ctx, 'COMPLETED'));
  r.post('/engagements/:engagement/reopen', (ctx) => transition(ctx, 'NEW'));
  r.delete('/engagements/:engagement', (ctx) => {
    const e = find(ctx);
    ctx.store.require(ctx.user, 'engagements.delete');
    verifyUserPassword(ctx, unflatten(ctx.body).password);
    ctx.store.state.engagements = ctx.store.state.engagements.filter((x) => x.id !== e.id);
    const account = ctx.store.account(ctx.user, e.account_id);
    const author = `${ctx.user.first_name} ${ctx.user.last_name}`;
    ctx.store.accountActivity(account, 'engagement.deleted', `${author} deleted “${e.title}” of ${e.name}`, {
      author,
      template: e.title,
      name: e.name,
    });
  });
  r.get('/engagements/:engagement/preview', preview);
  r.get('/engagements/:engagement/data', data);
  r.get('/engagements/:engagement/documents', (ctx) => {
    const e = find(ctx);
    return subList(ctx, e.documents, '-updated_at', { updated_at: (d) => d.updated_at }, (d) => ({
      id: d.id,
      field_id: d.field_id,
      title: d.title,
      updated_at: d.updated_at,
      files: d.files.map((fid, i) => {
        const name = ctx.store.file(fid)?.name ?? 'file';
        return {
          name,
          url: `${ctx.base.v2}/engagements/${e.id}/documents/${d.field_id}/${d.id}/${i}/${encodeURIComponent(name)}`,
        };
      }),
    }));
  });
  const documentFile = (ctx: Context) => {
    const e = find(ctx);
    const d = e.documents.find((x) => x.field_id === ctx.params.field && x.id === ctx.params.element);
    const file = ctx.store.file(d?.files[Number(ctx.params.index)]);
    if (!file || (ctx.params.name !== undefined && ctx.params.name !== file.name))
      throw notFound('Document file');
    return sendFile(ctx.reply, file);
  };
  r.get('/engagements/:engagement/documents/:field/:element/:index', documentFile);
  r.get('/engagements/:engagement/documents/:field/:element/:index/:name', documentFile);
  r.get('/engagements/:engagement/signatures', (ctx) => {
    const e = find(ctx);
    return subList(
      ctx,
      e.signatures,
      '-signed_at',
      { name: (s) => s.name, email: (s) => s.email, ip: (s) => s.ip, signed_at: (s) => s.signed_at },
      (s) => {
        const { file, ...rest } = s;
        const name = ctx.store.file(file)?.name ?? 'signature.png';
        return {
          ...rest,
          file: `${ctx.base.v2}/engagements/${e.id}/signatures/${s.field_id}/${encodeURIComponent(name)}`,
        };
      },
    );
  });
  r.get('/engagements/:engagement/signatures/:field/:name', (ctx) => {
    const e = find(ctx);
    const s = e.signatures.find((x) => x.field_id === ctx.params.field);
    const file = ctx.store.file(s?.file);
    if (!file || file.name !== ctx.params.name) throw notFound('Signature file');
    return sendFile(ctx.reply, file);
  });
  r.get('/engagements/:engagement/history', (ctx) => {
    const e = find(ctx);
    return subList(
      ctx,
      e.history,
      '-created_at',
      { created_at: (h) => h.created_at, updated_at: (h) => h.completed_at },
      (h) => ({
        id: h.id,
        url: `${ctx.base.v2}/engagements/${e.id}/preview?version=${h.id}`,
        author: h.author,
        created_at: h.created_at,
        completed_at: h.completed_at,
      }),
    );
  });
}
