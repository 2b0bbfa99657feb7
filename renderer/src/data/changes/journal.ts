// The change journal's writing side: what a change records of itself for the meeting summary, in
// the change's own transaction, from what the change already holds (no read), and what the push
// and the outbox's merges record so that an entry follows the operation that carries it.

import type { AdvisorDb } from '../db.ts';
import type { Fields, JournalEntry, SyncedTable } from '../model.ts';
import type { AnyRow } from './operations.ts';

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** The record's household and section, and its name as typed: from the row alone. */
function placeOf(table: SyncedTable, row: AnyRow, fields: Fields) {
  if (table === 'accounts') return { accountId: row.id, section: 'account', label: '' };
  const label =
    'section' in row
      ? text(fields.name) || [text(fields.first_name), text(fields.last_name)].filter(Boolean).join(' ')
      : '';
  return {
    accountId: (row as { accountId: string }).accountId,
    section: 'section' in row ? row.section : (row as { key: string }).key,
    label,
  };
}

/** One entry per field this patch changed (`before` is the row's value ahead of it). */
export async function journalPatch(
  db: AdvisorDb,
  table: SyncedTable,
  row: AnyRow,
  changed: Fields,
  opId: string | null,
  at: number,
): Promise<void> {
  const place = placeOf(table, row, { ...row.fields, ...changed });
  const entries: JournalEntry[] = Object.entries(changed).map(([field, after]) => ({
    ...place,
    at,
    opId,
    table,
    recordId: row.id,
    kind: 'update',
    field,
    before: row.fields[field] ?? null,
    after: after ?? null,
  }));
  await db.journal.bulkAdd(entries);
}

/** One entry for a record made, deleted, or a file chosen or removed for one of its fields. */
export async function journalRecord(
  db: AdvisorDb,
  table: SyncedTable,
  row: AnyRow,
  kind: 'create' | 'delete' | 'upload' | 'removeFile',
  change: { field?: string; before?: unknown; after?: unknown },
  opId: string | null,
  at: number,
): Promise<void> {
  await db.journal.add({
    ...placeOf(table, row, row.fields),
    at,
    opId,
    table,
    recordId: row.id,
    kind,
    field: change.field ?? null,
    before: change.before ?? null,
    after: change.after ?? null,
  });
}

/**
 * Operations merged into another (a refused change absorbing the edits behind it, a record made
 * again): their entries now share the fate of the one that carries them.
 */
export async function journalMoved(db: AdvisorDb, from: readonly string[], to: string): Promise<void> {
  if (from.length === 0) return;
  await db.journal.where('opId').anyOf(from).modify({ opId: to });
}

/** The platform has the operation: called by the push in the transaction that settles it. */
export async function journalSent(db: AdvisorDb, opId: string, at: number): Promise<void> {
  await db.journal.where('opId').equals(opId).modify({ sentAt: at });
}
