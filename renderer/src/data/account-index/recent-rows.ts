// The account rows written lately, in memory, while the store is being written: what the list's
// window shows at once instead of reading them again. A read of the accounts waits for every
// read-write transaction of them begun before it; during a first sync a page is written every
// fraction of a second, so a keystroke's rows read from IndexedDB wait for a page's write (half a
// second each, and another one often queued). The rows in view are nearly all rows written by that
// sync, here, as the middleware (store.ts) saw them written. Kept while writes go on, let go once
// the accounts have not been written for a moment; each row a copy, so that neither the writer nor
// a reader can change what the other sees (as IndexedDB's own copies).

import type { AccountRow } from '../model.ts';

/** Rows kept at most (the oldest written give way): a firm's whole first sync. */
export const RECENT_ROWS_LIMIT = 60_000;
/** How long after the last write of the accounts ended the rows are let go. */
export const RECENT_ROWS_IDLE_MS = 3_000;

export class RecentRows {
  /** Each row with the count of rows written when it was (`stamp`). */
  private readonly rows = new Map<string, { row: AccountRow; at: number }>();
  /** Rows written so far: a read begun at this count holds every row written before it. */
  stamp = 0;
  /** Read-write transactions of the accounts under way (begun writing, not yet ended). */
  private writing = 0;
  private idle: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly limit = RECENT_ROWS_LIMIT,
    private readonly idleMs = RECENT_ROWS_IDLE_MS,
  ) {}

  get size(): number {
    return this.rows.size;
  }

  /** Whether a write of the accounts is under way: a read of them begun now waits for it. */
  get busy(): boolean {
    return this.writing > 0;
  }

  /** A transaction begins writing the accounts: the rows stay while it goes on. */
  begun(): void {
    this.writing++;
    if (this.idle !== null) clearTimeout(this.idle);
    this.idle = null;
  }

  /** A transaction that wrote them ended (committed or undone); the last one lets the rows go a moment later. */
  ended(): void {
    this.writing = Math.max(0, this.writing - 1);
    if (this.writing > 0 || this.rows.size === 0) return;
    if (this.idle !== null) clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.writing === 0) this.rows.clear();
    }, this.idleMs);
    // Node's timer would keep a test process alive.
    (this.idle as { unref?: () => void }).unref?.();
  }

  /** Rows written (put), as written; only while a write of the accounts is under way. */
  put(rows: readonly AccountRow[]): void {
    if (this.writing === 0) return;
    for (const row of rows) {
      // Re-inserted: the Map's order is the order last written, the oldest first to go.
      this.rows.delete(row.id);
      this.rows.set(row.id, { row: structuredClone(row), at: ++this.stamp });
    }
    let over = this.rows.size - this.limit;
    for (const id of this.rows.keys()) {
      if (over-- <= 0) break;
      this.rows.delete(id);
    }
  }

  /** Accounts deleted, or written elsewhere (another window): read from the store again. */
  forget(ids: Iterable<string>): void {
    for (const id of ids) this.rows.delete(id);
  }

  /** Every row let go (a transaction undone, a range deleted). */
  clear(): void {
    this.rows.clear();
  }

  /**
   * A copy of each of these accounts held here, by id; the others are not in it. `after`: only
   * the rows written after that stamp (what a read begun then may not hold yet).
   */
  held(ids: readonly string[], after = 0): Map<string, AccountRow> {
    const found = new Map<string, AccountRow>();
    if (this.rows.size === 0) return found;
    for (const id of ids) {
      const kept = this.rows.get(id);
      if (kept && kept.at > after) found.set(id, structuredClone(kept.row));
    }
    return found;
  }
}
