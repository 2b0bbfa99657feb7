// Sending the form changes queued on an account (data/changes/forms.ts): a form sent from a template
// (looked for on the platform first when its last sending went unanswered: form-sends.ts), a
// resend, a close. The form the platform answers is stored; the account's own fields do not change.

import type { MemberRole } from '@shared/sections.ts';
import type { AccountRow, FormRow, Operation } from '../../data/model.ts';
import { answeredForm, FORM_SENDS_KEY, findSentForm, formsPath, platformForms } from '../form-sends.ts';
import { bindSend } from '../reconcile.ts';
import type { PushContext } from './pass.ts';
import { failedWrite, failure } from './outcome.ts';
import type { Handler } from './writes.ts';

/**
 * What a send asks of the platform. The document says only "a Form object": this app sends the
 * Form's `template` (an object with its `key`) and its `recipients` (role and name).
 */
export function formSendBody(op: Operation, account: AccountRow) {
  const recipients = (
    Array.isArray(op.fields.recipients) ? op.fields.recipients : ['client']
  ) as MemberRole[];
  return {
    template: { key: String(op.fields.template_key) },
    recipients: recipients.map((role) => ({ role, name: memberName(account, role) })),
  };
}

const memberName = (account: AccountRow, role: MemberRole) =>
  [account.fields[`${role}.first_name`], account.fields[`${role}.last_name`]]
    .filter((part) => typeof part === 'string' && part !== '')
    .join(' ');

const store = (ctx: PushContext, row: FormRow | null) => (row ? ctx.db.forms.put(row) : undefined);

/**
 * `POST /accounts/{id}/forms`. The platform offers no idempotency key: a send whose answer never
 * came is looked for before it goes again, and one found is adopted, so the members get one form.
 */
export const sendForm: Handler = async (ctx, op, target, uncertain, pass) => {
  const account = Number(target.account);
  const list = { api: 'v0' as const, method: 'GET' as const, path: formsPath(account) };
  if (uncertain) {
    const found = await findSentForm(ctx, op, account);
    if (found && 'ok' in found) return { type: 'failed', failure: found, uncertain: true };
    if (found) {
      await store(ctx, found);
      return { type: 'gone' };
    }
  }
  const body = formSendBody(op, target.row as AccountRow);
  const res = await ctx.send({ api: 'v0', method: 'POST', path: formsPath(account), body });
  if (!res.ok) return failedWrite(res, uncertain, pass, list);
  const row = answeredForm(res.data, account, ctx.now());
  // An answer without the new form is as good as none: look for it before sending again.
  if (!row)
    return failedWrite(failure('server', 'The platform did not return the new form.'), true, pass, list);
  await bindSend(ctx.db, row.id, op.id, ctx.now(), FORM_SENDS_KEY);
  await store(ctx, row);
  return { type: 'gone' };
};

/**
 * `POST …/forms/{key}/resend` or `PUT …/forms/{key}/close`. A close leaves the form closed however
 * often it is sent; a resend whose answer never came is known done when the form's reminder moved
 * since it was queued, and only otherwise sent again. A 404 settles either (outcome.ts).
 */
export const formAction: Handler = async (ctx, op, target, uncertain, pass) => {
  const account = Number(target.account);
  const key = String(op.fields.key);
  const path = `${formsPath(account)}/${encodeURIComponent(key)}`;
  const list = { api: 'v0' as const, method: 'GET' as const, path: formsPath(account) };
  if (uncertain && op.kind === 'resendForm') {
    const forms = await platformForms(ctx.send, account, ctx.now());
    if (!Array.isArray(forms)) return { type: 'failed', failure: forms, uncertain: true };
    const theirs = forms.find((f) => f.key === key);
    if (theirs && theirs.server.reminded_at !== (op.fields.reminded ?? null)) {
      await store(ctx, theirs);
      return { type: 'gone' };
    }
  }
  const res =
    op.kind === 'closeForm'
      ? await ctx.send({ api: 'v0', method: 'PUT', path: `${path}/close` })
      : await ctx.send({ api: 'v0', method: 'POST', path: `${path}/resend` });
  if (!res.ok) return failedWrite(res, uncertain, pass, list);
  const row = answeredForm(res.data, account, ctx.now());
  if (row?.key === key) await store(ctx, row);
  return { type: 'gone' };
};
