// What the workspace knows of the parts of its account that are not on this computer: which are
// missing, whether a pull of the account is bringing them now, their names in an advisor's words,
// and "Get it now" (the account pulled before anything else, as when it is opened).

import { computed, ref } from 'vue';
import { formOfKey } from '@shared/section-forms/build.ts';
import type { MemberRole } from '@shared/sections.ts';
import { useConnectivityStore } from '../common/connectivity.ts';
import { useSyncStore } from '../common/sync.ts';
import { openAccount } from '../common/pulls.ts';
import { ACTIVITY_PART, COMPLETE, PROFILE_PART } from '../data/coverage.ts';
import type { AccountRow } from '../data/model.ts';
import { memberLabel, useWorkspace } from './workspace.ts';

/** A part of an account in words: "Assets", "Income · Bob Tester", "Details of Ann Tester". */
export function partLabel(key: string, account: AccountRow | null): string {
  const [head, member] = key.split(':') as [string, MemberRole | undefined];
  if (key === PROFILE_PART) return 'Profile';
  if (key === ACTIVITY_PART) return 'Activity';
  if (head === 'details' && member) return `Details of ${memberLabel(account, member)}`;
  if (head === 'security' && member) return `Form access of ${memberLabel(account, member)}`;
  const found = formOfKey(key);
  if (!found) return key;
  return found.member ? `${found.form.title} · ${memberLabel(account, found.member)}` : found.form.title;
}

/** "A", "A and B", "A, B and C": the parts named in a sentence. */
export function listed(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

export function useCoverage() {
  const workspace = useWorkspace();
  const sync = useSyncStore();
  const connectivity = useConnectivityStore();
  const coverage = computed(() => workspace.data.value?.coverage ?? COMPLETE);
  const asking = ref(false);
  const problem = ref<string | null>(null);

  /** Keys of the parts the platform has and this computer does not. */
  const missing = computed(() => coverage.value.missing);
  const isMissing = (key: string): boolean => missing.value.includes(key);
  /** A pull of this account runs now (opening it, "Get it now", keeping it offline). */
  const pulling = computed(
    () => asking.value || sync.progress.some((p) => p.accountId === workspace.accountId.value),
  );
  const online = computed(() => connectivity.state === 'online');

  /** Pulls the account now, before any background work; says why when nothing came. */
  async function getNow(): Promise<void> {
    if (asking.value) return;
    asking.value = true;
    problem.value = null;
    try {
      const report = await openAccount(workspace.accountId.value);
      if (report.skipped)
        problem.value = 'The platform cannot be reached now: it is tried again when online.';
      else if (report.failures.length)
        problem.value = `Some of it could not be downloaded (${report.failures[0]?.message ?? 'error'}): try again.`;
    } catch (e) {
      problem.value = `It could not be downloaded: ${(e as Error).message}`;
    } finally {
      asking.value = false;
    }
  }

  return { coverage, missing, isMissing, pulling, online, getNow, problem };
}
