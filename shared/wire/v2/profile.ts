// Version 2 profile values (`/accounts/{id}/profile`, and the base of an engagement's data items).

import { z } from 'zod';
import { soft, wireObject } from '../parse.ts';
import { maybeInteger, text, textId } from '../values.ts';

export const PROFILE_VALUE_SHAPE = {
  id: textId,
  dataset_id: text,
  /** Null for a value of the account rather than of a member. */
  member_id: maybeInteger,
  row_id: text,
  /** Open: the full set of types is not shown. */
  type: text,
  value: soft(z.string(), ''),
};

export const ProfileValue = wireObject('ProfileValue', PROFILE_VALUE_SHAPE);
export type ProfileValue = z.infer<typeof ProfileValue>;
