// Accounts in the local store: the flat field paths (the keys of the version 2 account body) and
// the index columns derived from them on every write.

import type { AccountMeta, AccountRow, Fields } from './model.ts';

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

/** Index columns of an account row, from its local view and server meta. */
export function accountIndex(
  fields: Fields,
  meta: AccountMeta,
): Pick<AccountRow, 'type' | 'archived' | 'favorited' | 'pipelineId' | 'createdAt' | 'updatedAt' | 'search'> {
  const search = new Set<string>();
  for (const member of ['client', 'coclient']) {
    for (const f of ['first_name', 'last_name', 'email']) {
      const v = text(fields[`${member}.${f}`]).trim().toLowerCase();
      if (v) search.add(v);
    }
  }
  return {
    type: fields.type === 'PROSPECT' ? 'PROSPECT' : 'CLIENT',
    archived: fields.archived === true ? 1 : 0,
    favorited: fields.favorited === true ? 1 : 0,
    pipelineId: text(fields['pipeline.id']),
    // Local records not yet on the server sort as newest.
    createdAt: meta.created_at ?? '9999-12-31 23:59:59',
    updatedAt: meta.updated_at ?? '9999-12-31 23:59:59',
    search: [...search],
  };
}
