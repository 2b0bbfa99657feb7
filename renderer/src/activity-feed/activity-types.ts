// The activity types in the advisor's words: each type of the feed (the 20 of the 0.0.1 document)
// and of an account's activity (version 2) with its name, icon and colour. The one table every
// screen that shows activity reads (Activity, Home, the workspace's Overview).

import { USER_ACTIVITY_TYPES } from '@shared/wire/v0/user.ts';

/** A colour of the theme (styles.css `--activity-*`), light and dark. */
export type ActivityTone = 'added' | 'removed' | 'changed' | 'sent' | 'done' | 'warning' | 'neutral';

export interface ActivityTypeInfo {
  type: string;
  /** In plain words, as a heading of the entry and an option of the filter. */
  label: string;
  /** A PrimeIcons class. */
  icon: string;
  tone: ActivityTone;
}

const t = (label: string, icon: string, tone: ActivityTone) => ({ label, icon: `pi ${icon}`, tone });

/** The feed's types (`/user/activities`), in the document's order. */
const FEED: Record<(typeof USER_ACTIVITY_TYPES)[number], Omit<ActivityTypeInfo, 'type'>> = {
  'account.client.created': t('Client added', 'pi-user-plus', 'added'),
  'account.coclient.created': t('Co-client added', 'pi-users', 'added'),
  'account.client.deleted': t('Client deleted', 'pi-user-minus', 'removed'),
  'account.coclient.deleted': t('Co-client removed', 'pi-user-minus', 'removed'),
  'account.converted': t('Prospect became a client', 'pi-sync', 'done'),
  'account.member.blocked': t('Member blocked from forms', 'pi-lock', 'removed'),
  'account.members.switched': t('Client and co-client switched', 'pi-arrow-right-arrow-left', 'changed'),
  'account.security.reset': t('Form access reset', 'pi-key', 'warning'),
  'account.currentdata.updated': t('Financial data updated', 'pi-pencil', 'changed'),
  'form.sent': t('Form sent', 'pi-send', 'sent'),
  'form.deleted': t('Form deleted', 'pi-trash', 'removed'),
  'form.link': t('Form link made', 'pi-link', 'sent'),
  'form.link.accessed': t('Form link opened', 'pi-external-link', 'changed'),
  'form.accessed': t('Form opened', 'pi-eye', 'changed'),
  'form.resent': t('Form sent again', 'pi-replay', 'sent'),
  'form.closed': t('Form closed', 'pi-check-circle', 'done'),
  'form.reminders.activated': t('Form reminders on', 'pi-bell', 'neutral'),
  'form.reminders.deactivated': t('Form reminders off', 'pi-bell-slash', 'neutral'),
  'account.exported': t('Account exported', 'pi-upload', 'neutral'),
  'account.imported': t('Account imported', 'pi-download', 'neutral'),
};

/** An account's activity types (version 2; the complete set comes with `/config/activities`). */
const ACCOUNT: Record<string, Omit<ActivityTypeInfo, 'type'>> = {
  'account.created': t('Account created', 'pi-user-plus', 'added'),
  'account.updated': t('Account updated', 'pi-pencil', 'changed'),
  'engagement.created': t('Questionnaire sent', 'pi-send', 'sent'),
  'engagement.completed': t('Questionnaire completed', 'pi-check-square', 'done'),
  'engagement.reopened': t('Questionnaire reopened', 'pi-replay', 'changed'),
  'engagement.deleted': t('Questionnaire deleted', 'pi-trash', 'removed'),
};

/** The feed's types in the document's order, for the Activity filter. */
export const FEED_TYPES: readonly ActivityTypeInfo[] = USER_ACTIVITY_TYPES.map((type) => ({
  type,
  ...FEED[type],
}));

/**
 * A type as the screens show it. A type this table lacks (a newer platform's) is still shown and
 * filterable: named from its words (`form.archived` → "Form archived"), neutral, with the
 * icon the platform gave it (`platformIcon`) if any.
 */
export function activityType(type: string, platformIcon = 'pi pi-circle-fill'): ActivityTypeInfo {
  const known = (FEED as Record<string, Omit<ActivityTypeInfo, 'type'>>)[type] ?? ACCOUNT[type];
  if (known) return { type, ...known };
  const words = type
    .split(/[._-]+/)
    .filter(Boolean)
    .join(' ');
  const label = words ? words[0]!.toUpperCase() + words.slice(1) : 'Activity';
  return { type, label, icon: platformIcon, tone: 'neutral' };
}

/** The filter's options: the known types in order, then any other type the store holds. */
export function typeOptions(known: readonly string[], held: readonly string[] = []): ActivityTypeInfo[] {
  const seen = new Set(known);
  const extra = [...new Set(held)].filter((type) => !seen.has(type)).sort();
  return [...known, ...extra].map((type) => activityType(type));
}

/**
 * The workspace tab an entry's account link opens: a form's entry the household's Forms, a
 * questionnaire's its Engagements (the feed carries no form or engagement id); other entries the
 * overview (none).
 */
export function entryTab(type: string): 'forms' | 'engagements' | null {
  if (type.startsWith('form.')) return 'forms';
  if (type.startsWith('engagement.')) return 'engagements';
  return null;
}
