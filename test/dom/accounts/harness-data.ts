// Accounts as a pull leaves them in the local store, and the user resource the sync pulls into
// `meta`: the data the account screens' tests start from (no Vue, no DOM).

import { accountIndex, emptyMeta } from '../../../renderer/src/data/accounts.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import type { AccountMeta, AccountRow, Fields } from '../../../renderer/src/data/model.ts';
import { CONFIG_KEYS, putConfigEntry } from '../../../renderer/src/data/queries/index.ts';

export const STAGES = {
  prospect: [
    { id: 'p1', type: 'PROSPECT', title: 'Onboard', description: 'First contact', icon: 'i_user_plus' },
    { id: 'p2', type: 'PROSPECT', title: 'Acquire', description: 'Proposal', icon: 'i_bullseye' },
    { id: 'p3', type: 'PROSPECT', title: 'Re-engage', description: 'Follow up', icon: 'i_user_clock' },
  ],
  client: [
    { id: 'c1', type: 'CLIENT', title: 'Onboard', description: 'Paperwork', icon: 'i_user_check' },
    { id: 'c2', type: 'CLIENT', title: 'Plan', description: 'The plan', icon: 'i_lightbulb' },
  ],
};

export const ALL_PERMISSIONS = [
  'accounts.prospects',
  'accounts.prospects.create',
  'accounts.prospects.update',
  'accounts.prospects.delete',
  'accounts.clients',
  'accounts.clients.create',
  'accounts.clients.update',
  'accounts.clients.delete',
  'accounts.favorite',
  'accounts.archive',
  'accounts.convert',
];

/** The user resource as the sync pulls it (data/config.ts), with every account permission but `without`. */
export async function userConfig(db: AdvisorDb, without: string[] = []): Promise<void> {
  const permissions = Object.fromEntries(ALL_PERMISSIONS.map((k) => [k, !without.includes(k)]));
  await putConfigEntry(db, CONFIG_KEYS.user, {
    pulledAt: Date.now(),
    data: {
      first_name: 'Alex',
      last_name: 'Morgan',
      phone: { code: '+1', number: '5125550100', country: 'US' },
      permissions,
      pipelines: [...STAGES.prospect, ...STAGES.client],
    },
  });
}

export interface AccountSpec {
  serverId?: number | null;
  type?: 'CLIENT' | 'PROSPECT';
  first: string;
  last: string;
  email?: string;
  co?: { first: string; last: string; email?: string };
  stage?: string;
  favorited?: boolean;
  archived?: boolean;
  quality?: number;
  created?: string;
}

let nextServerId = 1;

/** An account already on the platform, as a pull stores it. */
export async function account(db: AdvisorDb, spec: AccountSpec): Promise<AccountRow> {
  const type = spec.type ?? 'CLIENT';
  const fields: Fields = {
    type,
    'client.first_name': spec.first,
    'client.last_name': spec.last,
    'client.email': spec.email ?? `${spec.first}.${spec.last}@example.com`.toLowerCase(),
    'client.phone.code': null,
    'client.phone.number': null,
    'client.phone.country': null,
    'coclient.first_name': spec.co?.first ?? null,
    'coclient.last_name': spec.co?.last ?? null,
    'coclient.email': spec.co
      ? (spec.co.email ?? `${spec.co.first}.${spec.co.last}@example.com`.toLowerCase())
      : null,
    'coclient.phone.code': null,
    'coclient.phone.number': null,
    'coclient.phone.country': null,
    archived: spec.archived ?? false,
    favorited: spec.favorited ?? false,
    'pipeline.id': spec.stage ?? (type === 'CLIENT' ? 'c1' : 'p1'),
  };
  const serverId = spec.serverId === undefined ? nextServerId++ : spec.serverId;
  const meta: AccountMeta = {
    ...emptyMeta(),
    clientId: serverId,
    coclientId: spec.co && serverId ? serverId + 10_000 : null,
    quality:
      spec.quality === undefined
        ? null
        : { score: spec.quality, rules: [{ message: 'Client date of birth is on file', valid: false }] },
    created_at: spec.created ?? `2024-01-${String(((serverId ?? 0) % 28) + 1).padStart(2, '0')} 10:00:00`,
    updated_at: spec.created ?? '2024-02-01 10:00:00',
  };
  const row: AccountRow = {
    id: crypto.randomUUID(),
    serverId,
    fields,
    server: { ...fields },
    status: 'synced',
    changedAt: 0,
    ...accountIndex(fields, meta),
    meta,
    availableOffline: 0,
    openedAt: null,
    pulledAt: null,
  };
  await db.accounts.add(row);
  return row;
}
