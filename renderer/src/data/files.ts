// Files of records (0.0.1 document): the member photo and driver's-license document of full member
// details, the document of an employment item, and the file of a Documents item. A file chosen
// here is kept as a blob (`files` table) until its upload is answered; meanwhile the record's field
// shows it as a PendingFile, the File object's shape without an address, so screens can show its
// name and size at once.

import { fieldsOfKind, sectionOfKey } from '@shared/sections.ts';
import type { FileRow, SyncedTable } from './model.ts';

/** What the user chose: the bytes, or a Blob (a File from an input is one). */
export interface FileInput {
  name: string;
  type: string;
  bytes?: Uint8Array;
  blob?: Blob;
}

/** A file field's value while its upload waits: the File object's fields, `localFile` naming the blob. */
export interface PendingFile {
  type: 'image' | 'document';
  url: null;
  filetype: string;
  /** KB, as the File object gives it. */
  filesize: number;
  filename: string;
  /** Id of the FileRow holding the bytes. */
  localFile: string;
}

export interface FileField {
  kind: 'image' | 'document';
  /**
   * The file travels inside its record's own requests rather than on a path of its own: the
   * Documents item requires its file, so its create carries it (multipart) and a new file replaces
   * it with a PUT of the item. Such a file cannot be removed on its own; the item is deleted instead.
   */
  inRecord: boolean;
}

/** Full member details (`details:client`): the two File fields, flat as `detailsFields` stores them. */
const DETAILS_FILES: Readonly<Record<string, FileField>> = {
  photo: { kind: 'image', inRecord: false },
  'drivers_license.document': { kind: 'document', inRecord: false },
};

/**
 * The file field `field` of a record (a section item by its section, a single record by its key),
 * or undefined when it is not one. Section files come from the section descriptors: a REQUIRED
 * file (Documents) goes with its record, any other one (Employment) has its own upload path.
 */
export function fileField(table: SyncedTable, row: object, field: string): FileField | undefined {
  const key = 'section' in row ? row.section : 'key' in row ? row.key : null;
  if (typeof key !== 'string') return undefined;
  if (table === 'singles') return /^details:(client|coclient)$/.test(key) ? DETAILS_FILES[field] : undefined;
  if (table !== 'sectionItems') return undefined;
  const found = sectionOfKey(key);
  if (!found || !fieldsOfKind(found.section, 'file').includes(field)) return undefined;
  return { kind: 'document', inRecord: found.section.required.includes(field) };
}

export function isPendingFile(value: unknown): value is PendingFile {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { localFile?: unknown }).localFile === 'string'
  );
}

/** The blob ids the pending files among some fields point at. */
export function localFileIds(fields: Record<string, unknown>): string[] {
  return Object.values(fields)
    .filter(isPendingFile)
    .map((file) => file.localFile);
}

/** Who a kept file belongs to (FileRow.owner): single records by their account, as in the model. */
export function fileOwner(
  table: SyncedTable,
  row: { id: string; accountId?: string; key?: string },
  field: string,
): string {
  return table === 'singles'
    ? `accounts:${row.accountId}:${row.key}:${field}`
    : `${table}:${row.id}:${field}`;
}

/** The blob to store for a chosen file (made outside a transaction) and the value the field shows. */
export function stagedFile(input: FileInput, kind: FileField['kind'], owner: string, now: number) {
  // A copy: the caller may reuse its buffer once the change is queued.
  const blob = input.blob ?? new Blob([(input.bytes ?? new Uint8Array()).slice()], { type: input.type });
  const row: FileRow = {
    id: crypto.randomUUID(),
    name: input.name,
    type: input.type || blob.type,
    size: blob.size,
    blob,
    owner,
    createdAt: now,
  };
  const value: PendingFile = {
    type: kind,
    url: null,
    filetype: row.type,
    filesize: Math.ceil(row.size / 1024),
    filename: row.name,
    localFile: row.id,
  };
  return { row, value };
}
