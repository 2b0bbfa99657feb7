// The form of a member's full details (version 0.0.1's "Account Full Member"): its groups of
// fields, in the order an advisor asks for them, and the server's rules for it.

import type { FormField, InputKind, Option } from './form.ts';
import { valueLabel } from './labels.ts';
import { isBlank } from './validation.ts';

/** A field of the full member details, by its flat path (`address.city`, `drivers_license.number`). */
const member = (
  name: string,
  label: string,
  input: InputKind,
  extra: Partial<FormField> = {},
): FormField => ({
  name,
  label,
  input,
  required: false,
  messageName: name,
  ...extra,
});

const options = (...values: string[]): Option[] =>
  values.map((value) => ({ value, label: valueLabel(value) }));

/** The member details' entity, as `/define` names it (0.0.1, "Account Full Member"). */
export const MEMBER_ENTITY = 'FullMember';

/** Groups of the member details form, in the order an advisor asks for them. */
export const MEMBER_FORM: readonly { title: string; fields: readonly FormField[] }[] = [
  {
    title: 'Identity',
    fields: [
      member('first_name', 'First name', 'text', { required: true }),
      member('middle_initial', 'Middle initial', 'text'),
      member('last_name', 'Last name', 'text'),
      member('gender', 'Gender', 'select', { options: options('male', 'female') }),
      member('birth_date', 'Date of birth', 'date'),
      member('marital_status', 'Marital status', 'select', {
        options: options('single', 'married', 'divorced', 'widowed', 'other', 'partner'),
      }),
      member('previous_marriages', 'Previous marriages', 'integer', { unit: 'count' }),
      member('citizenship.country', 'Citizenship', 'country'),
    ],
  },
  {
    title: 'Contact',
    fields: [
      member('email', 'E-mail', 'email', { required: true }),
      member('phone', 'Mobile phone', 'phone', { hint: 'With the country code, e.g. +1 555 010 0199.' }),
      member('home_phone', 'Home phone', 'phone'),
      member('work_phone', 'Work phone', 'phone'),
      member('address.line1', 'Address line 1', 'text'),
      member('address.line2', 'Address line 2', 'text'),
      member('address.city', 'City', 'text'),
      member('address.state', 'State', 'us-state', { countryField: 'address.country' }),
      member('address.zip', 'ZIP code', 'text'),
      member('address.country', 'Country', 'country'),
    ],
  },
  {
    title: 'Driver’s license',
    fields: [
      member('drivers_license.number', 'License number', 'text'),
      member('drivers_license.issue_date', 'Issued', 'date'),
      member('drivers_license.expire_date', 'Expires', 'date'),
      member('drivers_license.jurisdiction.state', 'Issuing state', 'us-state', {
        countryField: 'drivers_license.jurisdiction.country',
      }),
      member('drivers_license.jurisdiction.country', 'Issuing country', 'country'),
      member('drivers_license.document', 'License document', 'file'),
    ],
  },
  {
    title: 'Planning',
    fields: [
      member('risk_score', 'Risk score', 'number'),
      member('comments', 'Comments', 'textarea'),
      member('photo', 'Photo', 'file'),
    ],
  },
];

export const MEMBER_FIELDS: readonly FormField[] = MEMBER_FORM.flatMap((g) => g.fields);

/** The platform's refusal of a member's e-mail that the account's other member has. */
export const SAME_EMAIL_MESSAGE = 'email is invalid: each member of an account needs their own address.';

/**
 * The server's rules for full member details, in its wording. `otherEmail`: the e-mail of the
 * account's other member, which the 0.0.1 document makes unique per account.
 */
export function validateMember(
  fields: Readonly<Record<string, unknown>>,
  otherEmail?: string | null,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of MEMBER_FIELDS)
    if (f.required && isBlank(fields[f.name])) out[f.name] = [`${f.messageName} is required.`];
  const email = typeof fields.email === 'string' ? fields.email.trim().toLowerCase() : '';
  if (email && otherEmail && email === otherEmail.trim().toLowerCase()) out.email = [SAME_EMAIL_MESSAGE];
  return out;
}
