// What every window reads from the store itself: the pending count, refused changes, conflicts
// and the last synced time (state.ts, readStored), and the badges of the records someone
// watches. Read again whenever the outbox or the push says it moved, one read at a time.

import { rowsOf } from '../../data/changes/index.ts';
import type { AdvisorDb } from '../../data/db.ts';
import type { SyncStatus, SyncedTable } from '../../data/model.ts';
import { NOTHING_STORED, readStored, type Stored } from './state.ts';

/** Someone watching a record's badge. */
interface StatusWatch {
  table: SyncedTable;
  recordId: string;
  listener: (status: SyncStatus | null) => void;
  last: SyncStatus | null | undefined;
}

export interface ReaderHost {
  /** Whether reads go on (a read asked for during a read is done after it). */
  running(): boolean;
  /** A read is done: the state may have moved. */
  changed(): void;
  fail(error: unknown): void;
}

export class StoreReader {
  stored: Stored = NOTHING_STORED;
  private reading: Promise<void> | null = null;
  private readAgain = false;
  private readonly watches = new Set<StatusWatch>();

  constructor(
    private readonly db: AdvisorDb,
    private readonly host: ReaderHost,
  ) {}

  /** Reads the store again (one read at a time; changes meanwhile ask for one more). */
  read(): void {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = (async () => {
      do {
        this.readAgain = false;
        try {
          this.stored = await readStored(this.db);
          for (const watch of [...this.watches]) await this.readStatus(watch);
        } catch (error) {
          this.host.fail(error);
        }
        this.host.changed();
      } while (this.readAgain && this.host.running());
    })().finally(() => (this.reading = null));
  }

  /** Resolves when the read under way (if any) is done. */
  async idle(): Promise<void> {
    await this.reading;
  }

  /** The last synced time, known at once (before the next read brings it). */
  synced(at: number): void {
    this.stored = { ...this.stored, lastSyncedAt: at };
  }

  /** Calls `listener` with a record's badge now and whenever a read finds it changed. */
  watch(table: SyncedTable, recordId: string, listener: (status: SyncStatus | null) => void): () => void {
    const watch: StatusWatch = { table, recordId, listener, last: undefined };
    this.watches.add(watch);
    void this.readStatus(watch).catch((error: unknown) => this.host.fail(error));
    return () => this.watches.delete(watch);
  }

  private async readStatus(watch: StatusWatch): Promise<void> {
    const status = (await rowsOf(this.db, watch.table).get(watch.recordId))?.status ?? null;
    if (status !== watch.last && this.watches.has(watch)) watch.listener((watch.last = status));
  }
}
