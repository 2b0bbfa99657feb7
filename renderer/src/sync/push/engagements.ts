// Sending the engagement changes queued on an account (data/changes/engagements.ts): a questionnaire
// sent (looked for on the platform first when its last sending went unanswered: reconcile.ts), a
// close, a reopen. The engagement the platform answers is stored; the account's own fields do not
// change, so each operation leaves the outbox as a PIN reset does.

import type { AccountRow, Operation } from '../../data/model.ts';
import { engagementRow, storeEngagements } from '../../data/records.ts';
import { bindSend, findSentEngagement, type EngagementBody } from '../reconcile.ts';
import { failedWrite, failure, refuse } from './outcome.ts';
import type { Handler } from './writes.ts';

const engagementPath = (id: string) => `/engagements/${encodeURIComponent(id)}`;

/** What the send asks of the platform, with the member's id as the platform now knows it. */
function sendBody(op: Operation, account: AccountRow, serverId: number): EngagementBody | null {
  const memberId = op.fields.member === 'coclient' ? account.meta.coclientId : account.meta.clientId;
  if (memberId === null) return null;
  return {
    template_id: String(op.fields.template_id),
    account_id: serverId,
    member_id: memberId,
    email_new: op.fields.email_new === true,
    email_reminders: op.fields.email_reminders === true,
    email_completed: op.fields.email_completed === true,
  };
}

/**
 * `POST /engagements`. The platform offers no idempotency key: a send whose answer never came is
 * looked for before it goes again, and one found is adopted, so the member gets one questionnaire.
 */
export const sendEngagement: Handler = async (ctx, op, target, uncertain, pass) => {
  const account = target.row as AccountRow;
  const body = sendBody(op, account, Number(target.account));
  if (!body)
    return refuse(
      'The co-client is not on the platform, so the questionnaire cannot be sent to them. Add the co-client to the account first.',
    );
  const list = { api: 'v2' as const, method: 'GET' as const, path: '/engagements' };
  if (uncertain) {
    const found = await findSentEngagement(ctx, op, body);
    if (found && 'ok' in found) return { type: 'failed', failure: found, uncertain: true };
    if (found) {
      await storeEngagements(ctx.db, [found]);
      return { type: 'gone' };
    }
  }
  const res = await ctx.send({ api: 'v2', method: 'POST', path: '/engagements', body });
  if (!res.ok) return failedWrite(res, uncertain, pass, list);
  const row = engagementRow(res.data, ctx.now());
  // An answer without the new engagement is as good as none: look for it before sending again.
  if (!row)
    return failedWrite(
      failure('server', 'The platform did not return the new engagement.'),
      true,
      pass,
      list,
    );
  await bindSend(ctx.db, row.id, op.id, ctx.now());
  await storeEngagements(ctx.db, [row]);
  return { type: 'gone' };
};

/**
 * `POST /engagements/{id}/close` or `/reopen`. Either leaves the engagement as asked however often
 * it is sent, so an unanswered one is simply sent again. A 404 means the engagement is gone, which
 * settles it (outcome.ts); the next pull of the list removes it here.
 */
export const transitionEngagement: Handler = async (ctx, op, _target, uncertain, pass) => {
  const id = String(op.fields.engagement);
  const verb = op.kind === 'closeEngagement' ? 'close' : 'reopen';
  const res = await ctx.send({ api: 'v2', method: 'POST', path: `${engagementPath(id)}/${verb}` });
  if (!res.ok)
    return failedWrite(res, uncertain, pass, { api: 'v2', method: 'GET', path: engagementPath(id) });
  const row = engagementRow(res.data, ctx.now());
  if (row?.id === id) await storeEngagements(ctx.db, [row]);
  return { type: 'gone' };
};
