// The IndexedDB database (Dexie): tables, indexes and versioned migrations. A migration never
// drops the outbox: unsent changes survive every schema change.

import Dexie, { type DBCore, type DBCoreMutateRequest, type EntityTable, type Transaction } from 'dexie';
import { accountOrder } from './accounts.ts';
import { moveConfigOutOfMeta } from './config.ts';
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

/** Version 1: the synced records, the outbox and its conflicts, local files, bookkeeping. */
export const STORES_V1 = {
  accounts:
    'id, &serverId, type, archived, favorited, pipelineId, createdAt, updatedAt, *search, status, availableOffline, openedAt, ' +
    '[archived+type], [archived+favorited], [archived+createdAt], [archived+updatedAt]',
  sectionItems: 'id, serverId, accountId, [accountId+section], status',
  singles: 'id, accountId, [accountId+key], status',
  outbox: '++seq, &id, recordId, [table+recordId], state, parentId',
  conflicts: 'id, recordId',
  files: 'id, owner',
  meta: 'key',
} as const;

/**
 * Version 2 adds the read-only records of both interfaces (model.ts). Only new tables are named:
 * Dexie keeps every table of version 1 as it is, rows and outbox included.
 *
 * Engagement indexes serve the version 2 list: its filters (`account_id`, `member_id`,
 * `template_id`, `type` as `completed`, `query` as `search`) and its default order by
 * `created_at`, alone or within an account or a `type`; the other sort keys sort in memory.
 */
export const STORES_V2 = {
  memberSecurity: 'id, accountServerId, status',
  profileValues: 'id, accountServerId, [accountServerId+memberId], datasetId',
  accountActivity: 'id, accountServerId, [accountServerId+createdAt], [accountServerId+type+createdAt]',
  engagements:
    'id, accountServerId, memberId, templateId, completed, createdAt, *search, ' +
    '[accountServerId+createdAt], [completed+createdAt]',
  engagementParts: 'id, engagementId, [engagementId+kind]',
  forms: 'id, accountServerId, status, createdAt, [accountServerId+status]',
  reports: 'id, key, type',
  userActivity: 'id, createdAt, [type+createdAt]',
} as const;

/**
 * Version 3 gives the configuration tables of its own (data/config.ts): `config` by kind, the
 * `user` by interface, its `teams` and `pipelines` by id. The upgrade moves their rows out of
 * `meta` and touches nothing else: the outbox and every record are carried across as they are.
 */
export const STORES_V3 = {
  config: 'kind',
  user: 'api',
  teams: 'id, position',
  pipelines: 'id, position, type',
} as const;

/**
 * Version 4 lets the account list walk an index in every text and quality order, as it walks the
 * date indexes, instead of reading and sorting every row: `order` (accounts.ts, accountOrder)
 * holds a key per such sort, written by the database on every write of an account
 * (`accountOrderMiddleware`), whoever writes it. The upgrade writes it on the rows already there;
 * the outbox and every other table are carried across as they are.
 */
export const STORES_V4 = {
  accounts:
    STORES_V1.accounts +
    ', order.made, order.quality, order.clientFirstName, order.clientLastName, order.clientEmail, ' +
    'order.coclientFirstName, order.coclientLastName, order.coclientEmail',
} as const;

async function writeAccountOrder(tx: Transaction): Promise<void> {
  await tx
    .table<AccountRow, string>('accounts')
    .toCollection()
    .modify((row) => {
      row.order = accountOrder(row);
    });
}

/**
 * Version 5 keeps no PIN on disk (sync/pins.ts keeps them in memory): the upgrade rewrites each
 * member's security row with its status alone, as `memberSecurityRow` now writes it. No table or
 * index changes; the outbox and every other table are carried across as they are.
 */
export const STORES_V5 = {} as const;

async function forgetStoredPins(tx: Transaction): Promise<void> {
  await tx
    .table<MemberSecurityRow, string>('memberSecurity')
    .toCollection()
    .modify((row) => {
      const { account_id, type, status } = row.server;
      row.server = { account_id, type, status };
    });
}

/**
 * Version 6 adds the change journal (data/journal.ts): by household and time for the meeting
 * summary, by operation for the push to mark what the platform has, by time for pruning. Nothing
 * else changes; the outbox and every other table are carried across as they are.
 */
export const STORES_V6 = {
  journal: '++seq, [accountId+at], opId, at',
} as const;

/** Every account written (put or add, by any code) gets its `order` column from its fields. */
const accountOrderMiddleware = {
  stack: 'dbcore' as const,
  name: 'accountOrder',
  create: (down: DBCore): DBCore => ({
    ...down,
    table: (name) => {
      const table = down.table(name);
      if (name !== 'accounts') return table;
      return {
        ...table,
        mutate: (req: DBCoreMutateRequest) =>
          req.type === 'put' || req.type === 'add'
            ? table.mutate({
                ...req,
                values: req.values.map((row: AccountRow) => ({ ...row, order: accountOrder(row) })),
              })
            : table.mutate(req),
      };
    },
  }),
};

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

  /** `options` can hand in another IndexedDB (fake-indexeddb in Node tests). */
  constructor(name = DB_NAME, options: ConstructorParameters<typeof Dexie>[1] = {}) {
    // Strict durability: a committed change is on disk before the promise resolves (Chromium).
    super(name, { ...options, chromeTransactionDurability: 'strict' });
    this.version(1).stores(STORES_V1);
    this.version(2).stores(STORES_V2);
    this.version(3).stores(STORES_V3).upgrade(moveConfigOutOfMeta);
    this.version(4).stores(STORES_V4).upgrade(writeAccountOrder);
    this.version(5).stores(STORES_V5).upgrade(forgetStoredPins);
    this.version(6).stores(STORES_V6);
    this.use(accountOrderMiddleware);
  }
}
