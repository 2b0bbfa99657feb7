// Version 2 Account and its members (document 000, section 2): what the account list, an
// account's GET and every create or update answer.

import { z } from 'zod';
import { listOf, soft, wireObject } from '../parse.ts';
import { integerId, maybeText, text, timestamp } from '../values.ts';

/** Account types the document names (`type`). */
export const ACCOUNT_TYPES = ['CLIENT', 'PROSPECT'] as const;
/** Member statuses: the document shows NEW; the product knows these (PLATFORM-FACTS). */
export const MEMBER_STATUSES = ['NEW', 'ACTIVE', 'BLOCKED'] as const;

/** `phone` of a member or of the user: each part may be null. */
export const Phone = wireObject('Phone', {
  code: maybeText,
  number: maybeText,
  country: maybeText,
});
export type Phone = z.infer<typeof Phone>;

const noPhone = (): Phone => ({ code: null, number: null, country: null });

/**
 * A member inside an account. The co-client of an account without one comes as an object of
 * nulls (or empty texts), so every field may be null.
 */
export const Member = wireObject('Member', {
  id: soft(z.int().nullable(), null),
  first_name: maybeText,
  last_name: maybeText,
  email: maybeText,
  phone: soft(Phone, noPhone),
  /** Open: NEW seen (`MEMBER_STATUSES`). */
  status: maybeText,
  /** Numeric text in this document; the 0.0.1 one gives the PIN as an integer. */
  pin: soft(z.union([z.string(), z.number()]).nullable(), null),
});
export type Member = z.infer<typeof Member>;

export const QualityRule = wireObject('QualityRule', {
  message: text,
  valid: soft(z.boolean(), false),
});

/** The data-quality score: no score, no quality. */
export const Quality = wireObject('Quality', {
  score: z.number(),
  rules: soft(listOf(QualityRule, 'Quality.rules'), () => []),
});
export type Quality = z.infer<typeof Quality>;

/** The pipeline stage an account is in (the stages themselves come with the user). */
export const PipelineSummary = wireObject('PipelineSummary', {
  /** A uuid; held as any text (no id, no stage). */
  id: z.string(),
  icon: text,
  title: text,
  description: text,
});
export type PipelineSummary = z.infer<typeof PipelineSummary>;

const noMember = (): Member => ({
  id: null,
  first_name: null,
  last_name: null,
  email: null,
  phone: noPhone(),
  status: null,
  pin: null,
});

export const Account = wireObject('Account', {
  id: integerId,
  /** CLIENT or PROSPECT (`ACCOUNT_TYPES`); null when missing. */
  type: soft(z.string().nullable(), null),
  client: soft(Member, noMember),
  coclient: soft(Member, noMember),
  quality: soft(Quality.nullable(), null),
  pipeline: soft(PipelineSummary.nullable(), null),
  favorited: soft(z.boolean().nullable(), null),
  archived: soft(z.boolean().nullable(), null),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Account = z.infer<typeof Account>;
