// How a record is named to the user where it appears out of its screen: the sync inbox of
// refused changes and conflicts, progress of pulls. Read from the local view, so a record made
// offline is named as the user typed it.

import { rowsOf } from './changes.ts';
import type { AdvisorDb } from './db.ts';
import type { AccountRow, Fields, SyncedTable } from './model.ts';

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** "Ann Tester", or the email, for an account's client. */
export function accountLabel(account: Pick<AccountRow, 'fields'> | undefined): string {
  if (!account) return 'An account no longer on this computer';
  const f = account.fields;
  const name = [text(f['client.first_name']), text(f['client.last_name'])].filter(Boolean).join(' ');
  return name || text(f['client.email']) || 'A new account';
}

/** "Assets", "Employment (co-client)", "Client details", from a section storage key. */
function sectionLabel(key: string): string {
  const [path = key, member] = key.split(':');
  const who = member === 'coclient' ? 'co-client' : member;
  if (path === 'details') return who === 'co-client' ? 'Co-client details' : 'Client details';
  const words = path.replace(/-/g, ' ');
  const title = words.charAt(0).toUpperCase() + words.slice(1);
  return who ? `${title} (${who})` : title;
}

function itemName(fields: Fields): string {
  const name =
    text(fields.name) || [text(fields.first_name), text(fields.last_name)].filter(Boolean).join(' ');
  return name ? ` “${name}”` : '';
}

/** A record's name for the user: the account's client, or the section (and item) with its account. */
export async function recordLabel(db: AdvisorDb, table: SyncedTable, recordId: string): Promise<string> {
  const row = await rowsOf(db, table).get(recordId);
  if (table === 'accounts') return accountLabel(row);
  if (!row || !('accountId' in row)) return 'A record no longer on this computer';
  const account = accountLabel(await db.accounts.get(row.accountId));
  const what =
    'section' in row ? `${sectionLabel(row.section)}${itemName(row.fields)}` : sectionLabel(row.key);
  return `${what} · ${account}`;
}
