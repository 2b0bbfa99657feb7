// How a record is named to the user where it appears out of its screen: the sync inbox of
// refused changes and conflicts, progress of pulls. Read from the local view, so a record made
// offline is named as the user typed it.

import { sectionForm } from '@shared/section-forms/build.ts';
import { rowsOf } from './changes/index.ts';
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

/** A member of an account by name ("Jonas Lindqvist"), or '' when the account does not name them. */
function memberName(account: Pick<AccountRow, 'fields'> | undefined, member: string): string {
  const f = account?.fields ?? {};
  return [text(f[`${member}.first_name`]), text(f[`${member}.last_name`])].filter(Boolean).join(' ');
}

/**
 * How a section is named from its storage key ("Assets", "Fixed expenses", "Co-client details"),
 * and the member whose record it is ("Jonas Lindqvist"; '' for the account's sections).
 */
export function sectionLabel(
  key: string,
  account: Pick<AccountRow, 'fields'> | undefined,
): { title: string; who: string } {
  const [path = key, member] = key.split(':');
  const role = member === 'coclient' ? 'Co-client' : member === 'client' ? 'Client' : '';
  const title =
    path === 'details'
      ? `${role || 'Member'} details`
      : (sectionForm(path)?.title ?? path.charAt(0).toUpperCase() + path.slice(1).replace(/-/g, ' '));
  if (!member) return { title, who: '' };
  const who = memberName(account, member);
  return { title: who || path === 'details' ? title : `${title} (${role.toLowerCase()})`, who };
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
  const accountRow = await db.accounts.get(row.accountId);
  const account = accountLabel(accountRow);
  const section = sectionLabel('section' in row ? row.section : row.key, accountRow);
  const what = 'section' in row ? `${section.title}${itemName(row.fields)}` : section.title;
  // A member's record names that member: the co-client's details are the co-client's, not the
  // client's; their details name them as last typed.
  const typed =
    'key' in row && row.key.startsWith('details:')
      ? [text(row.fields.first_name), text(row.fields.last_name)].filter(Boolean).join(' ')
      : '';
  return `${what} · ${typed || section.who || account}`;
}
