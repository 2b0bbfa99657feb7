// The sort keys of the version 2 engagement list (queries/engagements.ts and the engagement index).

export const ENGAGEMENT_SORT_KEYS = [
  'account_id',
  'member_id',
  'template_id',
  'title',
  'description',
  'security',
  'name',
  'email',
  'status',
  'filled',
  'created_at',
  'opened_at',
  'reminded_at',
  'completed_at',
] as const;
export type EngagementSortKey = (typeof ENGAGEMENT_SORT_KEYS)[number];
export type EngagementSort = EngagementSortKey | `-${EngagementSortKey}`;
