// A version 2 engagement (`/engagements`, `/engagements/{id}`, close, reopen, create).

import type { z } from 'zod';
import { wireObject } from '../parse.ts';
import { count, flag, integerId, maybeInteger, maybeTimestamp, text, textId, timestamp } from '../values.ts';

/** Statuses the document shows; the full list is not shown (the product also says "in progress"). */
export const ENGAGEMENT_STATUSES = ['NEW', 'COMPLETED'] as const;
/** Security values seen, of engagements and templates. */
export const SECURITY_LEVELS = ['LOW', 'HIGH'] as const;

export const Engagement = wireObject('Engagement', {
  id: textId,
  account_id: integerId,
  /** The engaged member; null when missing. */
  member_id: maybeInteger,
  template_id: text,
  title: text,
  description: text,
  /** Open (`SECURITY_LEVELS`). */
  security: text,
  name: text,
  email: text,
  url: text,
  /** Open (`ENGAGEMENT_STATUSES`). */
  status: text,
  filled: count,
  time: count,
  created_at: timestamp,
  opened_at: maybeTimestamp,
  email_reminders: flag,
  reminded_at: maybeTimestamp,
  email_completed: flag,
  completed_at: maybeTimestamp,
});
export type Engagement = z.infer<typeof Engagement>;
