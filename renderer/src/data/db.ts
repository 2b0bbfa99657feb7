// The IndexedDB database (Dexie): tables, indexes and versioned migrations. A migration never
// drops the outbox: unsent changes survive every schema change.

import Dexie, { type EntityTable } from 'dexie';
import type {
  AccountRow,
  ConflictRow,
  FileRow,
  MetaRow,
  Operation,
  SectionItemRow,
  SingleRow,
} from './model.ts';

export const DB_NAME = 'advisor-desk';

export class AdvisorDb extends Dexie {
  accounts!: EntityTable<AccountRow, 'id'>;
  sectionItems!: EntityTable<SectionItemRow, 'id'>;
  singles!: EntityTable<SingleRow, 'id'>;
  outbox!: EntityTable<Operation, 'seq'>;
  conflicts!: EntityTable<ConflictRow, 'id'>;
  files!: EntityTable<FileRow, 'id'>;
  meta!: EntityTable<MetaRow, 'key'>;

  /** `options` can hand in another IndexedDB (fake-indexeddb in Node tests). */
  constructor(name = DB_NAME, options: ConstructorParameters<typeof Dexie>[1] = {}) {
    // Strict durability: a committed change is on disk before the promise resolves (Chromium).
    super(name, { ...options, chromeTransactionDurability: 'strict' });
    this.version(1).stores({
      accounts:
        'id, &serverId, type, archived, favorited, pipelineId, createdAt, updatedAt, *search, status, availableOffline, openedAt, ' +
        '[archived+type], [archived+favorited], [archived+createdAt], [archived+updatedAt]',
      sectionItems: 'id, serverId, accountId, [accountId+section], status',
      singles: 'id, accountId, [accountId+key], status',
      outbox: '++seq, &id, recordId, [table+recordId], state, parentId',
      conflicts: 'id, recordId',
      files: 'id, owner',
      meta: 'key',
    });
  }
}
