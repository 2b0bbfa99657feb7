// Version 2 account activity (`/accounts/{id}/activity`) and the activity types of
// `/config/activities`.

import { z } from 'zod';
import { soft, wireObject } from '../parse.ts';
import { integerId, text, texts, timestamp } from '../values.ts';

/** The activity types the document names; the complete set comes from `/config/activities`. */
export const ACCOUNT_ACTIVITY_TYPES = ['account.created', 'account.updated', 'engagement.created'] as const;

export const AccountActivity = wireObject('AccountActivity', {
  id: integerId,
  /** Open (`ACCOUNT_ACTIVITY_TYPES`). */
  type: text,
  /** An icon name (`ICON_NAMES`). */
  icon: text,
  description: text,
  /** Keys depend on the type (author, template, name …). */
  options: soft(z.record(z.string(), z.string()), () => ({})),
  created_at: timestamp,
});
export type AccountActivity = z.infer<typeof AccountActivity>;

/** An entry of `/config/activities`: the icon of a type and the option keys it carries. */
export const ActivityType = wireObject('ActivityType', {
  icon: text,
  options: texts,
});
export type ActivityType = z.infer<typeof ActivityType>;

/** `/config/activities`: activity type → its icon and options. An entry that is no object is left out. */
export const ActivityTypes = z.record(z.string(), z.unknown()).transform((entries) =>
  Object.fromEntries(
    Object.entries(entries).flatMap(([type, entry]) => {
      const read = ActivityType.safeParse(entry);
      return read.success ? [[type, read.data] as const] : [];
    }),
  ),
);
export type ActivityTypes = z.infer<typeof ActivityTypes>;
