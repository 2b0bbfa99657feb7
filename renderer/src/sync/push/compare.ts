// An operation against the server's version of its record: per field, server == base sends mine,
// server == mine sends nothing, anything else is a conflict for the user. And after a write, the
// bases of the record's later operations, rebased on what the server now holds.

import type { ApiFailure } from '@shared/api/request.ts';
import type { AnyRow } from '../../data/changes/index.ts';
import type { AdvisorDb } from '../../data/db.ts';
import { isPendingFile } from '../../data/files.ts';
import type { ConflictRow, Fields, Operation, SectionItemRow } from '../../data/model.ts';
import { relationsToLocal, relationsToServer } from '../ids.ts';
import type { Snapshot, TableDescriptor, Target } from '../requests.ts';
import { failure, goneFromServer } from './outcome.ts';
import type { Pass } from './pass.ts';

/** The record's current server version, or the failure (404 when it is gone). */
export async function current(
  d: TableDescriptor,
  target: Target,
  pass: Pass,
): Promise<Snapshot | ApiFailure> {
  const res = await pass.read(d.current(target));
  if (!res.ok) return res;
  const picked = d.pick(res.data, target);
  if (picked === undefined) return goneFromServer();
  const snapshot = d.snapshot(picked, target);
  return snapshot ?? failure('server', 'The platform answered something that is not the record.');
}

/** The fields to send (theirs is still the base) and the fields in conflict (both sides changed them). */
export function compare(d: TableDescriptor, target: Target, op: Operation, theirs: Fields) {
  const changes: Fields = {};
  const conflicts: ConflictRow['fields'] = {};
  for (const [field, mine] of Object.entries(op.fields)) {
    const base = op.base[field] ?? null;
    if (d.same(target, field, theirs[field], mine)) continue;
    if (d.same(target, field, theirs[field], base)) changes[field] = mine;
    else conflicts[field] = { base, mine, theirs: theirs[field] ?? null };
  }
  return { changes, conflicts };
}

/** Fields with their relations in server ids; null while a relation's target is not on the server. */
export function serverFields(
  db: AdvisorDb,
  d: TableDescriptor,
  row: AnyRow,
  fields: Fields,
): Promise<Fields | null> {
  return d.relations ? relationsToServer(db, row as SectionItemRow, fields) : Promise.resolve(fields);
}

/** Fields with their relations in local ids. */
export function localFields(db: AdvisorDb, d: TableDescriptor, row: AnyRow, fields: Fields): Promise<Fields> {
  return d.relations ? relationsToLocal(db, row as SectionItemRow, fields) : Promise.resolve(fields);
}

/**
 * What a create sent that the server did not take (fields its interface takes only on update). A
 * file sent with the create is the platform's now, whatever name it stored it under.
 */
export function leftover(d: TableDescriptor, target: Target, fields: Fields, theirs: Fields): Fields {
  return Object.fromEntries(
    Object.entries(fields).filter(
      ([k, v]) => v != null && !isPendingFile(v) && !d.same(target, k, v, theirs[k]),
    ),
  );
}

/** The create's leftover, queued as an update against what the server made of the record. */
export function asUpdate(op: Operation, fields: Fields, theirs: Fields): Operation {
  const base = Object.fromEntries(Object.keys(fields).map((k) => [k, theirs[k] ?? null]));
  return {
    ...op,
    kind: 'update',
    fields,
    base,
    state: 'queued',
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
  };
}

/** A later operation's base for the fields an operation just wrote: what the server holds now. */
export function rebased(later: Operation, written: readonly string[], theirs: Fields): Operation {
  const base = { ...later.base };
  for (const field of written) if (field in base) base[field] = theirs[field] ?? null;
  return { ...later, base };
}
