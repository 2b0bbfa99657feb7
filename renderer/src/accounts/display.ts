// How an account reads on screen: member names, labels of sort keys and filters, sync badges,
// quality bands.

import type { AccountRow } from '../data/model.ts';
import type { AccountFilter, AccountSortKey } from '../data/queries.ts';

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

export function memberName(row: AccountRow, role: 'client' | 'coclient'): string {
  return `${text(row.fields[`${role}.first_name`])} ${text(row.fields[`${role}.last_name`])}`.trim();
}

export function memberEmail(row: AccountRow, role: 'client' | 'coclient'): string {
  return text(row.fields[`${role}.email`]);
}

/** The account's name as advisors say it: the client, and the co-client when there is one. */
export function accountName(row: AccountRow): string {
  const client = memberName(row, 'client') || memberEmail(row, 'client') || 'Unnamed account';
  const co = memberName(row, 'coclient');
  return co ? `${client} & ${co}` : client;
}

export const typeLabel = (type: string): string => (type === 'CLIENT' ? 'Client' : 'Prospect');

export const SORT_LABELS: Record<AccountSortKey, string> = {
  created_at: 'Created',
  updated_at: 'Last updated',
  'client.last_name': 'Client last name',
  'client.first_name': 'Client first name',
  'client.email': 'Client email',
  'coclient.last_name': 'Co-client last name',
  'coclient.first_name': 'Co-client first name',
  'coclient.email': 'Co-client email',
  type: 'Type',
  pipeline: 'Pipeline stage',
  quality: 'Quality score',
  favorited: 'Favorite',
  archived: 'Archived',
};

/** The filters of the list; `active` is the interface's default (everything but archived). */
export type ListFilter = AccountFilter | 'active';

export const FILTERS: { value: ListFilter; label: string; hint: string }[] = [
  { value: 'active', label: 'Active', hint: 'Clients and prospects that are not archived' },
  { value: 'client', label: 'Clients', hint: 'Clients that are not archived' },
  { value: 'prospect', label: 'Prospects', hint: 'Prospects that are not archived' },
  { value: 'favorite', label: 'Favorites', hint: 'Favorites that are not archived' },
  { value: 'archived', label: 'Archived', hint: 'Archived accounts only' },
  { value: 'all', label: 'All', hint: 'Every account, archived ones included' },
];

/** Quality bands: the platform's score is the valid share (0–100) of weighted KYC rules. */
export function qualityBand(score: number): 'low' | 'mid' | 'high' {
  return score < 50 ? 'low' : score < 80 ? 'mid' : 'high';
}

/** How a score estimated here is described, wherever it shows (a sentence; lower-cased inside one). */
export const ESTIMATE_NOTE = 'Estimated on this computer until the platform answers';

/** The score in words, for a tooltip or an accessible name. */
export function qualityLabel(quality: { score: number; estimated?: boolean }): string {
  const label = `Quality score ${quality.score} of 100`;
  return quality.estimated ? `${label}, ${ESTIMATE_NOTE.toLowerCase()}` : label;
}
