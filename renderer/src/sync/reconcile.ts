// Uncertain creates (DESIGN.md §3): the interfaces have no idempotency keys, so a create whose
// answer never arrived may exist on the server. Before it is sent again, the record is looked
// for there; the push engine adopts what is found. Duplicates are bugs. So for a questionnaire
// sent (an engagement created): looked for by account, member, template and time.

import type { ApiFailure } from '@shared/api/request.ts';
import type { AdvisorDb } from '../data/db.ts';
import { parseAccountPage } from '../data/mappers.ts';
import type { EngagementRow, Fields, Operation, SyncedTable } from '../data/model.ts';
import { engagementRow, rowsOf } from '../data/records.ts';
import { isPlainObject } from '@shared/is-plain-object.ts';
import { boundElsewhere } from './ids.ts';
import { DESCRIPTORS, type Snapshot, type Target } from './requests.ts';
import type { Send } from './send.ts';

export interface LookupContext {
  db: AdvisorDb;
  send: Send;
  /** Reads through the pass's shared server versions (a section's collection is read once). */
  read: Send;
  target: Target;
  /** What the create sends, in server form. */
  sent: Fields;
}

/** The record the create made, null when the server has none, or the failure of the lookup. */
type Lookup = (ctx: LookupContext) => Promise<Snapshot | null | ApiFailure>;

const text = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : '');

/** Accounts by the client's email (the `query` of the account list), then email, first and last name. */
const findAccount: Lookup = async (ctx) => {
  const email = text(ctx.sent['client.email']);
  if (email === '') return null;
  const res = await ctx.send({
    api: 'v2',
    method: 'GET',
    path: '/accounts',
    query: { query: email, type: 'all', limit: 50 },
  });
  if (!res.ok) return res;
  // An answer that is no list finds nothing, as one whose accounts are not this client.
  const page = parseAccountPage(res.data);
  const found = (page.ok ? page.value.items : [])
    .filter((s) => sameClient(s.fields, ctx.sent))
    // Newest first: an older account with the same client was not made by this create.
    .sort((a, b) => Number(b.serverId) - Number(a.serverId));
  return firstUnbound(ctx, 'accounts', found);
};

const sameClient = (theirs: Fields, sent: Fields) =>
  ['client.email', 'client.first_name', 'client.last_name'].every((k) => text(theirs[k]) === text(sent[k]));

/** Section items by listing the collection: every sent field equal once normalized, relations by server id. */
const findItem: Lookup = async (ctx) => {
  const descriptor = DESCRIPTORS.sectionItems;
  const res = await ctx.read(descriptor.current(ctx.target));
  if (!res.ok) return res;
  const found = (Array.isArray(res.data) ? res.data : [])
    .map((item) => descriptor.snapshot(item, ctx.target))
    .filter(
      (s): s is Snapshot =>
        s?.serverId !== undefined &&
        Object.entries(ctx.sent).every(([k, v]) => descriptor.same(ctx.target, k, v, s.fields[k])),
    );
  return firstUnbound(ctx, 'sectionItems', found);
};

/**
 * A server record already bound to another local record was made by that one, not by this create.
 * The first one still free is bound to this record in the same transaction that checked it, so
 * two identical creates reconciled at once (one pass sends several) never adopt the same record.
 */
function firstUnbound(
  ctx: LookupContext,
  table: 'accounts' | 'sectionItems',
  candidates: readonly Snapshot[],
): Promise<Snapshot | null> {
  const rows = ctx.db.table<{ id: string; serverId: number | string | null }, string>(table);
  return ctx.db.transaction('rw', rows, async () => {
    for (const candidate of candidates) {
      if (candidate.serverId === undefined) continue;
      if (await boundElsewhere(ctx.db, table, candidate.serverId, ctx.target.row.id)) continue;
      await rows.update(ctx.target.row.id, { serverId: candidate.serverId });
      return candidate;
    }
    return null;
  });
}

const LOOKUPS: Partial<Record<SyncedTable, Lookup>> = { accounts: findAccount, sectionItems: findItem };

/** Looks for the record an uncertain create may have made. Tables without a lookup never create. */
export function findCreated(table: SyncedTable, ctx: LookupContext): Promise<Snapshot | null | ApiFailure> {
  return LOOKUPS[table]?.(ctx) ?? Promise.resolve(null);
}

// ---- Questionnaires sent (engagements) -----------------------------------------------------------

/** Engagements made by a send of this computer: engagement id → the operation that made it, and when. */
export const ENGAGEMENT_SENDS_KEY = 'engagementSends';
type EngagementSends = Record<string, { opId: string; at: number }>;
/** Bindings kept: far more sends than can be unanswered at once. */
const SENDS_KEPT = 200;

/**
 * The documents do not say in which time zone the platform writes `created_at`: read as UTC, an
 * engagement the send made may look up to 14 hours older than the moment the send was queued.
 */
export const ZONE_TOLERANCE_MS = 14 * 3_600_000;

export const stampMs = (stamp: string) =>
  Date.parse(stamp.replace(' ', 'T') + (stamp.endsWith('Z') ? '' : 'Z'));

/** What `POST /engagements` sends. */
export interface EngagementBody {
  template_id: string;
  account_id: number;
  member_id: number;
  email_new: boolean;
  email_reminders: boolean;
  email_completed: boolean;
}

/**
 * The engagement an unanswered send (`op`) may have made: the list of that account, member and
 * template, without the engagements this computer held when the send was queued (`known`), those
 * made before it was queued, and those another send of this computer made. The oldest of the rest,
 * bound to this send in the transaction that checked it, so that two sends never adopt one.
 */
export async function findSentEngagement(
  ctx: { db: AdvisorDb; send: Send; now: () => number },
  op: Operation,
  body: EngagementBody,
): Promise<EngagementRow | null | ApiFailure> {
  const res = await ctx.send({
    api: 'v2',
    method: 'GET',
    path: '/engagements',
    query: {
      account_id: body.account_id,
      member_id: body.member_id,
      template_id: body.template_id,
      sort: '-created_at',
      limit: 50,
    },
  });
  if (!res.ok) return res;
  const items = isPlainObject(res.data) && Array.isArray(res.data.items) ? res.data.items : [];
  const known = new Set(Array.isArray(op.fields.known) ? op.fields.known : []);
  const candidates = rowsOf(items, (item) => engagementRow(item, ctx.now()))
    .filter(
      (row) =>
        row.accountServerId === body.account_id &&
        row.memberId === body.member_id &&
        row.templateId === body.template_id &&
        !known.has(row.id) &&
        !(stampMs(row.createdAt) < op.createdAt - ZONE_TOLERANCE_MS),
    )
    .reverse();
  return ctx.db.transaction('rw', ctx.db.meta, async () => {
    // Read inside the transaction: a send settled meanwhile is seen.
    const sends = await boundSends(ctx.db);
    const found = candidates.find((row) => [undefined, op.id].includes(sends[row.id]?.opId));
    if (found) await bindSend(ctx.db, found.id, op.id, ctx.now());
    return found ?? null;
  });
}

/** The sends bound under `key` (engagements; forms: sync/form-sends.ts). */
export async function boundSends(db: AdvisorDb, key = ENGAGEMENT_SENDS_KEY): Promise<EngagementSends> {
  const value = (await db.meta.get(key))?.value;
  return isPlainObject(value) ? (value as EngagementSends) : {};
}

/** Records that the send `opId` made the record `madeId` (the newest bindings are kept). */
export async function bindSend(
  db: AdvisorDb,
  madeId: string,
  opId: string,
  at: number,
  key = ENGAGEMENT_SENDS_KEY,
): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const sends = { ...(await boundSends(db, key)), [madeId]: { opId, at } };
    const kept = Object.entries(sends)
      .sort(([, a], [, b]) => b.at - a.at)
      .slice(0, SENDS_KEPT);
    await db.meta.put({ key, value: Object.fromEntries(kept) });
  });
}
