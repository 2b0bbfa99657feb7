// How an account reads on screen: member names, labels of sort keys and filters, sync badges,
// quality bands.

import { MEMBER_FIELDS, type MemberField } from '@shared/account-rules.ts';
import type { FormField } from '@shared/section-forms/form.ts';
import { readableMessage } from '@shared/section-forms/server-messages.ts';
import { accountMessage } from '@shared/input-checks.ts';
import { fullyHere } from '../data/coverage.ts';
import type { AccountRow } from '../data/model.ts';
import type { AccountFilter, AccountSortKey } from '../data/queries/index.ts';

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

export function memberName(row: AccountRow, role: 'client' | 'coclient'): string {
  return `${text(row.fields[`${role}.first_name`])} ${text(row.fields[`${role}.last_name`])}`.trim();
}

export function memberEmail(row: AccountRow, role: 'client' | 'coclient'): string {
  return text(row.fields[`${role}.email`]);
}

/** The account's name as advisors say it: the client, and the co-client when there is one. */
export function accountName(row: AccountRow): string {
  const client = memberName(row, 'client') || memberEmail(row, 'client') || 'Unnamed account';
  const co = memberName(row, 'coclient');
  return co ? `${client} & ${co}` : client;
}

/**
 * What a synced row's quiet tick in the list and on the board speaks for: the list's entry, and
 * the whole household only once all of it is on this computer.
 */
export function listHint(row: AccountRow): string | null {
  if (row.status !== 'synced') return null;
  return fullyHere(row)
    ? 'Saved on the platform, and all of it is on this computer.'
    : 'Its entry in the list is saved on the platform; the rest of the household is not on this computer yet.';
}

export const typeLabel = (type: string): string => (type === 'CLIENT' ? 'Client' : 'Prospect');

const ROLE_WORDS = { client: 'Client', coclient: 'Co-client' } as const;
const MEMBER_FIELD_WORDS: Record<MemberField, [words: string, input: FormField['input']]> = {
  first_name: ['first name', 'text'],
  last_name: ['last name', 'text'],
  email: ['email', 'email'],
  'phone.code': ['phone calling code', 'text'],
  'phone.number': ['phone number', 'text'],
  'phone.country': ['phone country', 'country'],
};

/**
 * The account's fields as the platform's messages name them (`client.email`), labelled as the
 * account form shows them (`Client email`): `readableMessage` puts the label in the key's place.
 */
export const ACCOUNT_MESSAGE_FIELDS: readonly FormField[] = [
  { name: 'type', messageName: 'type', label: 'Type', input: 'select', required: true },
  ...(['client', 'coclient'] as const).flatMap((role) =>
    MEMBER_FIELDS.map((f): FormField => {
      const [words, input] = MEMBER_FIELD_WORDS[f];
      const name = `${role}.${f}`;
      return { name, messageName: name, label: `${ROLE_WORDS[role]} ${words}`, input, required: false };
    }),
  ),
];

export const SORT_LABELS: Record<AccountSortKey, string> = {
  created_at: 'Created',
  updated_at: 'Last updated',
  'client.last_name': 'Client last name',
  'client.first_name': 'Client first name',
  'client.email': 'Client email',
  'coclient.last_name': 'Co-client last name',
  'coclient.first_name': 'Co-client first name',
  'coclient.email': 'Co-client email',
  type: 'Type',
  pipeline: 'Pipeline stage',
  quality: 'Quality score',
  favorited: 'Favorite',
  archived: 'Archived',
};

/** The filters of the list; `active` is the interface's default (everything but archived). */
export type ListFilter = AccountFilter | 'active';

export const FILTERS: { value: ListFilter; label: string; hint: string }[] = [
  { value: 'active', label: 'Active', hint: 'Clients and prospects that are not archived' },
  { value: 'client', label: 'Clients', hint: 'Clients that are not archived' },
  { value: 'prospect', label: 'Prospects', hint: 'Prospects that are not archived' },
  { value: 'favorite', label: 'Favorites', hint: 'Favorites that are not archived' },
  { value: 'archived', label: 'Archived', hint: 'Archived accounts only' },
  { value: 'all', label: 'All', hint: 'Every account, archived ones included' },
];

/** Quality bands: the platform's score is the valid share (0–100) of weighted KYC rules. */
export function qualityBand(score: number): 'low' | 'mid' | 'high' {
  return score < 50 ? 'low' : score < 80 ? 'mid' : 'high';
}

/** How a score estimated here is described, wherever it shows (a sentence; lower-cased inside one). */
export const ESTIMATE_NOTE = 'Estimated on this computer until the platform answers';

/** The score in words, for a tooltip or an accessible name. */
export function qualityLabel(quality: { score: number; estimated?: boolean }): string {
  const label = `Quality score ${quality.score} of 100`;
  return quality.estimated ? `${label}, ${ESTIMATE_NOTE.toLowerCase()}` : label;
}

/**
 * A quality rule not met, said as what is missing: the platform names a rule by what holds when it
 * is met (`Client date of birth is on file`), which read wrong after "Missing:". A rule worded
 * otherwise is said as not met.
 */
export function unmetRule(message: string): string {
  const m = /^(.*) (is|are) (on file|complete|recorded)$/.exec(message.trim());
  return m ? `${m[1]} ${m[2]} not ${m[3]}` : `Not met: ${message}`;
}

/**
 * What the platform said about an account change, in the account dialog's words, the field named
 * as outside the dialog (`Client email: enter an e-mail address such as name@example.com.`). `key`:
 * the field the message is filed under, or null for the answer's summary.
 */
export function accountRefusal(key: string | null, message: string): string {
  const field = key === null ? undefined : ACCOUNT_MESSAGE_FIELDS.find((f) => f.name === key);
  const said = field ? accountMessage(field.name, message, field.label) : message;
  return readableMessage(said, ACCOUNT_MESSAGE_FIELDS);
}
