// Accounts as the version 2 interface gives them, into the store: snapshots taken unless older
// than what is held, none added while an uncertain create may be its copy, and one account
// confirmed by asking for it (a 404 under the store's team: it is gone from the server, with
// everything of it).

import type { Priority } from '@shared/api/request.ts';
import type { AdvisorDb } from '../../data/db.ts';
import {
  accountSnapshot,
  newAccountRow,
  relationTargetsKey,
  type AccountSnapshot,
} from '../../data/mappers.ts';
import type { AccountRow } from '../../data/model.ts';
import { pendingOps } from '../../data/queries/index.ts';
import { accountRecordTables, removeAccountRecords } from '../../data/records.ts';
import { sameValue } from '../../data/view.ts';
import { call, teamConfirmed, type PullContext } from './context.ts';
import { failed, unreadable, type PullReport } from './report.ts';
import { applySnapshots, uncertainCreates, type SnapshotUpdate } from './snapshots.ts';

const emailKey = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : '');

/** True when a stored account should take this snapshot (it is not older than what we hold). */
function takesSnapshot(row: AccountRow, snapshot: AccountSnapshot): boolean {
  if (row.server === null || row.deletedOnServer) return true;
  const held = row.meta.updated_at ?? '';
  const given = snapshot.meta.updated_at ?? '';
  if (given !== held) return given > held;
  return !sameValue(row.server, snapshot.fields) || !sameValue(row.meta, snapshot.meta);
}

/**
 * The stored accounts of these snapshots, by server id: one index read each, all sent at once.
 * `anyOf` walks one cursor over the index, each step awaited before the next: a list page of
 * 500 accounts took 500 round trips in turn, most of a page's time in a first sync.
 */
async function storedByServerId(
  db: AdvisorDb,
  snapshots: readonly AccountSnapshot[],
): Promise<Map<number, AccountRow>> {
  const rows = await Promise.all(snapshots.map((s) => db.accounts.get({ serverId: s.serverId })));
  const byId = new Map<number, AccountRow>();
  for (const row of rows) if (row && typeof row.serverId === 'number') byId.set(row.serverId, row);
  return byId;
}

export async function applyAccounts(
  db: AdvisorDb,
  snapshots: readonly AccountSnapshot[],
  report: PullReport,
): Promise<void> {
  if (snapshots.length === 0) return;
  await db.transaction('rw', [db.accounts, db.outbox], async () => {
    const existing = await storedByServerId(db, snapshots);
    const uncertain = new Set(
      (await uncertainCreates(db, 'accounts')).map((op) => emailKey(op.fields['client.email'])),
    );
    uncertain.delete('');
    const updates: SnapshotUpdate<'accounts'>[] = [];
    for (const snapshot of snapshots) {
      const row = existing.get(snapshot.serverId);
      if (row ? !takesSnapshot(row, snapshot) : uncertain.has(emailKey(snapshot.fields['client.email'])))
        continue;
      updates.push({
        row: { ...(row ?? newAccountRow(snapshot)), meta: snapshot.meta },
        server: snapshot.fields,
      });
    }
    report.written += await applySnapshots(db, 'accounts', updates);
  });
}

/**
 * Refreshes one account; a 404 means it is gone from the server, once the platform confirms its
 * team is the store's (`teamKnown`: the caller has just confirmed it). Returns its snapshot.
 */
export async function confirmAccount(
  ctx: PullContext,
  serverId: number,
  localId: string,
  report: PullReport,
  priority: Priority,
  teamKnown = false,
): Promise<AccountSnapshot | null> {
  const path = `/accounts/${serverId}`;
  const result = await call(ctx, report, { api: 'v2', method: 'GET', path, priority });
  if (!result.ok && result.kind === 'not-found') {
    if (!teamKnown && !(await teamConfirmed(ctx, report, priority))) return failed(report, path, result);
    const row = await ctx.db.accounts.get(localId);
    if (row && row.serverId === serverId) await accountGoneFromServer(ctx.db, row, ctx.now(), report);
    return null;
  }
  if (!result.ok) return failed(report, path, result);
  const snapshot = accountSnapshot(result.data);
  if (!snapshot) return unreadable(report, path);
  report.records += 1;
  await applyAccounts(ctx.db, [snapshot], report);
  return snapshot;
}

/**
 * An account deleted on the server: removed with its items, single sections and reserved ids,
 * unless a change is pending for it or anything of it; then kept and flagged `deletedOnServer`.
 * Its read-only records go either way: the server has none any more, and none holds a change.
 */
async function accountGoneFromServer(
  db: AdvisorDb,
  account: AccountRow,
  now: number,
  report: PullReport,
): Promise<void> {
  const tables = [db.accounts, db.sectionItems, db.singles, db.outbox, db.meta, ...accountRecordTables(db)];
  await db.transaction('rw', tables, async () => {
    if (typeof account.serverId === 'number')
      report.removed += await removeAccountRecords(db, account.serverId);
    const items = await db.sectionItems.where('accountId').equals(account.id).primaryKeys();
    const singles = await db.singles.where('accountId').equals(account.id).primaryKeys();
    const pending =
      (await pendingOps(db, 'accounts', [account.id])).size +
      (await pendingOps(db, 'sectionItems', items)).size +
      (await pendingOps(db, 'singles', singles)).size;
    if (pending > 0) {
      await db.accounts.update(account.id, { deletedOnServer: now });
      report.flagged += 1;
      return;
    }
    await db.sectionItems.bulkDelete(items);
    await db.singles.bulkDelete(singles);
    await db.meta.delete(relationTargetsKey(account.id));
    await db.accounts.delete(account.id);
    report.removed += 1 + items.length + singles.length;
  });
}
