// A member's name, e-mail and mobile phone as this computer holds them now. Two records hold them:
// the account row (the account form edits it, the list pulls refresh it) and the member's full
// details (the Members tab edits them); what every screen and the quality estimate show is one
// answer, so a change waiting to be sent is never hidden behind the other record's older copy.

import type { MemberRole } from '@shared/sections.ts';
import type { AccountRow, SingleRow, SyncedRow } from './model.ts';
import { sameValue } from './view.ts';

export interface MemberContact {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  /** The mobile phone as it reads: calling code and number. */
  phone: string | null;
  /** The number the platform's quality rule looks at (the details keep code and number as one text). */
  mobileNumber: string | null;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** The local view of a field differs from the platform's last snapshot: it was changed here. */
const changedHere = (row: SyncedRow, key: string): boolean =>
  !sameValue(row.fields[key] ?? null, row.server?.[key] ?? null);

/**
 * A change made here wins over the platform's copy, the later change wins when both records were
 * changed here. Else the account's copy, which pulls refresh more often; but not while a change of
 * the details was sent after that copy arrived: the account row keeps the older value until the
 * next pull brings the account again.
 */
export function memberContact(
  account: AccountRow,
  details: SingleRow | undefined,
  member: MemberRole,
): MemberContact {
  const a = account.fields;
  const d = details?.fields ?? {};
  const fromDetails = (accountKey: string, detailsKey: string): boolean => {
    if (details === undefined) return false;
    const accountHere = changedHere(account, `${member}.${accountKey}`);
    if (changedHere(details, detailsKey)) return !accountHere || details.changedAt > account.changedAt;
    return !accountHere && (details.sentAt ?? 0) > (account.serverAt ?? 0);
  };
  const pick = (accountKey: string, detailsKey = accountKey) =>
    text(fromDetails(accountKey, detailsKey) ? d[detailsKey] : a[`${member}.${accountKey}`]);
  const phoneHere = fromDetails('phone.number', 'phone');
  const accountPhone = [text(a[`${member}.phone.code`]), text(a[`${member}.phone.number`])]
    .filter(Boolean)
    .join(' ');
  return {
    firstName: pick('first_name'),
    lastName: pick('last_name'),
    email: pick('email'),
    phone: phoneHere ? text(d.phone) : accountPhone || null,
    mobileNumber: phoneHere ? text(d.phone) : text(a[`${member}.phone.number`]),
  };
}
