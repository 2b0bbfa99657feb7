// Sending one operation: a create (looked for on the server first when its last sending is
// uncertain, see reconcile.ts), an update compared field by field with the server's version, a
// delete, a single record's write, a PIN reset; file operations are in files.ts, engagement
// changes in engagements.ts, form changes in forms.ts. Each comes to
// an Outcome (outcome.ts), which settle.ts records.

import type { ApiRequest } from '@shared/api/request.ts';
import type { AnyRow } from '../../data/changes/index.ts';
import type { Operation } from '../../data/model.ts';
import { memberSecurityRow } from '../../data/records.ts';
import { findCreated } from '../reconcile.ts';
import { rememberPin } from '../pins.ts';
import { DESCRIPTORS, pinResetRequest, securityRequest, type Target } from '../requests.ts';
import { compare, current, localFields, serverFields } from './compare.ts';
import { sendEngagement, transitionEngagement } from './engagements.ts';
import { removeFile, upload, withFileParts } from './files.ts';
import { formAction, sendForm } from './forms.ts';
import { failedWrite, failure, refuse, type Outcome } from './outcome.ts';
import type { Pass, PushContext } from './pass.ts';

export type Handler = (
  ctx: PushContext,
  op: Operation,
  target: Target,
  uncertain: boolean,
  pass: Pass,
) => Promise<Outcome>;

/** The account a record is sent under; null while that account is not on the server yet. */
export async function targetOf(ctx: PushContext, row: AnyRow): Promise<Target | null> {
  if (!('accountId' in row)) return { row, account: row.serverId };
  const account = await ctx.db.accounts.get(row.accountId);
  return account?.serverId == null ? null : { row, account: account.serverId };
}

const create: Handler = async (ctx, op, target, uncertain, pass) => {
  if (op.table === 'singles') return writeSingle(ctx, op, target, uncertain, pass);
  const d = DESCRIPTORS[op.table];
  const body = await serverFields(ctx.db, d, target.row, op.fields);
  if (!body) return { type: 'wait' };
  if (uncertain) {
    const read = (req: ApiRequest) => pass.read(req);
    const found = await findCreated(op.table, { db: ctx.db, send: ctx.send, read, target, sent: body });
    if (found && 'ok' in found) return { type: 'failed', failure: found, uncertain: true };
    if (found) return { type: 'done', raw: found, adopted: true };
  }
  const created = d.create(target, body);
  if (!created) return refuse('Records of this kind cannot be created here.');
  const req = await withFileParts(ctx.db, op.table, target.row, created);
  if (!req) return refuse('A file of this record is no longer on this computer: choose it again.');
  const res = await ctx.send(req);
  if (!res.ok) return failedWrite(res, uncertain, pass, d.current(target));
  const raw = d.snapshot(res.data, target);
  // An answer without the new id is as good as none: look for the record before sending again.
  if (raw?.serverId === undefined)
    return failedWrite(
      failure('server', 'The platform did not return the new record.'),
      true,
      pass,
      d.current(target),
    );
  pass.wrote(d.current(target), d.collection, raw.serverId, raw.fields);
  return { type: 'done', raw, adopted: false };
};

/**
 * A single record of a recreated account (changes `recreateAccount`): written whole, checked
 * against nothing, since its member on the platform is a new one. Writing it twice leaves it as
 * writing it once, so an uncertain write is simply sent again.
 */
const writeSingle: Handler = async (ctx, op, target, uncertain, pass) => {
  const d = DESCRIPTORS.singles;
  const res = await ctx.send(d.update(target, op.fields, {}));
  if (!res.ok) return failedWrite(res, uncertain, pass, d.current(target));
  const answer = d.snapshot(res.data, target);
  const raw = { fields: { ...op.fields, ...answer?.fields } };
  pass.wrote(d.current(target), d.collection, target.row.serverId, raw.fields);
  return { type: 'done', raw, adopted: false };
};

/**
 * Compares the operation with the server's current version first (compare.ts). Fields changed
 * only on the server are not in the operation, and both interfaces merge updates.
 */
const update: Handler = async (ctx, op, target, uncertain, pass) => {
  const d = DESCRIPTORS[op.table];
  const theirs = await current(d, target, pass);
  if ('ok' in theirs) return { type: 'failed', failure: theirs, uncertain };
  const local = await localFields(ctx.db, d, target.row, theirs.fields);
  const { changes, conflicts } = compare(d, target, op, local);
  if (Object.keys(conflicts).length) return { type: 'conflict', raw: theirs, fields: conflicts };
  if (Object.keys(changes).length === 0) return { type: 'done', raw: theirs, adopted: false };
  const body = await serverFields(ctx.db, d, target.row, changes);
  if (!body) return { type: 'wait' };
  const res = await ctx.send(d.update(target, body, theirs.fields));
  if (!res.ok) return failedWrite(res, uncertain, pass, d.current(target));
  const answer = d.snapshot(res.data, target);
  const raw = { ...theirs, ...answer, fields: { ...theirs.fields, ...body, ...answer?.fields } };
  pass.wrote(d.current(target), d.collection, target.row.serverId, raw.fields);
  const effects = Object.keys(raw.fields).filter((k) => !d.same(target, k, raw.fields[k], theirs.fields[k]));
  return { type: 'done', raw, adopted: false, effects };
};

const remove: Handler = async (ctx, op, target, uncertain, pass) => {
  const d = DESCRIPTORS[op.table];
  const req = d.remove(target);
  if (!req) return refuse('Records of this kind are not deleted through the outbox.');
  const res = await ctx.send(req);
  if (!res.ok) return failedWrite(res, uncertain, pass, d.current(target));
  pass.wrote(d.current(target), d.collection, target.row.serverId, null);
  return { type: 'gone' };
};

/**
 * Asks for a new PIN. Every reset issues a new PIN and the newest is the one in force, so an
 * uncertain reset is sent again rather than looked for: the member ends with one PIN, the one
 * the answer carries (the activity feed may then list the reset twice). The answer is the
 * member's security record (its status stored, its PIN kept in memory: pins.ts); the account
 * itself does not change.
 */
const resetPin: Handler = async (ctx, op, target, uncertain, pass) => {
  const member = op.fields.member === 'coclient' ? 'coclient' : 'client';
  const res = await ctx.send(pinResetRequest(target.account, member));
  if (!res.ok) return failedWrite(res, uncertain, pass, securityRequest(target.account, member));
  // The status is stored; the new PIN only in memory, until the advisor asks to see it.
  const security = memberSecurityRow(res.data, Number(target.account), member, ctx.now());
  if (security) await ctx.db.memberSecurity.put(security);
  rememberPin(Number(target.account), member, res.data);
  // Nothing of the account changed: the operation leaves the outbox as a confirmed delete does.
  return { type: 'gone' };
};

/** How each kind of operation is sent. */
export const HANDLERS: Partial<Record<Operation['kind'], Handler>> = {
  create,
  update,
  delete: remove,
  upload,
  removeFile,
  resetPin,
  sendEngagement,
  closeEngagement: transitionEngagement,
  reopenEngagement: transitionEngagement,
  sendForm,
  resendForm: formAction,
  closeForm: formAction,
};
