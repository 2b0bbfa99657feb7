// The local model of the offline-first data layer (DESIGN.md §3). Plain TypeScript: it runs in the
// renderer, in Node tests (fake-indexeddb) and in the headless chaos runner.
//
// Every synced record has a permanent local id from the moment it exists on this machine; the
// server id is stored beside it once known. Fields are kept FLAT (dotted paths such as
// `client.first_name` for accounts, top-level field names for sections), so that merging, conflict
// detection and coalescing work field by field with one rule for every kind of record.

/** Values of a record, by field path. */
export type Fields = Record<string, unknown>;

export type SyncStatus = 'synced' | 'pending' | 'rejected' | 'conflict';

/** What every synced table stores. */
export interface SyncedRow {
  /** Local id: permanent, used by routes, relations and the outbox. */
  id: string;
  /** Server id once known: integer for accounts and members, `uuid|uuid` for section items … */
  serverId: number | string | null;
  /** The local view: the last server snapshot with every pending change re-applied on top. */
  fields: Fields;
  /** The last snapshot the server gave (null until the record was seen on the server). */
  server: Fields | null;
  status: SyncStatus;
  /** Local time (ms) of the last change made here. */
  changedAt: number;
  /**
   * Set by a pull (local ms) when the record is gone from the server while it still has pending
   * operations here: the row is kept so the push can offer "deleted on the server" (recreate or
   * discard). Absent or null otherwise; records without pending operations are simply removed.
   */
  deletedOnServer?: number | null;
}

export interface AccountRow extends SyncedRow {
  /** Index columns, derived from `fields` on every write (see `accountIndex`). */
  type: 'CLIENT' | 'PROSPECT';
  archived: 0 | 1;
  favorited: 0 | 1;
  pipelineId: string;
  createdAt: string;
  updatedAt: string;
  /** Lower-cased first names, last names and emails of client and co-client, for prefix search. */
  search: string[];
  /** Read-only server data: member ids, status and PIN, quality, pipeline details, timestamps. */
  meta: AccountMeta;
  /** Pulled in the background with its details and sections. */
  availableOffline: 0 | 1;
  openedAt: number | null;
  /** When details and sections were last pulled (ms), or null. */
  pulledAt: number | null;
  /** The account's `updated_at` at that pull: when it is still the current one, nothing changed since. */
  pulledUpdatedAt?: string | null;
}

export interface AccountMeta {
  clientId: number | null;
  coclientId: number | null;
  clientStatus: string | null;
  coclientStatus: string | null;
  quality: { score: number; rules: { message: string; valid: boolean }[] } | null;
  pipeline: { id: string; icon: string; title: string; description: string } | null;
  created_at: string | null;
  updated_at: string | null;
}

/** A financial section item (collections of the 0.0.1 interface). */
export interface SectionItemRow extends SyncedRow {
  accountId: string;
  /** Storage key: the section path, with the member for per-member sections (`employment:client`). */
  section: string;
}

/** A single-record section (`expenses-fixed`, `income:client` …) or full member details (`details:client`). */
export interface SingleRow extends SyncedRow {
  /** `${accountId}:${key}` */
  id: string;
  accountId: string;
  key: string;
}

export type SyncedTable = 'accounts' | 'sectionItems' | 'singles';

export type OperationKind = 'create' | 'update' | 'delete' | 'upload' | 'removeFile' | 'resetPin';

export type OperationState =
  /** Waiting its turn. */
  | 'queued'
  /** Sent, answer not yet known. Persisted BEFORE sending: at start-up it means "uncertain". */
  | 'inflight'
  /** Failed in a way that retrying may cure; waits for `nextAttemptAt`. */
  | 'retry'
  /** Refused by the server (403, 422): waits for the user to fix the record. */
  | 'rejected'
  /** A field changed on both sides: waits for the user to choose. */
  | 'conflict';

export interface OperationError {
  kind: string;
  status: number | null;
  message: string;
  fields: Record<string, string[]>;
}

/** One queued change. Written only by the change module, in the transaction that changes the record. */
export interface Operation {
  /** Auto-increment: the global order of changes. */
  seq?: number;
  /** Stable id, returned to the caller, to await the change reaching the server. */
  id: string;
  table: SyncedTable;
  recordId: string;
  kind: OperationKind;
  /** create: every field; update: the changed fields; upload: the file field and its blob id. */
  fields: Fields;
  /** For updates: the server's value of each changed field when it was first changed here. */
  base: Fields;
  /** Local id of the record this one needs on the server first (the account of a section item). */
  parentId: string | null;
  state: OperationState;
  attempts: number;
  /** ms; for `retry`. */
  nextAttemptAt: number;
  lastError: OperationError | null;
  createdAt: number;
  updatedAt: number;
}

/** A conflict the user resolves: per field, the base, mine and theirs. */
export interface ConflictRow {
  /** The operation that waits. */
  id: string;
  table: SyncedTable;
  recordId: string;
  fields: Record<string, { base: unknown; mine: unknown; theirs: unknown }>;
  detectedAt: number;
}

/** A file kept locally: an upload waiting to be sent, or a download kept for offline viewing. */
export interface FileRow {
  id: string;
  name: string;
  type: string;
  size: number;
  blob: Blob;
  /** What it belongs to (`accounts:<id>:details:client:photo`, `sectionItems:<id>:file` …). */
  owner: string;
  createdAt: number;
}

export interface MetaRow {
  key: string;
  value: unknown;
}
