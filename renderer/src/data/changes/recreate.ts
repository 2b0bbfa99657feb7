// "Keep mine" for a record the server deleted: an account and every record under it are created
// again from their local view, parents first; an item made again leaves its old server id behind.

import { emptyMeta } from '../accounts.ts';
import type { AdvisorDb } from '../db.ts';
import { fileField, isPendingFile } from '../files.ts';
import { fieldsOfKind, sectionOfKey } from '@shared/sections.ts';
import { keepLocalIds, newLocalId, relationTargetsKey } from '../mappers.ts';
import type { AccountRow, Fields, Operation, SectionItemRow, SingleRow, SyncedTable } from '../model.ts';
import { refreshQuality } from '../quality.ts';
import { journalMoved } from './journal.ts';
import {
  forgetRecord,
  newOperation,
  recordOps,
  refreshRow,
  requeued,
  rowsOf,
  type AnyRow,
} from './operations.ts';

/**
 * Recreates an account the server deleted, with every record under it: the account, its section
 * items and its single records each get ONE create carrying their local view (server ids and
 * snapshots cleared; relations keep naming local ids and are translated when sent), which takes
 * the place of their queued creates and updates and of any conflict they met; their uploads,
 * file removals and PIN resets follow it. The account's create keeps its place in the outbox and
 * the others are queued after it, so parents go first. An item whose delete was queued is simply
 * forgotten. Files the platform held (not chosen here) went with the account: choose them again.
 */
export async function recreateAccount(db: AdvisorDb, account: AccountRow, settled: string[]): Promise<void> {
  const now = Date.now();
  const items = await db.sectionItems.where('accountId').equals(account.id).toArray();
  const singles = await db.singles.where('accountId').equals(account.id).toArray();
  await recreateRecord(db, 'accounts', account, null, now, settled);
  for (const item of items) await recreateRecord(db, 'sectionItems', item, account.id, now, settled);
  for (const single of singles) await recreateRecord(db, 'singles', single, account.id, now, settled);
  // Reserved ids mapped server ids of the deleted account's items: none of them exists any more.
  await db.meta.delete(relationTargetsKey(account.id));
  // The platform's score went with the account: the recreated one is estimated until it answers.
  await refreshQuality(db, account.id);
}

async function recreateRecord(
  db: AdvisorDb,
  table: SyncedTable,
  row: AnyRow,
  parentId: string | null,
  now: number,
  settled: string[],
): Promise<void> {
  const ops = await recordOps(db, table, row.id);
  if (ops.at(-1)?.kind === 'delete') return forgetRecord(db, table, row.id, ops, settled);
  const fields = recreatedFields(table, row);
  const data = ops.filter((o) => o.kind === 'create' || o.kind === 'update');
  const others = ops.filter((o) => o.kind !== 'create' && o.kind !== 'update');
  // A single record with nothing in it needs no write: a new member starts empty.
  if (table === 'singles' && data.length === 0 && Object.values(fields).every((v) => v == null)) return;
  const first = data[0];
  const create: Operation = first
    ? { ...requeued(first), kind: 'create', fields, base: {}, parentId, seq: undefined }
    : await newOperation(db, table, row.id, 'create', fields, {}, parentId, now);
  for (const o of ops) {
    if (o.seq !== undefined) await db.outbox.delete(o.seq);
    await db.conflicts.delete(o.id);
  }
  for (const o of data.slice(1)) settled.push(o.id);
  await journalMoved(
    db,
    data.slice(1).map((o) => o.id),
    create.id,
  );
  // The account's create stays where its first operation was; the rest queue behind it in order.
  const { seq: _dropped, ...createRest } = create;
  if (table === 'accounts' && first?.seq !== undefined)
    await db.outbox.add({ ...createRest, seq: first.seq });
  else await db.outbox.add(createRest);
  for (const o of others) {
    const { seq: _old, ...rest } = o;
    await db.outbox.add(o.state === 'conflict' ? requeued(rest) : rest);
  }
  const fresh: AnyRow = { ...row, server: null, deletedOnServer: null };
  // A single record's id is its place (its member's); the others get a new server id when sent.
  if (table !== 'singles') fresh.serverId = null;
  if (table === 'accounts') (fresh as AccountRow).meta = emptyMeta();
  await rowsOf(db, table).put(refreshRow(table, fresh, await recordOps(db, table, row.id)));
}

const MEMBER_MIRROR = /^(first_name|last_name|email|phone)(\.|$)/;

/**
 * What a recreated record sends: its local view, without the files the platform held (a file
 * chosen here and not sent yet stays: in a create that carries it, or in its own upload).
 */
export function recreatedFields(table: SyncedTable, row: AnyRow): Fields {
  const details = table === 'singles' && (row as SingleRow).key.startsWith('details:');
  return Object.fromEntries(
    Object.entries(row.fields).filter(([k, v]) => {
      // The account's create carries the member's name, email and phone; the details' copy of
      // them is the last server snapshot, older than any edit of the account here.
      if (details && MEMBER_MIRROR.test(k)) return false;
      const spec = fileField(table, row, k);
      return !spec || (spec.inRecord && isPendingFile(v));
    }),
  );
}

/**
 * An item the server deleted is made again under its local id, with a new server id to come. The
 * platform keeps the relations that named the deleted one (see `keepLocalIds`): they still name
 * it, not the new item. So its old server id gets a local id of its own, and the server versions
 * and bases of the account's other items follow; else the platform's unchanged relation would
 * read as a change made there, a conflict with any edit of it. Changes made here that name the
 * item keep naming it: they mean the item made again.
 */
export async function leaveServerIdBehind(db: AdvisorDb, item: SectionItemRow): Promise<void> {
  if (item.serverId === null) return;
  const gone = newLocalId();
  await keepLocalIds(db, [{ ...item, id: gone }]);
  const renamed = (row: SectionItemRow, fields: Fields): Fields | null => {
    const section = sectionOfKey(row.section)?.section;
    let out: Fields | null = null;
    for (const field of section ? fieldsOfKind(section, 'relation') : []) {
      const value = fields[field] as { id?: unknown } | null | undefined;
      if (value?.id === item.id) (out ??= { ...fields })[field] = { ...value, id: gone };
    }
    return out;
  };
  for (const row of await db.sectionItems.where('accountId').equals(item.accountId).toArray()) {
    if (row.id === item.id) continue;
    const server = row.server && renamed(row, row.server);
    const ops = await recordOps(db, 'sectionItems', row.id);
    const rebased = ops.map((op) => {
      const base = renamed(row, op.base);
      return base ? { ...op, base } : op;
    });
    for (const [i, op] of rebased.entries()) if (op !== ops[i]) await db.outbox.put(op);
    if (server) await db.sectionItems.put(refreshRow('sectionItems', { ...row, server }, rebased));
  }
}
