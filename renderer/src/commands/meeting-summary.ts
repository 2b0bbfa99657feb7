// Opening "Meeting summary…" from anywhere (the sync panel, the command palette, and the
// workspace's export menu when it has one): one dialog in the frame, for one household.

import { ref } from 'vue';

/** The household the dialog is open for, or null when it is closed. */
export const meetingSummaryAccount = ref<string | null>(null);

/** Opens the dialog for a household (its local account id). */
export function openMeetingSummary(accountId: string): void {
  meetingSummaryAccount.value = accountId;
}
