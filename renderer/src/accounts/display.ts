// How an account reads on screen: member names, labels of sort keys and filters, sync badges,
// quality bands, and the platform's icon names as PrimeIcons.

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

/** The platform's icon names (`i_user_plus`) as PrimeIcons classes. */
const ICONS: Record<string, string> = {
  i_archive: 'pi-inbox',
  i_award: 'pi-trophy',
  i_badge: 'pi-id-card',
  i_building: 'pi-building',
  i_bullseye: 'pi-bullseye',
  i_child: 'pi-user',
  i_coins: 'pi-wallet',
  i_comments: 'pi-comments',
  i_crown: 'pi-crown',
  i_diamond: 'pi-star',
  i_dollar: 'pi-dollar',
  i_download: 'pi-download',
  i_engagement_check: 'pi-check-square',
  i_engagement_minus: 'pi-minus-circle',
  i_engagement_plus: 'pi-plus-circle',
  i_engagement_shield: 'pi-shield',
  i_engagement_tag: 'pi-tag',
  i_envelope: 'pi-envelope',
  i_female: 'pi-venus',
  i_globe: 'pi-globe',
  i_heart: 'pi-heart',
  i_lightbulb: 'pi-lightbulb',
  i_male: 'pi-mars',
  i_medal: 'pi-trophy',
  i_money: 'pi-money-bill',
  i_pen: 'pi-pencil',
  i_search: 'pi-search',
  i_spade: 'pi-hammer',
  i_star: 'pi-star',
  i_umbrella: 'pi-shield',
  i_upload: 'pi-upload',
  i_user: 'pi-user',
  i_user_check: 'pi-verified',
  i_user_clock: 'pi-clock',
  i_user_cog: 'pi-cog',
  i_user_friends: 'pi-users',
  i_user_graduate: 'pi-graduation-cap',
  i_user_lock: 'pi-lock',
  i_user_minus: 'pi-user-minus',
  i_user_plus: 'pi-user-plus',
  i_user_shield: 'pi-shield',
  i_user_slash: 'pi-ban',
  i_user_tag: 'pi-tag',
  i_user_tie: 'pi-briefcase',
  i_user_times: 'pi-times-circle',
  i_users: 'pi-users',
  i_users_cog: 'pi-sliders-h',
};

export const platformIcon = (name: string | null | undefined): string =>
  `pi ${ICONS[name ?? ''] ?? 'pi-circle'}`;
