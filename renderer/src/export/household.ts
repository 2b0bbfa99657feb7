// One household as an export reads it from the local store, never from the platform: the account,
// its members, items and single records (as the workspace reads them), what of it is on this
// computer, its net worth and monthly cash flow (the app's own figures), and the unsent changes.

import { cashFlow, netWorth, type CashFlow, type NetWorth } from '@shared/finance.ts';
import type { MemberRole } from '@shared/sections.ts';
import type { AccountCoverage } from '../data/coverage.ts';
import type { AdvisorDb } from '../data/db.ts';
import type { AccountRow, Fields, SectionItemRow } from '../data/model.ts';
import { memberLabel, membersOf, readWorkspace } from '../household/workspace.ts';

export interface HouseholdMember {
  role: MemberRole;
  /** Their name, or their role while the name is empty. */
  name: string;
}

export interface Household {
  account: AccountRow;
  members: HouseholdMember[];
  /** Items of every section, without those whose delete is queued, in the workspace's order. */
  items: SectionItemRow[];
  /** Single records and member details by key (`expenses-fixed`, `income:client`, `details:client`). */
  singles: Record<string, Fields>;
  coverage: AccountCoverage;
  netWorth: NetWorth;
  cashFlow: CashFlow;
  /** Changes made here that the platform does not have yet (queued, refused or in conflict). */
  unsent: number;
  /** When the household was last pulled (ms), or null when it never was. */
  pulledAt: number | null;
}

/** The household of `accountId`; an error naming it when the account is not on this computer. */
export async function readHousehold(db: AdvisorDb, accountId: string): Promise<Household> {
  const data = await readWorkspace(db, accountId);
  const account = data.account;
  if (!account) throw new Error(`The household ${accountId} is not on this computer: nothing to export.`);
  const singles = Object.fromEntries(Object.entries(data.singles).map(([key, row]) => [key, row.fields]));
  const itemsLike = data.items.map((i) => ({ section: i.section, fields: i.fields }));
  return {
    account,
    members: membersOf(account).map((role) => ({ role, name: memberLabel(account, role) })),
    items: data.items,
    singles,
    coverage: data.coverage,
    netWorth: netWorth(itemsLike),
    cashFlow: cashFlow(singles, itemsLike),
    unsent: Object.values(data.states).reduce((sum, state) => sum + state.ops.length, 0),
    pulledAt: account.pulledAt,
  };
}

/** Whether the household holds any financial figure at all (an item, or a single record's amount). */
export function hasFinancialData(household: Household): boolean {
  return (
    household.items.length > 0 ||
    household.cashFlow.oneTime.length > 0 ||
    household.cashFlow.uncounted.length > 0 ||
    [household.cashFlow.income, household.cashFlow.fixed, household.cashFlow.tax].some((c) => c !== 0)
  );
}
