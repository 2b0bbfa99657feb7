// Favorite and archive from the account list: each toggle is a change of the account (through the
// change module, to the platform later), said once done for a screen reader, and refused in a toast.
// An archive is said with Undo (ArchiveUndo.vue): the row leaves the list at once.

import type { ToastMessageOptions } from 'primevue/toast';
import { useToast } from 'primevue/usetoast';
import { computed, ref, type Ref } from 'vue';
import { ARCHIVE_PERMISSION, FAVORITE_PERMISSION } from '@shared/account-rules.ts';
import { useSyncStore } from '../common/sync.ts';
import { updateRecord } from '../data/changes/index.ts';
import type { AdvisorDb } from '../data/db.ts';
import type { AccountRow } from '../data/model.ts';
import { accountName, type ListFilter } from '../household/display.ts';
import type { UserConfig } from '../household/userConfig.ts';
import { platformError, platformPlain } from '@shared/platform-text.ts';

/** The toast group of the word after an archive, with its Undo. */
export const ARCHIVE_UNDO_GROUP = 'archive-undo';
export interface ArchiveUndoMessage extends ToastMessageOptions {
  undo: () => void;
}

/** The toggles of the list showing `filter` (an account archived out of sight says where it went). */
export function useAccountToggles(db: AdvisorDb, config: UserConfig, filter: Ref<ListFilter>) {
  const toast = useToast();
  const sync = useSyncStore();

  /** The last change made, in words (the list's polite live region). */
  const announcement = ref('');
  const favoriteReason = computed(() => config.reason(FAVORITE_PERMISSION));
  const archiveReason = computed(() => config.reason(ARCHIVE_PERMISSION));
  /** Why either toggle is off for this user, or '' when both are allowed. */
  const rightsNote = computed(() =>
    [favoriteReason.value, archiveReason.value].filter((r): r is string => r !== null).join(' '),
  );

  /** Whether the change was made (a refusal is said in a toast). */
  async function change(row: AccountRow, patch: Record<string, unknown>, said: string): Promise<boolean> {
    try {
      await sync.save(() => updateRecord(db, 'accounts', row.id, patch));
      announcement.value = said;
      return true;
    } catch (e) {
      toast.add({
        severity: 'error',
        summary: 'Not changed',
        detail: platformError(e),
        life: 8000,
      });
      return false;
    }
  }
  function toggleFavorite(row: AccountRow) {
    const on = row.favorited !== 1;
    void change(
      row,
      { favorited: on },
      `${accountName(row)} ${on ? 'marked as favorite' : 'is no longer a favorite'}.`,
    );
  }
  function toggleArchived(row: AccountRow) {
    const on = row.archived !== 1;
    const name = platformPlain(accountName(row));
    const restore = () => void change(row, { archived: false }, `${name} restored from the archive.`);
    void change(row, { archived: on }, `${name} ${on ? 'archived' : 'restored from the archive'}.`).then(
      (made) => {
        if (!on || !made) return;
        const message: ArchiveUndoMessage = {
          group: ARCHIVE_UNDO_GROUP,
          severity: 'info',
          summary: `${name} archived`,
          detail:
            filter.value !== 'archived' && filter.value !== 'all'
              ? 'Find it under Archived, or undo.'
              : 'It stays listed here as archived.',
          life: 10_000,
          undo: restore,
        };
        toast.add(message);
      },
    );
  }

  return { announcement, favoriteReason, archiveReason, rightsNote, toggleFavorite, toggleArchived };
}
