// Forms of the 0.0.1 interface: send, resend, close and preview, per account and per user.

import type { FastifyInstance } from 'fastify';
import { invalid, notFound } from '../errors.ts';
import type { FormRecord } from '../model.ts';
import type { Context, Router } from '../router.ts';
import type { Store } from '../store.ts';
import { formV0 } from './shape.ts';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function find(ctx: Context): FormRecord {
  const account = ctx.store.account(ctx.user, ctx.params.accountId as string);
  const form = ctx.store.state.forms.find((f) => f.account_id === account.id && f.key === ctx.params.formKey);
  if (!form) throw notFound('Form');
  return form;
}

/** Sending needs a template (its key, or an object with the key); recipients default to the client. */
function send(ctx: Context) {
  const { store, user } = ctx;
  const account = store.account(user, ctx.params.accountId as string);
  store.require(user, 'engagements.create');
  const body = isObject(ctx.body) ? ctx.body : {};
  const messages: string[] = [];
  const raw = isObject(body.template) ? body.template.key : body.template;
  const key = typeof raw === 'number' ? String(raw) : raw;
  const template = typeof key === 'string' ? store.templatesOf(user).find((t) => t.key === key) : undefined;
  if (key === undefined || key === null || key === '') messages.push('template is required.');
  else if (!template) messages.push('template is invalid.');
  let recipients = [{ role: 'client', name: store.memberName(account.client) }];
  if (body.recipients !== undefined) {
    const list = Array.isArray(body.recipients) ? body.recipients : null;
    const parsed = list?.map((r) => {
      const role = isObject(r) ? r.role : undefined;
      const member = role === 'client' ? account.client : role === 'coclient' ? account.coclient : null;
      return member ? { role: role as string, name: store.memberName(member) } : null;
    });
    if (!parsed || parsed.length === 0 || parsed.some((p) => p === null))
      messages.push(
        'recipients is invalid: each needs the role client or coclient (coclient only where the account has one).',
      );
    else recipients = parsed as typeof recipients;
  }
  if (messages.length || !template) throw invalid(messages);
  const now = store.now();
  const form: FormRecord = {
    key: String(++store.state.counters.form),
    account_id: account.id,
    definition_key: store.random.uuid(),
    template_id: template.id,
    status: 'NEW',
    recipients,
    created_at: now,
    updated_at: now,
    opened_at: null,
    reminded_at: null,
    closed_at: null,
  };
  store.state.forms.push(form);
  store.userActivity(
    user,
    account.teamId,
    'form.sent',
    `“${template.title}” was sent to ${recipients.map((r) => r.name).join(' and ')}`,
  );
  ctx.reply.code(201);
  return formV0(store, ctx.base.v0, form);
}

export function registerForms(r: Router): void {
  r.get('/user/forms', (ctx) => {
    const ids = new Set(ctx.store.visibleAccounts(ctx.user).map((a) => a.id));
    return ctx.store.state.forms
      .filter((f) => ids.has(f.account_id))
      .map((f) => formV0(ctx.store, ctx.base.v0, f));
  });
  r.get('/accounts/:accountId/forms', (ctx) => {
    const account = ctx.store.account(ctx.user, ctx.params.accountId as string);
    return ctx.store.state.forms
      .filter((f) => f.account_id === account.id)
      .map((f) => formV0(ctx.store, ctx.base.v0, f));
  });
  r.post('/accounts/:accountId/forms', send);
  r.post('/accounts/:accountId/forms/:formKey/resend', (ctx) => {
    const form = find(ctx);
    if (form.status === 'CLOSED') throw invalid(['status is invalid: a closed form cannot be resent.']);
    // A new stamp even for two resends in one second, as every change gets (clock.ts).
    form.reminded_at = form.updated_at = ctx.store.clock.after(form.updated_at);
    ctx.store.userActivity(
      ctx.user,
      ctx.user.currentTeamId,
      'form.resent',
      `A form was resent to ${form.recipients.map((x) => x.name).join(' and ')}`,
    );
    return formV0(ctx.store, ctx.base.v0, form);
  });
  // Closing an already closed form changes nothing and answers 200.
  r.put('/accounts/:accountId/forms/:formKey/close', (ctx) => {
    const form = find(ctx);
    ctx.store.require(ctx.user, 'engagements.close');
    if (form.status !== 'CLOSED') {
      form.status = 'CLOSED';
      form.closed_at = form.updated_at = ctx.store.now();
      ctx.store.userActivity(
        ctx.user,
        ctx.user.currentTeamId,
        'form.closed',
        `The form of ${form.recipients.map((x) => x.name).join(' and ')} was closed`,
      );
    }
    return formV0(ctx.store, ctx.base.v0, form);
  });
  r.get('/accounts/:accountId/forms/:formKey/preview', (ctx) => {
    const form = find(ctx);
    const origin = ctx.base.v0.replace(/\/api\/v0$/, '');
    return { url: `${origin}/forms/${form.definition_key}/preview` };
  });
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page a form preview url points at: public, addressed by the form's unguessable definition key. */
export function registerFormPages(app: FastifyInstance, store: () => Store): void {
  app.get('/forms/:definitionKey/preview', (req, reply) => {
    const { definitionKey } = req.params as { definitionKey: string };
    const s = store();
    const form = s.state.forms.find((f) => f.definition_key === definitionKey);
    const template = form && s.state.templates.find((t) => t.id === form.template_id);
    if (!form || !template)
      return reply
        .code(404)
        .type('text/html; charset=utf-8')
        .send('<!doctype html><title>Form not found</title><h1>Form not found</h1>');
    const fields = template.structure.elements.map((e) => `<li>${escape(e.title)}</li>`).join('');
    return reply.type('text/html; charset=utf-8')
      .send(`<!doctype html><html><head><meta charset="utf-8"><title>${escape(template.title)}</title></head>
<body><h1>${escape(template.title)}</h1><p>${escape(template.description)}</p><p>For ${escape(form.recipients.map((r) => r.name).join(' and '))} · ${form.status}</p><ol>${fields}</ol></body></html>`);
  });
}
