// The operations that send files: a chosen file uploaded to its field, a file removed, and the
// files a create carries as multipart parts. Each replaces what the field held, so sending one
// again after its answer was lost leaves the platform as sending it once would.

import type { ApiRequest, UploadFile } from '@shared/api/request.ts';
import type { AnyRow } from '../../data/changes/index.ts';
import type { AdvisorDb } from '../../data/db.ts';
import { isPendingFile, type PendingFile } from '../../data/files.ts';
import type { Fields, Operation, SyncedTable } from '../../data/model.ts';
import {
  DESCRIPTORS,
  fileInRecord,
  removeFileRequest,
  uploadRequest,
  uploadTimeout,
  type Target,
} from '../requests.ts';
import { failedWrite, refuse, type Outcome } from './outcome.ts';
import type { Pass, PushContext } from './pass.ts';

/**
 * A create whose fields hold files chosen here: a file that is part of its record goes as a
 * multipart part named after its field (a Documents item and its `file` in one request, so that
 * its uncertain create is looked for like any other item); any other file is left out, its own
 * upload follows the create. Null when the bytes of a file are gone.
 */
export async function withFileParts(
  db: AdvisorDb,
  table: SyncedTable,
  row: AnyRow,
  req: ApiRequest,
): Promise<ApiRequest | null> {
  const fields = req.body as Fields | undefined;
  if (!fields || !Object.values(fields).some(isPendingFile)) return req;
  const body: Fields = {};
  const files: UploadFile[] = [];
  for (const [field, value] of Object.entries(fields)) {
    if (!isPendingFile(value)) body[field] = value;
    else if (fileInRecord(table, row, field)) {
      const file = await loadFile(db, value);
      if (!file) return null;
      files.push({ ...file, field });
    }
  }
  if (files.length === 0) return { ...req, body };
  const bytes = files.reduce((sum, file) => sum + file.bytes.length, 0);
  return { ...req, body, files, priority: 'upload', timeoutMs: uploadTimeout(bytes) };
}

/** The bytes of a chosen file, read outside any transaction; null when they are gone. */
async function loadFile(db: AdvisorDb, value: PendingFile): Promise<Omit<UploadFile, 'field'> | null> {
  const kept = await db.files.get(value.localFile);
  if (!kept) return null;
  return { name: kept.name, type: kept.type, bytes: new Uint8Array(await kept.blob.arrayBuffer()) };
}

/**
 * Sends a chosen file. An upload replaces whatever the field held (PUT of a single file), so
 * sending it again after its answer was lost leaves the platform as one upload would: an
 * uncertain upload is simply sent again, there is nothing to look for first.
 */
export async function upload(
  ctx: PushContext,
  op: Operation,
  target: Target,
  uncertain: boolean,
  pass: Pass,
): Promise<Outcome> {
  const [field, value] = Object.entries(op.fields)[0] ?? [];
  if (field === undefined || !isPendingFile(value)) return refuse('This upload names no file.');
  const file = await loadFile(ctx.db, value);
  if (!file) return refuse(`The file “${value.filename}” is no longer on this computer: choose it again.`);
  const res = await ctx.send(uploadRequest(op.table, target, field, file));
  if (!res.ok) return failedWrite(res, uncertain, pass, DESCRIPTORS[op.table].current(target));
  return fileWritten(op.table, target, field, res.data, pass);
}

/** Removes a file. Removing it twice leaves no file either, so an uncertain removal is sent again too. */
export async function removeFile(
  ctx: PushContext,
  op: Operation,
  target: Target,
  uncertain: boolean,
  pass: Pass,
): Promise<Outcome> {
  const field = Object.keys(op.fields)[0];
  if (field === undefined) return refuse('This removal names no file.');
  const res = await ctx.send(removeFileRequest(op.table, target, field));
  if (!res.ok) return failedWrite(res, uncertain, pass, DESCRIPTORS[op.table].current(target));
  return fileWritten(op.table, target, field, null, pass);
}

/**
 * The record as the platform holds it once a file was written. A file that is part of its
 * record is answered with the record (the item, without its id); a file of its own with its
 * File object (nothing once removed), which goes into the record's last server version. Records
 * with files of their own (member details, employment items) hold no relations, so that
 * version is already in server form.
 */
function fileWritten(
  table: SyncedTable,
  target: Target,
  field: string,
  answer: unknown,
  pass: Pass,
): Outcome {
  const d = DESCRIPTORS[table];
  const whole = fileInRecord(table, target.row, field) ? d.snapshot(answer, target) : null;
  const raw = whole ?? { fields: { ...target.row.server, [field]: answer ?? null } };
  pass.wrote(d.current(target), d.collection, target.row.serverId, raw.fields);
  return { type: 'done', raw, adopted: false };
}
