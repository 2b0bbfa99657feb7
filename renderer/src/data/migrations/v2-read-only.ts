// Schema version 2: the read-only records of both interfaces (model.ts).

/**
 * Only new tables are named: Dexie keeps every table of version 1 as it is, rows and outbox
 * included.
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
