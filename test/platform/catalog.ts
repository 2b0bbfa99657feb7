// Fixed vocabularies of the two reference documents and PLATFORM-FACTS.md: icons, activity types,
// permission keys, default pipelines, calling codes and region codes.

/** The complete icon list of GET /config/icons, in the document's order. */
export const ICONS = [
  'i_archive',
  'i_award',
  'i_badge',
  'i_building',
  'i_bullseye',
  'i_child',
  'i_coins',
  'i_comments',
  'i_crown',
  'i_diamond',
  'i_dollar',
  'i_download',
  'i_engagement_check',
  'i_engagement_minus',
  'i_engagement_plus',
  'i_engagement_shield',
  'i_engagement_tag',
  'i_envelope',
  'i_female',
  'i_globe',
  'i_heart',
  'i_lightbulb',
  'i_male',
  'i_medal',
  'i_money',
  'i_pen',
  'i_search',
  'i_spade',
  'i_star',
  'i_umbrella',
  'i_upload',
  'i_user',
  'i_user_check',
  'i_user_clock',
  'i_user_cog',
  'i_user_friends',
  'i_user_graduate',
  'i_user_lock',
  'i_user_minus',
  'i_user_plus',
  'i_user_shield',
  'i_user_slash',
  'i_user_tag',
  'i_user_tie',
  'i_user_times',
  'i_users',
  'i_users_cog',
] as const;

/**
 * Account activity types (version 2). The document gives the first three; the others are the
 * sandbox's choice for the engagement transitions it records.
 */
export const ACCOUNT_ACTIVITIES: Record<string, { icon: string; options: string[] }> = {
  'account.created': { icon: 'i_user_plus', options: ['author', 'type', 'name'] },
  'account.updated': { icon: 'i_user_cog', options: ['author', 'name'] },
  'engagement.created': { icon: 'i_engagement_plus', options: ['author', 'template', 'name'] },
  'engagement.completed': { icon: 'i_engagement_check', options: ['author', 'template', 'name'] },
  'engagement.reopened': { icon: 'i_engagement_tag', options: ['author', 'template', 'name'] },
  'engagement.deleted': { icon: 'i_engagement_minus', options: ['author', 'template', 'name'] },
};

/** The advisor activity feed types of version 0.0.1, with the Material icon and colour shown. */
export const USER_ACTIVITIES: Record<string, { icon: string; icon_color: string; title: string }> = {
  'account.client.created': { icon: 'mdi-account-plus', icon_color: 'success', title: 'Client created' },
  'account.coclient.created': {
    icon: 'mdi-account-multiple-plus',
    icon_color: 'success',
    title: 'Co-client added',
  },
  'account.client.deleted': { icon: 'mdi-account-remove', icon_color: 'danger', title: 'Client deleted' },
  'account.coclient.deleted': { icon: 'mdi-account-minus', icon_color: 'danger', title: 'Co-client removed' },
  'account.converted': { icon: 'mdi-account-convert', icon_color: 'info', title: 'Prospect converted' },
  'account.member.blocked': { icon: 'mdi-account-lock', icon_color: 'danger', title: 'Member blocked' },
  'account.members.switched': { icon: 'mdi-account-switch', icon_color: 'info', title: 'Members switched' },
  'account.security.reset': { icon: 'mdi-lock-reset', icon_color: 'warning', title: 'Security reset' },
  'account.currentdata.updated': {
    icon: 'mdi-database-edit',
    icon_color: 'info',
    title: 'Financial data updated',
  },
  'form.sent': { icon: 'mdi-email-send', icon_color: 'primary', title: 'Form sent' },
  'form.deleted': { icon: 'mdi-delete', icon_color: 'danger', title: 'Form deleted' },
  'form.link': { icon: 'mdi-link', icon_color: 'primary', title: 'Form link created' },
  'form.link.accessed': { icon: 'mdi-link-variant', icon_color: 'info', title: 'Form link opened' },
  'form.accessed': { icon: 'mdi-eye', icon_color: 'info', title: 'Form opened' },
  'form.resent': { icon: 'mdi-email-sync', icon_color: 'primary', title: 'Form resent' },
  'form.closed': { icon: 'mdi-email-check', icon_color: 'success', title: 'Form closed' },
  'form.reminders.activated': { icon: 'mdi-bell-ring', icon_color: 'info', title: 'Reminders on' },
  'form.reminders.deactivated': { icon: 'mdi-bell-off', icon_color: 'secondary', title: 'Reminders off' },
  'account.exported': { icon: 'mdi-export', icon_color: 'secondary', title: 'Account exported' },
  'account.imported': { icon: 'mdi-import', icon_color: 'secondary', title: 'Account imported' },
};

export const PERMISSION_KEYS = [
  'accounts.prospects',
  'accounts.prospects.create',
  'accounts.prospects.update',
  'accounts.prospects.delete',
  'accounts.clients',
  'accounts.clients.create',
  'accounts.clients.update',
  'accounts.clients.delete',
  'accounts.favorite',
  'accounts.archive',
  'accounts.convert',
  'engagements.in-progress',
  'engagements.completed',
  'engagements.create',
  'engagements.close',
  'engagements.delete',
] as const;
export type Permission = (typeof PERMISSION_KEYS)[number];

/** Default pipelines (PLATFORM-FACTS.md): each stage is one pipeline entry of the user resource. */
export const DEFAULT_PIPELINES: {
  type: 'PROSPECT' | 'CLIENT';
  title: string;
  description: string;
  icon: string;
}[] = [
  {
    type: 'PROSPECT',
    title: 'Onboard',
    description: 'New prospect, first contact made',
    icon: 'i_user_plus',
  },
  { type: 'PROSPECT', title: 'Acquire', description: 'Discovery meeting and proposal', icon: 'i_bullseye' },
  {
    type: 'PROSPECT',
    title: 'Re-engage',
    description: 'No progress for 30 days; follow up',
    icon: 'i_user_clock',
  },
  { type: 'CLIENT', title: 'Onboard', description: 'Paperwork, accounts opened', icon: 'i_user_check' },
  { type: 'CLIENT', title: 'Discover', description: 'Gather the full financial picture', icon: 'i_search' },
  { type: 'CLIENT', title: 'Plan', description: 'Build and present the plan', icon: 'i_lightbulb' },
  { type: 'CLIENT', title: 'Invest', description: 'Put the plan to work', icon: 'i_coins' },
  { type: 'CLIENT', title: 'Re-engage', description: 'Periodic review due', icon: 'i_user_clock' },
  { type: 'CLIENT', title: 'Survey', description: 'Satisfaction survey sent', icon: 'i_comments' },
];

/** Calling codes the sandbox splits version 0.0.1 phone strings with (longest prefix wins). */
export const CALLING_CODES: { code: string; country: string }[] = [
  { code: '+1', country: 'US' },
  { code: '+44', country: 'GB' },
  { code: '+49', country: 'DE' },
  { code: '+33', country: 'FR' },
  { code: '+34', country: 'ES' },
  { code: '+39', country: 'IT' },
  { code: '+31', country: 'NL' },
  { code: '+41', country: 'CH' },
  { code: '+61', country: 'AU' },
  { code: '+64', country: 'NZ' },
  { code: '+52', country: 'MX' },
  { code: '+55', country: 'BR' },
  { code: '+81', country: 'JP' },
  { code: '+91', country: 'IN' },
  { code: '+353', country: 'IE' },
  { code: '+351', country: 'PT' },
  { code: '+972', country: 'IL' },
  { code: '+971', country: 'AE' },
  { code: '+65', country: 'SG' },
  { code: '+852', country: 'HK' },
];

export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'PR',
  'GU',
  'VI',
  'AS',
  'MP',
];

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ']);

/** True for an assigned ISO 3166-1 alpha-2 code, in upper case. */
export function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code)) return false;
  return regionNames.of(code) !== code;
}

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
