// Forms sent (0.0.1) whose answer never came: the interface has no idempotency key, so before a send
// goes again the account's forms are looked for the one it may have made (by template, recipients
// and time), and a resend is known done when the form's reminder moved since it was queued.

import type { ApiFailure } from '@shared/api/request.ts';
import { isPlainObject } from '@shared/is-plain-object.ts';
import type { AdvisorDb } from '../data/db.ts';
import type { FormRow, Operation } from '../data/model.ts';
import { formRow, rowsOf } from '../data/records.ts';
import { bindSend, boundSends, stampMs, ZONE_TOLERANCE_MS } from './reconcile.ts';
import type { Send } from './send.ts';

/** Forms made by a send of this computer: form row id → the operation that made it, and when. */
export const FORM_SENDS_KEY = 'formSends';

export const formsPath = (accountServerId: number) => `/accounts/${accountServerId}/forms`;

/**
 * The form in an answer. The document says a Form; the alternatives an implementation may give are
 * read too: the form wrapped in `data` or `form`, or a list of one. Null when none can be read.
 */
export function answeredForm(data: unknown, accountServerId: number, now: number): FormRow | null {
  const candidates = [
    data,
    ...(isPlainObject(data) ? [data.data, data.form] : []),
    ...(Array.isArray(data) && data.length === 1 ? [data[0] as unknown] : []),
  ];
  for (const candidate of candidates) {
    const row = isPlainObject(candidate) ? formRow(candidate, now, accountServerId) : null;
    if (row) return row;
  }
  return null;
}

/** The account's forms as the platform lists them now, or the failure of the request. */
export async function platformForms(
  send: Send,
  accountServerId: number,
  now: number,
): Promise<FormRow[] | ApiFailure> {
  const res = await send({ api: 'v0', method: 'GET', path: formsPath(accountServerId) });
  if (!res.ok) return res;
  const items = Array.isArray(res.data)
    ? res.data
    : isPlainObject(res.data) && Array.isArray(res.data.items)
      ? res.data.items
      : [];
  return rowsOf(items, (item) => formRow(item, now, accountServerId));
}

const roles = (row: FormRow) => [...new Set(row.server.recipients.map((r) => r.role.toLowerCase()))].sort();

/**
 * The form an unanswered send (`op`) may have made: of the account's forms, those of its template
 * and recipients, without the forms this computer held when it was queued, those made before it
 * was queued, and those another send of this computer made. The oldest of the rest, bound to this
 * send in the transaction that checked it.
 */
export async function findSentForm(
  ctx: { db: AdvisorDb; send: Send; now: () => number },
  op: Operation,
  accountServerId: number,
): Promise<FormRow | null | ApiFailure> {
  const forms = await platformForms(ctx.send, accountServerId, ctx.now());
  if (!Array.isArray(forms)) return forms;
  const known = new Set(Array.isArray(op.fields.known) ? op.fields.known.map(String) : []);
  const wanted = JSON.stringify(op.fields.recipients);
  const candidates = forms
    .filter(
      (row) =>
        row.server.template?.key === op.fields.template_key &&
        JSON.stringify(roles(row)) === wanted &&
        !known.has(row.key) &&
        !(stampMs(row.createdAt) < op.createdAt - ZONE_TOLERANCE_MS),
    )
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  return ctx.db.transaction('rw', ctx.db.meta, async () => {
    const sends = await boundSends(ctx.db, FORM_SENDS_KEY);
    const found = candidates.find((row) => [undefined, op.id].includes(sends[row.id]?.opId));
    if (found) await bindSend(ctx.db, found.id, op.id, ctx.now(), FORM_SENDS_KEY);
    return found ?? null;
  });
}
