// The advisor as the 0.0.1 interface gives it: the user (`/user`), statistics (`/user/stats`) and
// the activity feed (`/user/activities`).

import { z } from 'zod';
import { soft, wireObject } from '../parse.ts';
import { integerId, text, timestamp } from '../values.ts';
import { maybeFile } from './values.ts';

export const UserV0 = wireObject('UserV0', {
  first_name: text,
  last_name: text,
  email: text,
  phone: text,
  photo: maybeFile,
  company: text,
  company_email: text,
  company_phone: text,
  company_logo: maybeFile,
});
export type UserV0 = z.infer<typeof UserV0>;

const perDay = soft(z.array(z.int()), () => []);

/** Counts per day over the requested range. */
export const UserStats = wireObject('UserStats', {
  prospects: perDay,
  clients: perDay,
  sent_forms: perDay,
  closed_forms: perDay,
});
export type UserStats = z.infer<typeof UserStats>;

/** The activity types the document lists (section 2, Activity). */
export const USER_ACTIVITY_TYPES = [
  'account.client.created',
  'account.coclient.created',
  'account.client.deleted',
  'account.coclient.deleted',
  'account.converted',
  'account.member.blocked',
  'account.members.switched',
  'account.security.reset',
  'account.currentdata.updated',
  'form.sent',
  'form.deleted',
  'form.link',
  'form.link.accessed',
  'form.accessed',
  'form.resent',
  'form.closed',
  'form.reminders.activated',
  'form.reminders.deactivated',
  'account.exported',
  'account.imported',
] as const;

export const UserActivity = wireObject('UserActivity', {
  id: integerId,
  /** Open (`USER_ACTIVITY_TYPES`): a newer platform may add types. */
  type: text,
  /** A Material Design icon name. */
  icon: text,
  /** A color class; the set is not shown. */
  icon_color: text,
  title: text,
  description: text,
  created_at: timestamp,
});
export type UserActivity = z.infer<typeof UserActivity>;
