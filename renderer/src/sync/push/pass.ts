// One pass of the push: its counts, what it tells its listeners, and the server versions it has
// read (a section's collection is read once per pass, and kept true to what the pass wrote).

import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import type { AdvisorDb } from '../../data/db.ts';
import type { Fields, OperationError, OperationKind, SyncedTable } from '../../data/model.ts';
import type { Send } from '../send.ts';
import type { TeamAnswer } from '../team.ts';

/** What sending an operation needs: the store, the clock, and the port (counted in the pass). */
export interface PushContext {
  db: AdvisorDb;
  now: () => number;
  send: Send;
}

export interface PushReport {
  /** Requests sent to the platform in this pass, reads included. */
  requests: number;
  synced: number;
  adopted: number;
  retried: number;
  rejected: number;
  conflicts: number;
  needsSignIn: boolean;
  /** Operations still in the outbox after the pass. */
  remaining: number;
}

export interface RecordRef {
  opId: string;
  /** What the operation did: a close of an engagement has the account pulled again (coordinator). */
  kind: OperationKind;
  table: SyncedTable;
  recordId: string;
  /** The engagement a close or reopen was of (its workspace says what the close changed). */
  engagement?: string;
}

export type PushEvent =
  | ({ type: 'synced'; adopted: boolean } & RecordRef)
  | ({ type: 'retry'; at: number; error: OperationError } & RecordRef)
  | ({ type: 'rejected'; error: OperationError } & RecordRef)
  | ({ type: 'conflict'; deletedOnServer: boolean } & RecordRef)
  | { type: 'needs-sign-in'; error: OperationError }
  /** `cause` is what was thrown (a storage failure, for one), for the sync state to classify. */
  | { type: 'error'; message: string; cause: unknown }
  /** A pass has ended (the sync state's "syncing" ends with it); not sent when the pass threw. */
  | { type: 'pass'; report: PushReport };

export class Pass {
  readonly report: PushReport = {
    requests: 0,
    synced: 0,
    adopted: 0,
    retried: 0,
    rejected: 0,
    conflicts: 0,
    needsSignIn: false,
    remaining: 0,
  };
  /** How often each operation was tried in this pass. */
  readonly tries = new Map<string, number>();
  /** Operations waiting for something (a parent, a relation's target): not tried again this pass. */
  readonly blocked = new Set<string>();
  /** The platform's current team, asked once per pass before the first account is created. */
  team: Promise<TeamAnswer> | null = null;
  private readonly versions = new Map<string, Promise<ApiResult>>();

  constructor(private readonly send: Send) {}

  read(req: ApiRequest): Promise<ApiResult> {
    const key = `${req.api} ${req.path}`;
    let version = this.versions.get(key);
    if (!version) {
      version = this.send(req).then((res) => {
        // A failed read is not shared: the next operation may meet a server that answers again.
        if (!res.ok) this.versions.delete(key);
        return res;
      });
      this.versions.set(key, version);
    }
    return version;
  }

  /**
   * Keeps a collection read in this pass true to what this pass wrote, so that its other items
   * are still compared against one read; a single record is simply read again.
   */
  wrote(req: ApiRequest, collection: boolean, serverId: unknown, fields: Fields | null): void {
    const key = `${req.api} ${req.path}`;
    const version = this.versions.get(key);
    if (!version) return;
    if (!collection) this.versions.delete(key);
    else
      this.versions.set(
        key,
        version.then((res) =>
          res.ok && Array.isArray(res.data) ? { ...res, data: patched(res.data, serverId, fields) } : res,
        ),
      );
  }

  forget(req: ApiRequest): void {
    this.versions.delete(`${req.api} ${req.path}`);
  }
}

function patched(items: unknown[], serverId: unknown, fields: Fields | null): unknown[] {
  const others = items.filter((item) => (item as { id?: unknown } | null)?.id !== serverId);
  return fields === null ? others : [...others, { ...fields, id: serverId }];
}
