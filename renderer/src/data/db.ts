// The IndexedDB database (Dexie): its tables, and the versions of its schema with their upgrades
// (migrations/, one file per version). A migration never drops the outbox: unsent changes survive
// every schema change.

import Dexie, { type EntityTable } from 'dexie';
import type { StoredEntry } from './account-index/entry.ts';
import { accountIndexMiddleware, forgetAccountIndex } from './account-index/store.ts';
import { engagementIndexMiddleware, forgetEngagementIndex } from './engagement-index.ts';
import { declareVersions } from './migrations/index.ts';
import type {
  AccountActivityRow,
  AccountRow,
  ConfigRow,
  ConflictRow,
  EngagementPartRow,
  EngagementRow,
  FileRow,
  FormRow,
  JournalEntry,
  MemberSecurityRow,
  MetaRow,
  Operation,
  PipelineRow,
  ProfileValueRow,
  ReportRow,
  SectionItemRow,
  SingleRow,
  TeamRow,
  UserActivityRow,
  UserRow,
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
  memberSecurity!: EntityTable<MemberSecurityRow, 'id'>;
  profileValues!: EntityTable<ProfileValueRow, 'id'>;
  accountActivity!: EntityTable<AccountActivityRow, 'id'>;
  engagements!: EntityTable<EngagementRow, 'id'>;
  engagementParts!: EntityTable<EngagementPartRow, 'id'>;
  forms!: EntityTable<FormRow, 'id'>;
  reports!: EntityTable<ReportRow, 'id'>;
  userActivity!: EntityTable<UserActivityRow, 'id'>;
  config!: EntityTable<ConfigRow, 'kind'>;
  user!: EntityTable<UserRow, 'api'>;
  teams!: EntityTable<TeamRow, 'id'>;
  pipelines!: EntityTable<PipelineRow, 'id'>;
  journal!: EntityTable<JournalEntry, 'seq'>;
  /** Each account's entry in the list index (account-index/entry.ts), written with the row. */
  accountEntries!: EntityTable<StoredEntry, 'id'>;

  /** `options` can hand in another IndexedDB (fake-indexeddb in Node tests). */
  constructor(name = DB_NAME, options: ConstructorParameters<typeof Dexie>[1] = {}) {
    // Strict durability: a committed change is on disk before the promise resolves (Chromium).
    super(name, { ...options, chromeTransactionDurability: 'strict' });
    declareVersions(this);
    this.use(accountIndexMiddleware(this));
    this.use(engagementIndexMiddleware(this));
  }

  /** Closing a store lets go of its account list index too. */
  override close(options?: Parameters<Dexie['close']>[0]): void {
    forgetAccountIndex(this);
    forgetEngagementIndex(this);
    super.close(options);
  }
}
