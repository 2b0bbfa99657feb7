// A questionnaire's preview (the platform's HTML page of it) by the address this computer keeps it
// under, and the previews a household prepared for a meeting takes along (sync/coordinator/preparation.ts).

import type { StoredFileRequest } from '@shared/bridge.ts';
import type { AdvisorDb } from './db.ts';
import type { EngagementRow } from './model.ts';

/**
 * The address of an engagement's current preview. The main process keeps a preview by its
 * address: the current one gets a new address each time the engagement moves on (progress,
 * completion), so an older copy is never shown for it. Empty when the platform gave none.
 */
export function previewAddress(engagement: EngagementRow['server']): string {
  const { url } = engagement;
  if (!url) return '';
  const stamp = [
    engagement.status,
    engagement.filled,
    engagement.completed_at ?? '',
    engagement.opened_at ?? '',
  ].join('.');
  return `${url}${url.includes('?') ? '&' : '?'}seen=${encodeURIComponent(stamp)}`;
}

/**
 * The previews of the household's completed questionnaires, to keep offline with its files (those
 * still being filled in change, and are read online). Sends nothing.
 */
export async function householdPreviews(db: AdvisorDb, accountId: string): Promise<StoredFileRequest[]> {
  const account = await db.accounts.get(accountId);
  if (typeof account?.serverId !== 'number') return [];
  const rows = await db.engagements.where('accountServerId').equals(account.serverId).toArray();
  return rows
    .filter((e) => e.completed === 1 && e.server.url)
    .map((e) => ({
      api: 'v2' as const,
      url: previewAddress(e.server),
      name: `${e.server.title || 'questionnaire'}.html`,
    }));
}
