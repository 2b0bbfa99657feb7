// Uncertain creates (DESIGN.md §3): the interfaces have no idempotency keys, so a create whose
// answer never arrived may exist on the server. Before it is sent again, the record is looked
// for there; the push engine adopts what is found. Duplicates are bugs.

import type { ApiFailure } from '@shared/api/request.ts';
import type { AdvisorDb } from '../data/db.ts';
import { parseAccountPage } from '../data/mappers.ts';
import type { Fields, SyncedTable } from '../data/model.ts';
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
