// The sync state the screens see, composed from two sources: what every window reads from the
// store itself (pending count, refused changes, conflicts, last synced time), and the activity
// that only the worker window knows (syncing, unreachable, sign-in needed, errors, progress).

import { connectionOf } from '@shared/api/connection.ts';
import { DELETED_ON_SERVER } from '../../data/changes/index.ts';
import type { AdvisorDb } from '../../data/db.ts';
import { recordLabel } from '../../data/labels.ts';
import type { ConflictRow, OperationKind, OperationState, SyncedTable } from '../../data/model.ts';
import type { StorageProblem } from '../../data/storage.ts';

export type SyncPhase = 'offline' | 'syncing' | 'idle' | 'needs-sign-in' | 'error';

/** A change the platform refused (403, 422): shown with its record until the user fixes or retries it. */
export interface RejectedChange {
  opId: string;
  table: SyncedTable;
  recordId: string;
  /** The record, named for the user. */
  label: string;
  change: OperationKind;
  message: string;
  status: number | null;
  /** The platform's messages by field, for the record's form. */
  fields: Record<string, string[]>;
}

/** A conflict waiting for the user, with its record named. */
export interface ConflictEntry extends ConflictRow {
  label: string;
  /** The record is gone from the server: recreate or discard, rather than field by field. */
  deletedOnServer: boolean;
}

/** A long pull under way: `done` of `total` (null while the total is unknown). */
export interface SyncProgress {
  id: string;
  label: string;
  /** The account a pull of one account is about (opened, or made available offline). */
  accountId: string | null;
  done: number;
  total: number | null;
}

/**
 * One household pulled whole: chosen for a meeting (interactive, ahead of everything), or kept
 * offline and refreshed in the background. `done` of `total` are its requests (`total` is the
 * documented count until the pull has sent them all).
 */
export interface HouseholdStep {
  accountId: string;
  label: string;
  purpose: 'meeting' | 'background';
  /** `ready`: its whole pull completed (meeting only; a background one leaves the queue). */
  state: 'waiting' | 'getting' | 'ready' | 'failed';
  done: number;
  total: number;
  /** Why it failed, in the advisor's words (null otherwise). */
  reason: string | null;
  /** Its stored files being kept offline once its pull is done (meeting only), or null. */
  files?: { done: number; total: number } | null;
}

export interface SyncState {
  phase: SyncPhase;
  /** The phase in plain words (null when idle). */
  message: string | null;
  /** True in the window that runs the sync; the other windows observe it. */
  worker: boolean;
  /** Changes waiting to be sent (refused ones and conflicts are listed apart). */
  pendingCount: number;
  rejected: RejectedChange[];
  conflicts: ConflictEntry[];
  /** When the platform last took our changes or gave us its data without a failure (ms). */
  lastSyncedAt: number | null;
  /**
   * The latest time (ms) until which the platform asked us to wait (429 or 503) before sending a
   * change still waiting here, or null; it may have passed already (compare with the clock).
   */
  platformWaitUntil?: number | null;
  progress: SyncProgress[];
  /** Households pulled whole: those prepared for a meeting first, then the background's queue. */
  households: HouseholdStep[];
  /** The last storage failure met while syncing, in plain words (cleared by the next success). */
  storage: StorageProblem | null;
  /**
   * The platform's current team is not this store's (switched on another device, say): nothing is
   * sent, deleted or pulled until it is again, or the session follows it to that team.
   */
  teamMoved: { team: number } | null;
}

/** What one window knows that the store does not hold: shared by the worker with the others. */
export interface Activity {
  syncing: boolean;
  /** The last request found no platform (network or timeout). */
  unreachable: boolean;
  /** The last request failed for want of a network (Reach.noWayOut in @shared/api/connection.ts). */
  noWayOut: boolean;
  /** The platform refused our token and it could not be renewed. */
  signIn: boolean;
  error: string | null;
  storage: StorageProblem | null;
  progress: SyncProgress[];
  households: HouseholdStep[];
  /** The platform's current team, when the last confirmation found it is not the store's. */
  teamMoved: number | null;
}

/** What every window reads from the store itself. */
export type Stored = Pick<
  SyncState,
  'pendingCount' | 'rejected' | 'conflicts' | 'lastSyncedAt' | 'platformWaitUntil'
>;

export const NOTHING_STORED: Stored = {
  pendingCount: 0,
  rejected: [],
  conflicts: [],
  lastSyncedAt: null,
  platformWaitUntil: null,
};

/** Meta key of `lastSyncedAt`. */
export const LAST_SYNCED_KEY = 'sync.lastSyncedAt';

const WAITING: OperationState[] = ['queued', 'inflight', 'retry'];

/** One read transaction: the count and the lists must describe the same moment. */
export function readStored(db: AdvisorDb): Promise<Stored> {
  const tables = [db.outbox, db.conflicts, db.meta, db.accounts, db.sectionItems, db.singles];
  return db.transaction('r', tables, () => readStoredNow(db));
}

async function readStoredNow(db: AdvisorDb): Promise<Stored> {
  const pendingCount = await db.outbox.where('state').anyOf(WAITING).count();
  const retrying = await db.outbox.where('state').anyOf(['retry', 'inflight']).toArray();
  const waits = retrying.map((op) => op.lastError?.waitUntil ?? 0).filter((at) => at > 0);
  const platformWaitUntil = waits.length > 0 ? Math.max(...waits) : null;
  const refused = await db.outbox.where('state').equals('rejected').sortBy('seq');
  const conflictRows = await db.conflicts.toArray();
  const last = (await db.meta.get(LAST_SYNCED_KEY))?.value;
  const rejected: RejectedChange[] = [];
  for (const op of refused)
    rejected.push({
      opId: op.id,
      table: op.table,
      recordId: op.recordId,
      label: await recordLabel(db, op.table, op.recordId),
      change: op.kind,
      message: op.lastError?.message ?? 'The platform refused this change.',
      status: op.lastError?.status ?? null,
      fields: op.lastError?.fields ?? {},
    });
  const conflicts: ConflictEntry[] = [];
  for (const row of conflictRows.sort((a, b) => a.detectedAt - b.detectedAt))
    conflicts.push({
      ...row,
      label: await recordLabel(db, row.table, row.recordId),
      deletedOnServer: DELETED_ON_SERVER in row.fields,
    });
  return {
    pendingCount,
    rejected,
    conflicts,
    lastSyncedAt: typeof last === 'number' ? last : null,
    platformWaitUntil,
  };
}

/**
 * The state of a window: its own activity and, in an observer, the worker's (`all`), over what
 * the store holds. Offline (no network, or no platform) beats sign-in, which beats an error, which
 * beats syncing; which of the two it is, the connection indicator's rule tells.
 */
export function composeState(
  all: readonly Activity[],
  context: { networkDown: boolean; worker: boolean; stored: Stored },
): SyncState {
  const connection = connectionOf({
    systemOnline: !context.networkDown,
    noWayOut: all.some((a) => a.noWayOut),
    platformSilent: all.some((a) => a.unreachable),
  });
  const signIn = all.some((a) => a.signIn);
  const error = all.find((a) => a.error)?.error ?? null;
  const moved = all.find((a) => a.teamMoved !== null)?.teamMoved ?? null;
  const phase: SyncPhase =
    connection !== 'online'
      ? 'offline'
      : signIn
        ? 'needs-sign-in'
        : error
          ? 'error'
          : all.some((a) => a.syncing)
            ? 'syncing'
            : 'idle';
  return {
    phase,
    message: describe(phase, connection === 'offline', error),
    worker: context.worker,
    ...context.stored,
    progress: all.flatMap((a) => a.progress),
    households: [
      ...all.flatMap((a) => a.households.filter((h) => h.purpose === 'meeting')),
      ...all.flatMap((a) => a.households.filter((h) => h.purpose === 'background')),
    ],
    storage: all.find((a) => a.storage)?.storage ?? null,
    teamMoved: moved === null ? null : { team: moved },
  };
}

function describe(phase: SyncPhase, noNetwork: boolean, error: string | null): string | null {
  switch (phase) {
    case 'offline':
      return noNetwork
        ? 'You are offline. Your changes are saved on this computer and will be sent when the connection is back.'
        : 'The platform cannot be reached. Your changes are saved on this computer and will be sent when it answers again.';
    case 'needs-sign-in':
      return 'Your sign-in has expired. Sign in again to send your changes; nothing you entered is lost.';
    case 'error':
      return error;
    case 'syncing':
      return 'Syncing with the platform…';
    default:
      return null;
  }
}
