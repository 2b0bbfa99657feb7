// The 0.0.1 account and its member summaries (`/accounts`, `/accounts/{id}`).

import type { z } from 'zod';
import { soft, wireObject } from '../parse.ts';
import { integerId, text, timestamp } from '../values.ts';

/** `type` of this interface: lower case and plural. */
export const ACCOUNT_TYPES_V0 = ['clients', 'prospects'] as const;
/** Member `type` values seen. */
export const MEMBER_TYPES = ['CLIENT', 'COCLIENT'] as const;

export const MemberSummary = wireObject('MemberSummary', {
  first_name: text,
  last_name: text,
  email: text,
  /** Mobile with the country code, one text (`+13213211212`). */
  phone: text,
  /** Form access status (ACTIVE, NEW seen; `SECURITY_STATUSES`). */
  status: text,
  /** Open (`MEMBER_TYPES`). */
  type: text,
});
export type MemberSummary = z.infer<typeof MemberSummary>;

export const AccountV0 = wireObject('AccountV0', {
  id: integerId,
  /** Open (`ACCOUNT_TYPES_V0`). */
  type: text,
  client: soft(MemberSummary.nullable(), null),
  coclient: soft(MemberSummary.nullable(), null),
  created_at: timestamp,
  updated_at: timestamp,
});
export type AccountV0 = z.infer<typeof AccountV0>;
