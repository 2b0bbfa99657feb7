// Opening "Prepare for a meeting" from anywhere (the account list, the pipeline board, the command
// palette): one dialog in the frame, shown with the households chosen so far, or to choose them.

import { ref } from 'vue';
import { prepareForMeeting } from '../common/pulls.ts';

/** Whether the dialog is open. */
export const prepareDialogOpen = ref(false);

/** Opens the dialog to choose households (the palette's "Prepare for a meeting…"). */
export function choosePrepared(): void {
  prepareDialogOpen.value = true;
}

/**
 * Prepares these households (added to any under way) and shows their progress. A storage problem
 * is said by the sync store; the dialog shows what went.
 */
export function prepareHouseholds(localIds: readonly string[]): void {
  prepareDialogOpen.value = true;
  void prepareForMeeting(localIds).catch(() => undefined);
}
