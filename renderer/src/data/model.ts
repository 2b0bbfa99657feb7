// The local model of the offline-first data layer (DESIGN.md §3). Plain TypeScript: it runs in the
// renderer, in Node tests (fake-indexeddb) and in the headless chaos runner.
//
// Every synced record has a permanent local id from the moment it exists on this machine; the
// server id is stored beside it once known. Fields are kept FLAT (dotted paths such as
// `client.first_name` for accounts, top-level field names for sections), so that merging, conflict
// detection and coalescing work field by field with one rule for every kind of record.

import type { AccountActivity } from '@shared/wire/v2/activity.ts';
import type {
  EngagementDataItem,
  EngagementDocument,
  EngagementHistoryItem,
  EngagementSignature,
} from '@shared/wire/v2/engagement-parts.ts';
import type { Engagement } from '@shared/wire/v2/engagement.ts';
import type { ProfileValue } from '@shared/wire/v2/profile.ts';
import type { Form, FormTemplate } from '@shared/wire/v0/forms.ts';
import type { MemberSecurity } from '@shared/wire/v0/member.ts';
import type { Report } from '@shared/wire/v0/reports.ts';
import type { UserActivity, UserStats } from '@shared/wire/v0/user.ts';
import type { StoreIdentity } from './identity/index.ts';

// The platform's shapes (the `server` of read-only rows) are the schemas' (shared/wire/).
export type {
  AccountActivity,
  Engagement,
  EngagementDataItem,
  EngagementDocument,
  EngagementHistoryItem,
  EngagementSignature,
  Form,
  FormTemplate,
  MemberSecurity,
  ProfileValue,
  Report,
  UserActivity,
  UserStats,
};

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
   * Local time (ms) the platform's copy last changed here (a pull's snapshot, a sent change's
   * answer). Absent on rows written before it existed, and until the copy first changes.
   */
  serverAt?: number;
  /** Local time (ms) the platform last answered a change of this record sent from here. */
  sentAt?: number;
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
  /**
   * First names, last names and emails of client and co-client, for prefix search: each lower-cased
   * as typed, and folded as the search reads them (`accountIndex`, shared/search-text.ts).
   */
  search: string[];
  /** Read-only server data: member ids and statuses, quality, pipeline details, timestamps (never a PIN). */
  meta: AccountMeta;
  /** Pulled in the background with its details and sections. */
  availableOffline: 0 | 1;
  openedAt: number | null;
  /** When details and sections were last pulled (ms), or null. */
  pulledAt: number | null;
  /** The account's `updated_at` at that pull: when it is still the current one, nothing changed since. */
  pulledUpdatedAt?: string | null;
  /**
   * Parts of the account (`details:client`, a section's key, `security:client`, `profile`,
   * `activity`) by when they last arrived here (ms): a part absent here was never pulled, and
   * is not on this computer (data/coverage.ts). Absent on rows pulled in full before it existed.
   */
  parts?: Record<string, number>;
}

/**
 * Index keys of an account in the list's orders (accounts.ts, accountOrder), as schema versions 4 to 7
 * kept them in an `order` column; absent where the value is empty.
 */
export interface AccountOrder {
  made: [number, number, string];
  quality?: (number | string)[];
  clientFirstName?: (number | string)[];
  clientLastName?: (number | string)[];
  clientEmail?: (number | string)[];
  coclientFirstName?: (number | string)[];
  coclientLastName?: (number | string)[];
  coclientEmail?: (number | string)[];
}

export interface AccountMeta {
  clientId: number | null;
  coclientId: number | null;
  clientStatus: string | null;
  coclientStatus: string | null;
  /**
   * The platform's data-quality score; or, marked `estimated`, the one computed here (data/quality.ts)
   * after a local change, until the platform answers.
   */
  quality: {
    score: number;
    rules: { message: string; valid: boolean }[];
    estimated?: true;
  } | null;
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

export type OperationKind =
  | 'create'
  | 'update'
  | 'delete'
  | 'upload'
  | 'removeFile'
  | 'resetPin'
  | EngagementOperationKind
  | FormOperationKind;

/** Changes of engagements, queued on their account (data/changes/engagements.ts). */
export const ENGAGEMENT_OPERATION_KINDS = ['sendEngagement', 'closeEngagement', 'reopenEngagement'] as const;
export type EngagementOperationKind = (typeof ENGAGEMENT_OPERATION_KINDS)[number];

/** Changes of 0.0.1 forms, queued on their account (data/changes/forms.ts). */
export const FORM_OPERATION_KINDS = ['sendForm', 'resendForm', 'closeForm'] as const;
export type FormOperationKind = (typeof FORM_OPERATION_KINDS)[number];

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
  /**
   * After a 429 or 503: until when (ms) the platform asked us to wait (Retry-After, or our own
   * estimate); the main process holds our requests until then. Kept when "send now" makes the
   * retry due, so that a screen can say why nothing moves (sign-out's "send them first").
   */
  waitUntil?: number;
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
  /**
   * create: every field; update: the changed fields; upload: the file field and its PendingFile
   * (data/files.ts: name, size, blob id); removeFile: the file field, null; resetPin: `member`;
   * sendEngagement: `member`, `template_id`, the three email flags and `known` (the ids of the
   * engagements of that member and template this computer held when it was queued);
   * closeEngagement, reopenEngagement: `engagement` (its id); sendForm: `template_key`,
   * `template_title`, `recipients` (roles) and `known` (the keys of the account's forms held
   * when it was queued); resendForm, closeForm: `form` (the FormRow id), `key` and
   * `reminded` (its `reminded_at` when queued).
   */
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
  /**
   * The user and team the change was made under (data/identity/). It is sent only while that
   * user is signed in with that team current. Absent only on changes queued by an earlier version,
   * until their store is adopted by its identity.
   */
  identity?: StoreIdentity;
}

/**
 * One change made on this computer, as the meeting summary lists it (data/journal.ts): written by
 * the change module in the change's own transaction, one entry per field changed and one per
 * create, delete and file change. Kept 90 days; its state is read from the outbox when asked.
 */
export interface JournalEntry {
  /** Auto-increment: the order changes were made in. */
  seq?: number;
  /** The household's local account id. */
  accountId: string;
  /** Local time (ms) of the change. */
  at: number;
  /** The outbox operation that carries it; null when nothing had to be sent (an unsent item deleted). */
  opId: string | null;
  table: SyncedTable;
  recordId: string;
  /** Storage key of the section (`assets`, `employment:client`, `details:client`), `account` for the account. */
  section: string;
  kind: 'create' | 'update' | 'delete' | 'upload' | 'removeFile';
  /** The field's path; null for a create or a delete (their values are the record's fields). */
  field: string | null;
  before: unknown;
  after: unknown;
  /** The item's name when the change was made (`Savings account`), '' for a record without one. */
  label: string;
  /** Local time (ms) the push recorded the platform's acceptance of its operation. */
  sentAt?: number;
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

// ---- Read-only records (schema version 2) ------------------------------------------------------
//
// Server data the app only reads: no local id, no outbox, no local view. A row keeps the record in
// the interface's own shape (`server`), a few index columns derived from it, and when that
// snapshot arrived. Rows are keyed by their server identity. Rows that belong to an account carry
// the account's SERVER id: an account has such data only once it is on the server, and its server
// id never changes; the queries take the local account id and translate.
//
// The `server` types are the schemas' (shared/wire/): a row keeps the record as its schema read it,
// strict on what the row is keyed by, with missing or mistyped fields defaulted.

/** What every read-only table stores. */
export interface RecordRow<T> {
  id: string | number;
  server: T;
  /** Local time (ms) this snapshot arrived. A pull that finds it unchanged does not rewrite the row. */
  pulledAt: number;
}

/** A member's security as stored: the status, never the PIN (sync/pins.ts keeps PINs in memory). */
export type StoredSecurity = Pick<MemberSecurity, 'account_id' | 'type' | 'status'>;

export interface MemberSecurityRow extends RecordRow<StoredSecurity> {
  /** `${accountServerId}:${member}` */
  id: string;
  accountServerId: number;
  member: 'client' | 'coclient';
  status: string;
}

export interface ProfileValueRow extends RecordRow<ProfileValue> {
  id: string;
  accountServerId: number;
  /** Null for a value of the account rather than of a member (then it is in no member's index). */
  memberId: number | null;
  datasetId: string;
}

export interface AccountActivityRow extends RecordRow<AccountActivity> {
  id: number;
  accountServerId: number;
  type: string;
  createdAt: string;
}

export interface EngagementRow extends RecordRow<Engagement> {
  id: string;
  accountServerId: number;
  memberId: number | null;
  templateId: string;
  /** The list's `type` filter: 1 for `completed`, 0 for `in-progress`. */
  completed: 0 | 1;
  createdAt: string;
  /** Lower-cased title and engaged member's name, for the list's prefix `query`. */
  search: string[];
  /** When its data, documents, signatures and history were last pulled whole (ms), or null. */
  partsPulledAt: number | null;
}

/** The four outputs of an engagement, each an endpoint below `/engagements/{id}/`. */
export interface EngagementParts {
  data: EngagementDataItem;
  documents: EngagementDocument;
  signatures: EngagementSignature;
  history: EngagementHistoryItem;
}
export type EngagementPartKind = keyof EngagementParts;

export interface EngagementPartRow<K extends EngagementPartKind = EngagementPartKind> extends RecordRow<
  EngagementParts[K]
> {
  /** `${engagementId}:${kind}:${serverId}`: item ids are only known unique within one list. */
  id: string;
  engagementId: string;
  kind: K;
  serverId: string | number;
  /** Place in the list as the platform ordered it (its default sort). */
  position: number;
}

export interface FormRow extends RecordRow<Form> {
  /** `${accountServerId}:${key}`: the interface addresses a form within its account. */
  id: string;
  accountServerId: number;
  key: string;
  status: string;
  createdAt: string;
}

export interface ReportRow extends RecordRow<Report> {
  id: string;
  key: string;
  type: string;
}

export interface UserActivityRow extends RecordRow<UserActivity> {
  id: number;
  type: string;
  createdAt: string;
}

// ---- Configuration (schema version 3, data/config.ts) ------------------------------------------

/** Configuration kept one row per kind: the pull's answers as they came. */
export type ConfigKind = 'icons' | 'activities' | 'dataset' | 'templates' | 'formTemplates' | 'definitions';

export interface ConfigRow {
  kind: ConfigKind;
  pulledAt: number;
  data: unknown;
}

/** The signed-in user as one interface gives it (`/user` of version 2 or 0.0.1). */
export interface UserRow {
  api: 'v2' | 'v0';
  pulledAt: number;
  /** The resource without the lists kept in tables of their own (`lists`). */
  data: unknown;
  /** Which lists of the resource (`teams`, `pipelines`) are rows of their tables. */
  lists: ('teams' | 'pipelines')[];
}

/** A team of the user (version 2 `/user` `teams`). */
export interface TeamRow extends RecordRow<Record<string, unknown>> {
  id: string | number;
  /** Place in the user resource's list. */
  position: number;
}

/** A pipeline stage of the user (version 2 `/user` `pipelines`), in the platform's order. */
export interface PipelineRow extends RecordRow<Record<string, unknown>> {
  id: string | number;
  position: number;
  /** CLIENT or PROSPECT, as the stage says; '' when it says nothing. */
  type: string;
}
