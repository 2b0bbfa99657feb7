// An account member's full details (0.0.1 `/accounts/{id}/{client}/details`) and the form-access
// security of a member (`/accounts/{id}/{client}/security`). Details are a synced record: a value
// that breaks its documented type is kept as received (parse.ts, `kept`).

import { z } from 'zod';
import { kept, soft, wireObject } from '../parse.ts';
import { maybeInteger, text } from '../values.ts';
import { Address, FileObject } from './values.ts';

export const GENDERS = ['male', 'female'] as const;
export const MARITAL_STATUSES = ['single', 'married', 'divorced', 'widowed', 'other', 'partner'] as const;

const value = <T extends z.ZodType>(schema: T) => kept(schema.nullish());
/** A part the document gives as an object always (its own parts may be empty). */
const part = <T extends z.ZodType>(schema: T) => kept(schema);

export const DriversLicense = wireObject('DriversLicense', {
  number: value(z.string()),
  /** Timestamp texts. */
  issue_date: value(z.string()),
  expire_date: value(z.string()),
  /** An Address of which state and country are used. */
  jurisdiction: part(Address),
  document: value(FileObject),
});

export const MemberDetails = wireObject('MemberDetails', {
  first_name: value(z.string()),
  middle_initial: value(z.string()),
  last_name: value(z.string()),
  /** Open (`GENDERS`). */
  gender: value(z.string()),
  /** Timestamp form. */
  birth_date: value(z.string()),
  /** Open (`MARITAL_STATUSES`). */
  marital_status: value(z.string()),
  previous_marriages: value(z.int()),
  /** An Address of which only country is used. */
  citizenship: part(Address),
  email: value(z.string()),
  phone: value(z.string()),
  home_phone: value(z.string()),
  work_phone: value(z.string()),
  address: part(Address),
  photo: value(FileObject),
  /** Declared integer; a fractional value appears in the examples. */
  risk_score: value(z.number()),
  comments: value(z.string()),
  drivers_license: part(DriversLicense),
});
export type MemberDetails = z.infer<typeof MemberDetails>;

/** Security statuses the document lists. */
export const SECURITY_STATUSES = ['BLOCKED', 'ACTIVE', 'NEW'] as const;

export const MemberSecurity = wireObject('MemberSecurity', {
  account_id: maybeInteger,
  /** `client` or `co-client`. */
  type: text,
  /** Open (`SECURITY_STATUSES`). */
  status: text,
  /** Integer in this document; version 2 gives the PIN as numeric text. */
  pin: soft(z.union([z.int(), z.string()]).nullable(), null),
});
export type MemberSecurity = z.infer<typeof MemberSecurity>;
