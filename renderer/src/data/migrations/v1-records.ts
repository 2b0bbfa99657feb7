// Schema version 1: the synced records, the outbox and its conflicts, local files, bookkeeping.

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
