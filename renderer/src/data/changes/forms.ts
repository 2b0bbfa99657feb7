// Sending a form (0.0.1) from a template to an account's members, resending and closing one: queued
// on the form's account like any change, so that they wait offline and go once the network is back.

import type { MemberRole } from '@shared/sections.ts';
import { readWire } from '@shared/wire/parse.ts';
import { FormTemplates, type FormTemplate } from '@shared/wire/v0/forms.ts';
import { CONFIG_KEYS, configEntry } from '../config.ts';
import type { AdvisorDb } from '../db.ts';
import { FORM_OPERATION_KINDS, type FormRow, type Operation } from '../model.ts';
import {
  actedOn,
  discardAccountChange,
  queueOnAccount,
  refuseUnreachable,
  refuseWithout,
} from './account-actions.ts';
import { ChangeRefused, SYNC_TABLES, recordOps, unsent, type Change } from './operations.ts';
import { announce } from './outbox-events.ts';

export interface FormSend {
  /** Local id of the account. */
  accountId: string;
  /** The 0.0.1 template's `key`. */
  templateKey: string;
  /** Who receives it: the client, the co-client, or both. */
  recipients: MemberRole[];
}

export const isFormOp = (op: Operation): boolean =>
  (FORM_OPERATION_KINDS as readonly string[]).includes(op.kind);

/** The 0.0.1 templates this computer holds (`/user/templates`), or null before the first pull. */
export async function formTemplates(db: AdvisorDb): Promise<FormTemplate[] | null> {
  const data = (await configEntry(db, CONFIG_KEYS.formTemplates))?.data;
  return data === undefined ? null : readWire(FormTemplates, data);
}

/**
 * Queues `POST /accounts/{id}/forms`. Refused, in words, without the permission the platform asks
 * (`engagements.create`), for a template that is not the user's, for no recipient or a co-client
 * the account does not have, for a recipient without an email address (the form could not reach
 * them), and while the same form waits to be sent to the same members (a second click would send
 * it twice).
 */
export async function queueSendForm(db: AdvisorDb, send: FormSend): Promise<Change> {
  await refuseWithout(db, 'engagements.create');
  const templates = await formTemplates(db);
  const template = templates?.find((t) => t.key === send.templateKey);
  if (templates && !template)
    throw new ChangeRefused(
      'This form template is not one of your templates on the platform. Choose another.',
    );
  const recipients = [...new Set(send.recipients)].sort();
  if (recipients.length === 0)
    throw new ChangeRefused('Choose who receives the form: the client, the co-client or both.');
  const now = Date.now();
  const change = await db.transaction('rw', [...SYNC_TABLES, 'forms'], async () => {
    const account = await db.accounts.get(send.accountId);
    if (!account) throw new ChangeRefused(`The account ${send.accountId} is not in the local store.`);
    for (const role of recipients) await refuseUnreachable(db, account, role, 'form');
    const ops = await recordOps(db, 'accounts', account.id);
    if (ops.some((o) => sameSend(o, send.templateKey, recipients) && (unsent(o) || o.state === 'inflight')))
      throw new ChangeRefused(
        'This form is already waiting to be sent to them; it goes once you are online.',
      );
    const known =
      account.serverId === null
        ? []
        : (await db.forms.where('accountServerId').equals(Number(account.serverId)).toArray()).map(
            (f) => f.key,
          );
    const fields = {
      template_key: send.templateKey,
      template_title: template?.title ?? send.templateKey,
      recipients,
      known,
    };
    return { id: account.id, opId: await queueOnAccount(db, account, ops, 'sendForm', fields, now) };
  });
  announce(db, []);
  return change;
}

const sameSend = (op: Operation, templateKey: string, recipients: readonly string[]) =>
  op.kind === 'sendForm' &&
  op.fields.template_key === templateKey &&
  JSON.stringify(op.fields.recipients) === JSON.stringify(recipients);

/**
 * Queues `POST …/forms/{key}/resend`: the recipients are reminded. Refused for a form closed (as
 * this computer last saw it, or with a close waiting) and while a resend of it waits already.
 */
export function queueResendForm(db: AdvisorDb, formId: string): Promise<Change> {
  return queueFormAction(db, formId, 'resendForm', (form, waiting) => {
    if (form.status === 'CLOSED' || waiting.some((o) => o.kind === 'closeForm'))
      throw new ChangeRefused('This form is closed, so it cannot be resent.');
    if (waiting.some((o) => o.kind === 'resendForm'))
      throw new ChangeRefused('A resend of this form is already waiting; it goes once you are online.');
    return true;
  });
}

/**
 * Queues `PUT …/forms/{key}/close`. None is queued when the form is closed already (and no close
 * of it is under way) or a close of it waits already: closing twice changes nothing.
 */
export function queueCloseForm(db: AdvisorDb, formId: string): Promise<Change> {
  return queueFormAction(db, formId, 'closeForm', (form, waiting, inFlight) => {
    if (waiting.some((o) => o.kind === 'closeForm')) return false;
    return form.status !== 'CLOSED' || inFlight;
  });
}

async function queueFormAction(
  db: AdvisorDb,
  formId: string,
  kind: 'resendForm' | 'closeForm',
  /** Whether to queue, given the form, its actions not sent yet, and whether one is in flight; or a refusal. */
  decide: (form: FormRow, waiting: Operation[], inFlight: boolean) => boolean,
): Promise<Change> {
  await refuseWithout(db, kind === 'closeForm' ? 'engagements.close' : 'engagements.create');
  const now = Date.now();
  return db
    .transaction('rw', [...SYNC_TABLES, 'forms'], async () => {
      const { row: form, account, ops } = await actedOn(db, await db.forms.get(formId), 'form');
      const mine = ops.filter((o) => isFormOp(o) && o.fields.form === formId);
      const waiting = mine.filter(unsent);
      if (
        !decide(
          form,
          waiting,
          mine.some((o) => !unsent(o)),
        )
      )
        return { id: formId, opId: null };
      // What the form's reminder was when queued: an unanswered resend is known done when it moved.
      const fields = { form: formId, key: form.key, reminded: form.server.reminded_at };
      return { id: formId, opId: await queueOnAccount(db, account, ops, kind, fields, now) };
    })
    .finally(() => announce(db, []));
}

/** Takes back a form change not sent yet, at the user's asking; one in flight is not taken back. */
export function discardFormChange(db: AdvisorDb, opId: string): Promise<void> {
  return discardAccountChange(db, opId, isFormOp, 'a form');
}
