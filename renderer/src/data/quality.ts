// The data-quality score estimated on this machine (shared/quality.ts), so that an account made or
// edited offline shows a score at once. Only a local change writes an estimate (changes/, in its
// transaction); the platform's answer, which a pull or a push brings in `meta.quality`, replaces
// it, and no estimate is ever written while pulling.
//
// Inputs come from the local view: the account row and the members' full details (`details:client`,
// `details:coclient`), which both hold the e-mail and mobile phone (read as every screen reads them,
// data/member-contact.ts). Of a member whose details were never read here, only what the account
// row says is known; every other rule counts as missing.

import { emptyMemberQualityInput, qualityScore, type MemberQualityInput } from '@shared/quality.ts';
import type { MemberRole } from '@shared/sections.ts';
import type { AdvisorDb } from './db.ts';
import { singleRowId } from './mappers.ts';
import type { AccountMeta, AccountRow, SingleRow } from './model.ts';
import { memberContact } from './member-contact.ts';
import { sameValue } from './view.ts';

export type Quality = NonNullable<AccountMeta['quality']>;

/** What the quality rules read of an account here. */
export interface QualitySources {
  account: AccountRow;
  client?: SingleRow | undefined;
  coclient?: SingleRow | undefined;
}

/** Whether a single record is a member's full details, which the quality rules read. */
export const isMemberDetails = (key: string): key is `details:${MemberRole}` =>
  key === 'details:client' || key === 'details:coclient';

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const number = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function memberInput(
  account: AccountRow,
  details: SingleRow | undefined,
  member: MemberRole,
): MemberQualityInput {
  const d = details?.fields ?? {};
  // Both records hold the member's e-mail and mobile phone: the one this computer shows counts.
  const contact = memberContact(account, details, member);
  const input = emptyMemberQualityInput();
  input.email = contact.email;
  input.mobileNumber = contact.mobileNumber;
  if (!details) return input;
  input.birthDate = text(d.birth_date);
  input.address = {
    line1: text(d['address.line1']),
    city: text(d['address.city']),
    zip: text(d['address.zip']),
    country: text(d['address.country']),
  };
  input.citizenship = text(d['citizenship.country']);
  input.maritalStatus = text(d.marital_status);
  input.driversLicense = {
    number: text(d['drivers_license.number']),
    expireDate: text(d['drivers_license.expire_date']),
  };
  input.riskScore = number(d.risk_score);
  return input;
}

/** The local view names a co-client (the version 2 interface's test for a member, `mappers.ts`). */
const namesCoclient = (account: AccountRow): boolean =>
  ['first_name', 'last_name', 'email', 'phone.number'].some(
    (f) => text(account.fields[`coclient.${f}`]) !== null,
  );

/** The score the platform's rules (as the sandbox knows them) would give the local view. */
export function estimateQuality(sources: QualitySources): Quality {
  const { account } = sources;
  const score = qualityScore({
    client: memberInput(account, sources.client, 'client'),
    coclient: namesCoclient(account) ? memberInput(account, sources.coclient, 'coclient') : null,
  });
  return { ...score, estimated: true };
}

/**
 * Re-estimates an account's quality after a local change of the account row or of a member's
 * details, inside the caller's transaction (over `accounts` and `singles`). `before` is the
 * changed row as it was, when there was one.
 *
 * The platform's answer stays while the change alters no rule's verdict (a favorite, a stage, a
 * new date of birth in place of another): its rules are its own, and an estimate in its place
 * would only be less right. An estimate is always brought up to date.
 */
export async function refreshQuality(
  db: AdvisorDb,
  accountId: string,
  before?: AccountRow | SingleRow,
): Promise<void> {
  const account = await db.accounts.get(accountId);
  if (!account) return;
  const [client, coclient] = await db.singles.bulkGet([
    singleRowId(accountId, 'details:client'),
    singleRowId(accountId, 'details:coclient'),
  ]);
  const now: QualitySources = { account, client, coclient };
  const estimate = estimateQuality(now);
  const held = account.meta.quality;
  if (held && !held.estimated && before) {
    const then = { ...now };
    if (!('key' in before)) then.account = before;
    else if (before.key === 'details:client') then.client = before;
    else if (before.key === 'details:coclient') then.coclient = before;
    if (sameValue(estimateQuality(then).rules, estimate.rules)) return;
  }
  if (sameValue(held, estimate)) return;
  await db.accounts.put({ ...account, meta: { ...account.meta, quality: estimate } });
}
