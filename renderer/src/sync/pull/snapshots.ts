// The one rule of every pull: a server snapshot is stored under the record's pending changes,
// never over them. Records the server no longer has are removed, or kept and flagged
// `deletedOnServer` while a change of them is pending here.

import { accountIndex } from '../../data/accounts.ts';
import type { AdvisorDb } from '../../data/db.ts';
import { keepLocalIds } from '../../data/mappers.ts';
import type {
  AccountRow,
  Fields,
  Operation,
  SectionItemRow,
  SingleRow,
  SyncedRow,
  SyncedTable,
} from '../../data/model.ts';
import { pendingOps } from '../../data/queries/index.ts';
import { localView, sameValue } from '../../data/view.ts';
import type { PullReport } from './report.ts';

type RowOf<T extends SyncedTable> = T extends 'accounts'
  ? AccountRow
  : T extends 'sectionItems'
    ? SectionItemRow
    : SingleRow;

export interface SnapshotUpdate<T extends SyncedTable> {
  /** The row as it is (or a new row); accounts carry the new `meta` already. */
  row: RowOf<T>;
  server: Fields;
}

function snapshotRow<R extends SyncedRow>(
  table: SyncedTable,
  row: R,
  server: Fields,
  pending: Operation[],
): R {
  const { deletedOnServer: _gone, ...rest } = row;
  // A pending delete has no view: the row keeps what the user last saw until the delete is sent.
  const fields = localView(server, pending) ?? row.fields;
  const next = { ...rest, server, fields, status: pending.length > 0 ? row.status : 'synced' } as R;
  if (!sameValue(row.server, server)) next.serverAt = Date.now();
  if (table !== 'accounts') return next;
  const account = next as unknown as AccountRow;
  return { ...account, ...accountIndex(account.fields, account.meta) } as unknown as R;
}

/**
 * Stores server snapshots: `server` = the snapshot, `fields` = the snapshot with the record's
 * pending operations re-applied, account index columns recomputed, status `synced` unless
 * operations are pending (then unchanged). Reading the outbox and writing the rows is one
 * transaction, so a local change cannot slip in between. Returns the number of rows written.
 */
export async function applySnapshots<T extends SyncedTable>(
  db: AdvisorDb,
  table: T,
  updates: readonly SnapshotUpdate<T>[],
): Promise<number> {
  if (updates.length === 0) return 0;
  const store = db.table<RowOf<T>, string>(table);
  return db.transaction('rw', [store, db.outbox], async () => {
    const pending = await pendingOps(
      db,
      table,
      updates.map((u) => u.row.id),
    );
    const rows = updates.map((u) => snapshotRow(table, u.row, u.server, pending.get(u.row.id) ?? []));
    await store.bulkPut(rows);
    return rows.length;
  });
}

/** Local records the server no longer has: removed when nothing is pending for them, else flagged. */
export async function goneFromServer(
  db: AdvisorDb,
  table: 'sectionItems' | 'singles',
  rows: readonly SyncedRow[],
  now: number,
  report: PullReport,
): Promise<void> {
  const pending = await pendingOps(
    db,
    table,
    rows.map((r) => r.id),
  );
  const kept = rows.filter((r) => pending.has(r.id));
  const removed = rows.filter((r) => !pending.has(r.id));
  if (table === 'sectionItems') await keepLocalIds(db, removed as SectionItemRow[]);
  await db.table(table).bulkDelete(removed.map((r) => r.id));
  for (const row of kept) await db.table(table).update(row.id, { deletedOnServer: now });
  report.removed += rows.length - kept.length;
  report.flagged += kept.length;
}

/**
 * Creates whose answer never arrived (in flight or being retried) may already exist on the
 * server. The reconciler adopts those; until it has, a pull must not add the server's copy as a
 * second local record.
 */
export async function uncertainCreates(db: AdvisorDb, table: SyncedTable): Promise<Operation[]> {
  const ops = await db.outbox.where('state').anyOf('inflight', 'retry').toArray();
  return ops.filter((op) => op.kind === 'create' && op.table === table);
}

/** A row may take a snapshot fetched after `before` only if nobody (the push) wrote a fresher one meanwhile. */
export function untouchedSince(before: SyncedRow | undefined, now: SyncedRow | undefined): boolean {
  if (!before || !now) return before === now;
  return sameValue(before.server, now.server);
}
