// Accounts in the local store: the flat field paths (the keys of the version 2 account body) and
// the index columns derived from them on every write.

import { foldForSearch } from '@shared/search-text.ts';
import type { AccountMeta, AccountOrder, AccountRow, Fields } from './model.ts';

const MEMBER = ['first_name', 'last_name', 'email', 'phone.code', 'phone.number', 'phone.country'] as const;

/** Every editable field of an account, as flat paths. `coclient.*` are all null without a co-client. */
export const ACCOUNT_FIELDS = [
  'type',
  ...MEMBER.map((f) => `client.${f}`),
  ...MEMBER.map((f) => `coclient.${f}`),
  'archived',
  'favorited',
  'pipeline.id',
] as const;

export const emptyMeta = (): AccountMeta => ({
  clientId: null,
  coclientId: null,
  clientStatus: null,
  coclientStatus: null,
  quality: null,
  pipeline: null,
  created_at: null,
  updated_at: null,
});

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The `search` column: first names, last names and emails of client and co-client, each
 * lower-cased as typed (what the duplicate check and the feed's names look up exactly) and folded
 * as the search reads them (shared/search-text.ts: accents and punctuation ignored).
 */
export function searchColumn(fields: Fields): string[] {
  const search = new Set<string>();
  for (const member of ['client', 'coclient']) {
    for (const f of ['first_name', 'last_name', 'email']) {
      const raw = text(fields[`${member}.${f}`]);
      const v = raw.trim().toLowerCase();
      if (v) search.add(v);
      const folded = foldForSearch(raw);
      if (folded) search.add(folded);
    }
  }
  return [...search];
}

/** Index columns of an account row, from its local view and server meta. */
export function accountIndex(
  fields: Fields,
  meta: AccountMeta,
): Pick<AccountRow, 'type' | 'archived' | 'favorited' | 'pipelineId' | 'createdAt' | 'updatedAt' | 'search'> {
  return {
    type: fields.type === 'PROSPECT' ? 'PROSPECT' : 'CLIENT',
    archived: fields.archived === true ? 1 : 0,
    favorited: fields.favorited === true ? 1 : 0,
    pipelineId: text(fields['pipeline.id']),
    // Local records not yet on the server sort as newest.
    createdAt: meta.created_at ?? '9999-12-31 23:59:59',
    updatedAt: meta.updated_at ?? '9999-12-31 23:59:59',
    search: searchColumn(fields),
  };
}

// ---- the list's order -------------------------------------------------------------------------

/** A text as the list sorts it first: accents and case ignored (its code units break ties). */
export const foldText = (value: string): string =>
  value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Text sort keys of the account list, by the `order` column that walks each. */
export const TEXT_ORDER_COLUMNS = {
  'client.first_name': 'clientFirstName',
  'client.last_name': 'clientLastName',
  'client.email': 'clientEmail',
  'coclient.first_name': 'coclientFirstName',
  'coclient.last_name': 'coclientLastName',
  'coclient.email': 'coclientEmail',
} as const satisfies Record<string, keyof AccountOrder>;

/**
 * The order the platform breaks ties in, as an index key: by server id (accounts not on the
 * server yet after every other, newest change last), then the local id.
 */
export function madeKey(row: Pick<AccountRow, 'id' | 'serverId' | 'changedAt'>): [number, number, string] {
  // A row with no valid key here would drop out of every walk of the list: no part may be missing.
  return [
    typeof row.serverId === 'number' ? row.serverId : Infinity,
    typeof row.changedAt === 'number' ? row.changedAt : 0,
    row.id,
  ];
}

/**
 * The `order` column of an account row: one index key per sort key that has no other index in
 * its order, each ending with the row's made key so that equal values keep the platform's
 * tie order. An empty value has no key (IndexedDB leaves the row out of that index), so that
 * empty values can follow the others in both directions.
 */
export function accountOrder(row: AccountRow): AccountOrder {
  const made = madeKey(row);
  const order: AccountOrder = { made };
  const score = row.meta?.quality?.score;
  if (typeof score === 'number') order.quality = [score, ...made];
  for (const [field, column] of Object.entries(TEXT_ORDER_COLUMNS)) {
    const value = text(row.fields[field]);
    if (value !== '') order[column] = [foldText(value), value, ...made];
  }
  return order;
}
