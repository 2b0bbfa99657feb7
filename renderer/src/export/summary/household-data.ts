// What a household's financial summary is made of, read from the local store alone: the account's
// workspace as the screens read it (items without those whose delete is queued, single records,
// coverage), the firm and currency of the signed-in advisor as last pulled, and how many changes
// made here the platform does not have yet. No request to the platform.

import { isPlainObject } from '@shared/is-plain-object.ts';
import type { MemberRole } from '@shared/sections.ts';
import { CONFIG_KEYS, configEntry } from '../../data/config.ts';
import type { AdvisorDb } from '../../data/db.ts';
import type { Confirmations } from '../../data/confirmations.ts';
import type { AccountRow, SectionItemRow, SingleRow } from '../../data/model.ts';
import { accountLabel } from '../../data/labels.ts';
import { memberName, membersOf, readWorkspace } from '../../household/workspace.ts';

/** The firm named at the top: the platform's company fields, or what the caller gives. */
export interface Firm {
  name?: string;
  /** A PNG or JPEG as a data URL, only when its bytes are on this computer. */
  logo?: string;
}

export interface HouseholdData {
  account: AccountRow;
  members: MemberRole[];
  items: SectionItemRow[];
  singles: Record<string, SingleRow>;
  /** Keys of the account's parts not on this computer (`goals`, `income:coclient` …). */
  missing: string[];
  /** Changes made here for this household that the platform does not have yet. */
  unsent: number;
  firm: Firm;
  /** ISO 4217, the advisor's as the platform gives it. */
  currency: string;
  /** Odd values the advisor confirmed as right (data/confirmations.ts). */
  confirmations: Confirmations;
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

export async function readHousehold(
  db: AdvisorDb,
  accountId: string,
  firm: Firm | undefined,
): Promise<HouseholdData> {
  const data = await readWorkspace(db, accountId);
  if (!data.account)
    throw new Error(`No household ${accountId} on this computer: open the account list again.`);
  const [userV2, userV0] = await Promise.all([
    configEntry(db, CONFIG_KEYS.user),
    configEntry(db, CONFIG_KEYS.userV0),
  ]);
  const v2 = isPlainObject(userV2?.data) ? userV2.data : {};
  const v0 = isPlainObject(userV0?.data) ? userV0.data : {};
  return {
    account: data.account,
    members: membersOf(data.account),
    items: data.items,
    singles: data.singles,
    missing: data.coverage.missing,
    unsent: Object.values(data.states).reduce((n, s) => n + s.ops.length, 0),
    firm: { name: firm?.name ?? (text(v0.company) || undefined), logo: firm?.logo },
    currency: text(v2.currency) || 'USD',
    confirmations: data.confirmations,
  };
}

/** The household's name as a title: "Ann Tester and Bob Tester". */
export function householdTitle(data: Pick<HouseholdData, 'account' | 'members'>): string {
  const names = data.members.map((m) => memberName(data.account, m));
  return names.filter(Boolean).join(' and ') || accountLabel(data.account);
}
