// Schema version 9: the engagement list, its search and every sort are answered by the engagement
// index in memory (engagement-index.ts), so the engagements table loses `*search`, whose keys held
// the titles and the engaged members' names (no name or free text in an index key). The rows keep
// their search terms (the index reads them); the other indexes (ids, filters, `createdAt`) stay,
// and the outbox and every other table are carried across as they are.

export const STORES_V9 = {
  engagements:
    'id, accountServerId, memberId, templateId, completed, createdAt, ' +
    '[accountServerId+createdAt], [completed+createdAt]',
} as const;
