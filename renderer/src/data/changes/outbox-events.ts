// The outbox's signals: a change wakes the push loop, and a settled operation answers whoever
// waits for it (`whenSynced`). Call `signalOutbox` only after the transaction that made the
// event true has committed.

import type { AdvisorDb } from '../db.ts';
import type { OperationError } from '../model.ts';

/** What `whenSynced` rejects with: the server refused the change (403, 422 …). */
export class OperationRejected extends Error implements OperationError {
  override name = 'OperationRejected';
  readonly kind: string;
  readonly status: number | null;
  readonly fields: Record<string, string[]>;
  constructor(
    readonly opId: string,
    error: OperationError,
  ) {
    super(error.message);
    this.kind = error.kind;
    this.status = error.status;
    this.fields = error.fields;
  }
}

export type OutboxEvent =
  { type: 'changed' } | { type: 'settled'; opId: string; error: OperationError | null };

type Listener = (event: OutboxEvent) => void;
const listeners = new WeakMap<AdvisorDb, Set<Listener>>();

export function onOutbox(db: AdvisorDb, listener: Listener): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Call only after the transaction that made the event true has committed. */
export function signalOutbox(db: AdvisorDb, event: OutboxEvent): void {
  for (const listener of [...(listeners.get(db) ?? [])]) listener(event);
}

/**
 * Resolves when the operation has left the outbox (the server has the change, or there was
 * nothing left to send); rejects with OperationRejected when the server refused it. The outbox is
 * read after subscribing, so an operation settled before the call, in another session or before
 * a reload, is still answered.
 */
export function whenSynced(db: AdvisorDb, opId: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const finish = (error: OperationError | null) => {
      off();
      if (error) reject(new OperationRejected(opId, error));
      else resolve();
    };
    const off = onOutbox(db, (event) => {
      if (event.type === 'settled' && event.opId === opId) finish(event.error);
    });
    db.outbox
      .where('id')
      .equals(opId)
      .first()
      .then((op) => {
        if (!op) finish(null);
        else if (op.state === 'rejected' && op.lastError) finish(op.lastError);
      })
      .catch((error: unknown) => {
        off();
        reject(error instanceof Error ? error : new Error(String(error)));
      });
  });
}

/** After a change's transaction: the operations it settled answer their waiters, and the push wakes. */
export function announce(db: AdvisorDb, settled: readonly string[]): void {
  for (const opId of settled) signalOutbox(db, { type: 'settled', opId, error: null });
  signalOutbox(db, { type: 'changed' });
}
