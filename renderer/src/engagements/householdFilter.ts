// The Engagements list's household filter: a household chosen by name (suggestions as the user
// types), read live, and then one of its members, whose platform id is what the query matches.

import { liveQuery } from 'dexie';
import { computed, onScopeDispose, ref, shallowRef, watch } from 'vue';
import type { AdvisorDb } from '../data/db.ts';
import type { AccountRow } from '../data/model.ts';
import { searchAccounts } from '../data/queries/index.ts';

export type MemberFilter = 'client' | 'coclient' | null;

/** The filter, starting from the household (local id) and member the address names. */
export function useHouseholdFilter(db: AdvisorDb, start: { accountId: string | null; member: MemberFilter }) {
  const accountId = ref<string | null>(start.accountId);
  const member = ref<MemberFilter>(start.member);

  /** The chosen household, live (its member ids arrive with a pull). */
  const account = shallowRef<AccountRow | null>(null);
  let accountSub: { unsubscribe(): void } | null = null;
  watch(
    accountId,
    (id) => {
      accountSub?.unsubscribe();
      account.value = null;
      if (!id) return;
      accountSub = liveQuery(() => db.accounts.get(id)).subscribe({
        next: (row) => (account.value = row ?? null),
      });
    },
    { immediate: true },
  );
  onScopeDispose(() => accountSub?.unsubscribe());

  const memberId = computed(() => {
    if (!member.value || !account.value) return undefined;
    const id = member.value === 'coclient' ? account.value.meta.coclientId : account.value.meta.clientId;
    // A member the platform has not numbered yet has no questionnaire: nothing matches.
    return id === null ? -1 : Number(id);
  });

  /** What the household field holds: the household chosen, or the text typed. */
  const accountPick = ref<AccountRow | string | null>(null);
  const suggestions = ref<AccountRow[]>([]);
  async function findAccounts(event: { query: string }) {
    suggestions.value = await searchAccounts(db, event.query.trim(), 20);
  }
  watch(account, (row) => (accountPick.value = row));
  function pickAccount(row: AccountRow | null) {
    accountId.value = row?.id ?? null;
    if (!row) member.value = null;
  }

  return { accountId, member, memberId, accountPick, suggestions, findAccounts, pickAccount };
}
