// What the screens read from the local store, served by the indexes of db.ts. This is its public
// face; the queries are the modules beside it: the account list (account-list.ts: its pages and ids
// in order; account-sort.ts, account-select.ts, first-accounts.ts), the synced records
// (records.ts), engagements (engagements.ts; their answers grouped: engagement-answers.ts), what a
// member already has open (open-sends.ts), the other read-only records (read-only.ts), and the
// accounts a household being typed may duplicate (duplicates.ts).

export {
  ACCOUNT_SORT_KEYS,
  accountComparator,
  type AccountSort,
  type AccountSortKey,
} from './account-sort.ts';
export { type AccountFilter, type AccountQuery } from './account-select.ts';
export { listAccountIds, listAccounts, type AccountPage } from './account-list.ts';
export { firstAccounts, type FirstAccounts } from './first-accounts.ts';
export {
  accountByServerId,
  accountSingle,
  accountSingles,
  getAccount,
  pendingOps,
  searchAccounts,
  sectionItems,
} from './records.ts';
export {
  STATS_KEY,
  accountActivity,
  listForms,
  listReports,
  memberSecurity,
  profileValues,
  userActivity,
  userStats,
  type ActivityQuery,
  type StatsEntry,
} from './read-only.ts';
export {
  ENGAGEMENT_SORT_KEYS,
  engagementComparator,
  engagementParts,
  getEngagement,
  listEngagements,
  pendingEngagementChanges,
  type EngagementQuery,
  type PendingEngagementChange,
  type EngagementSort,
  type EngagementSortKey,
} from './engagements.ts';
export { openEngagements, openForms } from './open-sends.ts';
export { groupAnswers, groupedAnswers, type AnswerGroup, type AnswerPanel } from './engagement-answers.ts';
export type { Page } from './order.ts';
export { findDuplicates, type Duplicate, type DuplicateQuery, type TypedMember } from './duplicates.ts';

// Configuration has tables of its own (config.ts); its readers and writers are re-exported here.
export {
  CONFIG_KEYS,
  configEntry,
  putConfigEntries,
  putConfigEntry,
  type ConfigEntry,
  type ConfigKey,
} from '../config.ts';
