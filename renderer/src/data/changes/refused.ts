// Changes the platform refused (403, 422): what waited behind one joins it, and "try again"
// sends one again as it is.

import type { AdvisorDb } from '../db.ts';
import type { Operation } from '../model.ts';
import {
  ChangeRefused,
  SYNC_TABLES,
  dropOperations,
  forgetRecord,
  mergeable,
  recordOps,
  refreshRow,
  requeued,
  rowsOf,
  unsent,
} from './operations.ts';
import { journalMoved } from './journal.ts';
import { announce } from './outbox-events.ts';

/**
 * The platform refused a change while later changes of its record waited behind it (made while it
 * was in flight). Those were never sent: later edits join it, as they would have had it not been
 * in flight, so that the user's fix (merged into the refused change) sends them all, in order. A
 * delete behind it settles the matter: the refused change is dropped (a refused create with its
 * record, as for any create not sent). Called by the push inside its transaction; answers the ids
 * of the changes that joined the refused one, which now share its fate.
 */
export async function absorbBehindRefused(
  db: AdvisorDb,
  refused: Operation,
  settled: string[],
): Promise<string[]> {
  const ops = await recordOps(db, refused.table, refused.recordId);
  const later = ops.filter((o) => (o.seq ?? 0) > (refused.seq ?? 0));
  if (later.some((o) => o.kind === 'delete' || replacesFile(o, refused))) {
    if (refused.kind === 'create') await forgetRecord(db, refused.table, refused.recordId, ops, settled);
    else await dropOperations(db, [refused], settled);
    return [];
  }
  // Only edits join an edit (an upload's fix is another file, which replaces the upload).
  const joining = mergeable(refused) ? later.filter((o) => o.kind === 'update' && unsent(o)) : [];
  if (joining.length === 0) return [];
  let merged = refused;
  for (const o of joining) {
    merged = { ...merged, fields: { ...merged.fields, ...o.fields } };
    // The base of a field stays the server value when it was first changed here.
    if (merged.kind === 'update') merged.base = { ...o.base, ...merged.base };
    if (o.seq !== undefined) await db.outbox.delete(o.seq);
  }
  await db.outbox.put(merged);
  const joined = joining.map((o) => o.id);
  await journalMoved(db, joined, refused.id);
  return joined;
}

/**
 * A file chosen (or removed) for the field of a refused upload or removal, queued behind it while
 * it was in flight: that is the user's fix already, and it takes the refused one's place. Left
 * there, the refused one would hold the record's queue for ever, since a file chosen next
 * replaces the last change of the field (this one), never the refused one.
 */
const replacesFile = (later: Operation, refused: Operation): boolean =>
  isFileChange(refused) && isFileChange(later) && Object.keys(refused.fields).every((f) => f in later.fields);

const isFileChange = (op: Operation) => op.kind === 'upload' || op.kind === 'removeFile';

/**
 * Sends a refused change again as it is (a permission granted since, a rule changed on the
 * platform). Editing the record requeues it too (`mergeInto`); this is for "try again" without
 * an edit.
 */
export async function retryRejected(db: AdvisorDb, opId: string): Promise<void> {
  await db.transaction('rw', SYNC_TABLES, async () => {
    const op = await db.outbox.where('id').equals(opId).first();
    if (!op || op.state !== 'rejected')
      throw new ChangeRefused(`The change ${opId} is not one the platform refused.`);
    await db.outbox.put(requeued(op));
    const row = await rowsOf(db, op.table).get(op.recordId);
    const ops = await recordOps(db, op.table, op.recordId);
    if (row) await rowsOf(db, op.table).put(refreshRow(op.table, row, ops));
  });
  announce(db, []);
}
