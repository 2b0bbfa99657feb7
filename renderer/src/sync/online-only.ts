// Deletes that need the user's password (version 2 document: "the password of the authenticated
// user is verified on every delete") and therefore a connection (DESIGN.md §4). They never go
// through the outbox: the password is sent once, in the request, and kept nowhere, neither in
// the local database nor in an error or a log. Offline, they are refused in plain words.

import type { ApiFailure, ApiRequest } from '@shared/api/request.ts';
import { ChangeRefused, SYNC_TABLES, forgetAccount, recordOps } from '../data/changes/index.ts';
import type { AdvisorDb } from '../data/db.ts';
import { permissionRefusal } from '../data/permissions.ts';
import { accountRecordTables, removeAccountRecords, removeEngagements } from '../data/records.ts';
import type { Send } from './send.ts';

export type DeleteRefusal = 'offline' | 'unsent' | 'password' | 'forbidden' | 'failed';

/** Why an online delete did not happen; `fields.password` holds the message for the password field. */
export class DeleteRefused extends ChangeRefused {
  override name = 'DeleteRefused';
  constructor(
    message: string,
    readonly reason: DeleteRefusal,
    readonly fields: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

export interface OnlineOptions {
  /** What the app knows of the connection; false refuses at once, without sending the password. */
  online?: boolean;
}

/**
 * Deletes an account on the platform (version 2, DELETE with the password), then everything of it
 * on this machine in one transaction: the account, its section items and single records, their
 * queued operations, conflicts and files, and the read-only records pulled for it (security,
 * activity, forms, engagements). Unsent changes of the account's items go with it; that is what
 * deleting the account means. Refused while the account itself has not reached the platform:
 * there is nothing there to delete yet, or its create is in flight and may still land.
 */
export async function deleteAccountOnline(
  db: AdvisorDb,
  send: Send,
  localId: string,
  password: string,
  options: OnlineOptions = {},
): Promise<void> {
  const account = await db.accounts.get(localId);
  if (!account) throw new DeleteRefused('This account is not on this computer.', 'failed');
  const unsentCreate = (await recordOps(db, 'accounts', localId)).some((op) => op.kind === 'create');
  if (account.serverId === null || unsentCreate)
    throw new DeleteRefused(
      'This account has not reached the platform yet. Let it sync first, then delete it.',
      'unsent',
    );
  const serverId = account.serverId;
  const path = `/accounts/${serverId}`;
  await deleteOnline(send, { api: 'v2', method: 'DELETE', path }, password, {
    what: 'account',
    ...options,
  });
  await db.transaction('rw', [...SYNC_TABLES, 'meta', ...accountRecordTables(db)], async () => {
    await forgetAccount(db, localId);
    await removeAccountRecords(db, Number(serverId));
  });
}

/**
 * Deletes an engagement on the platform (version 2, DELETE with the password), by its id (the
 * uuid, which its local row keeps as its own id). The local row and its parts go once the
 * platform confirms. Without `engagements.delete` (as the pulled user resource says) nothing is sent.
 */
export async function deleteEngagementOnline(
  db: AdvisorDb,
  send: Send,
  engagementId: string,
  password: string,
  options: OnlineOptions = {},
): Promise<void> {
  const refused = await permissionRefusal(db, 'engagements.delete');
  if (refused) throw new DeleteRefused(refused, 'forbidden');
  const path = `/engagements/${encodeURIComponent(engagementId)}`;
  await deleteOnline(send, { api: 'v2', method: 'DELETE', path }, password, {
    what: 'engagement',
    ...options,
  });
  await removeEngagements(db, [engagementId]);
}

/**
 * Sends one delete with the password. A 404 counts as done: what the user wanted is true. Every
 * failure becomes a DeleteRefused whose message never holds the password.
 */
async function deleteOnline(
  send: Send,
  req: ApiRequest,
  password: string,
  context: OnlineOptions & { what: string },
): Promise<void> {
  const { what } = context;
  if (context.online === false) throw offline(what);
  if (password === '')
    throw new DeleteRefused(`Enter your password to delete this ${what}.`, 'password', {
      password: ['Enter your password.'],
    });
  // Immediate: the user is waiting on this one request, ahead of the pull of the account they opened.
  const res = await send({ ...req, body: { password }, priority: 'immediate' });
  if (res.ok || res.kind === 'not-found') return;
  if (!UNCERTAIN.has(res.kind)) throw refusal(res, what);
  // No answer, or a 5xx the platform may have given after deleting: ask whether it is still there.
  const check = await send({ api: req.api, method: 'GET', path: req.path, priority: 'immediate' });
  if (!check.ok && check.kind === 'not-found') return;
  throw check.ok ? stillThere(res, what) : uncertain(res, what);
}

/** Failures after which the delete may have been carried out (as the push engine's UNCERTAIN). */
const UNCERTAIN: ReadonlySet<ApiFailure['kind']> = new Set(['network', 'timeout', 'server']);

/** The delete failed and the record is known to be still on the platform. */
function stillThere(failure: ApiFailure, what: string): DeleteRefused {
  const why =
    failure.kind === 'server'
      ? `The platform could not delete the ${what} (${failure.message})`
      : failure.kind === 'timeout'
        ? 'The platform did not answer in time'
        : 'The connection to the platform failed';
  return new DeleteRefused(
    `${why}. The ${what} is still there: nothing was deleted. Try again in a moment.`,
    failure.kind === 'server' ? 'failed' : 'offline',
  );
}

/** The delete may or may not have been carried out, and asking the platform did not tell. */
function uncertain(failure: ApiFailure, what: string): DeleteRefused {
  // The next pull tells, by the record being gone.
  if (failure.kind === 'server')
    return new DeleteRefused(
      `The platform answered with an error (${failure.message}), so the ${what} may or may not be deleted. Try again in a moment; if it is gone, the next sync removes it here too.`,
      'failed',
    );
  const why =
    failure.kind === 'timeout'
      ? 'The platform did not answer in time'
      : 'The connection to the platform failed; you may be offline';
  return new DeleteRefused(
    `${why}, so the ${what} may or may not be deleted. Deleting an ${what} needs a connection, because the platform checks your password. Check your connection and try again; if it is gone, the next sync removes it here too.`,
    'offline',
  );
}

const offline = (what: string) =>
  new DeleteRefused(
    `You are offline. Deleting an ${what} needs a connection, because the platform checks your password. Nothing was deleted.`,
    'offline',
  );

function refusal(failure: ApiFailure, what: string): DeleteRefused {
  const words = (failure.fields.password ?? []).join(' ') || failure.message;
  switch (failure.kind) {
    case 'validation':
      return new DeleteRefused(`The platform did not accept your password: ${words}`, 'password', {
        password: [words],
      });
    case 'auth':
      return new DeleteRefused(
        'The platform did not accept your credentials. Check your password; if it is right, sign in again.',
        'password',
        { password: ['Check your password.'] },
      );
    case 'forbidden':
      return new DeleteRefused(
        `The platform refused to delete this ${what}: ${failure.message} Check your password and your permission to delete.`,
        'forbidden',
        { password: ['Check your password.'] },
      );
    default:
      return new DeleteRefused(
        `The platform could not delete the ${what} now (${failure.message}). Nothing was deleted; try again in a moment.`,
        'failed',
      );
  }
}
