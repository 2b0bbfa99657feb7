// The one database of earlier versions (`advisor-desk`, every user and team in it): adopted by the
// identity it belongs to, else left alone. It becomes an identity's store only when its kept user
// is the signed-in user and its kept current team is the bound team; then every table is copied
// into that identity's store, its queued changes stamped with the identity, and it is deleted.
// Any other user or team never opens it (its rows could be another user's clients), and it is
// never changed: it stays on disk for the user it belongs to.

import Dexie from 'dexie';
import { isPlainObject } from '@shared/is-plain-object.ts';
import { AdvisorDb } from '../db.ts';
import { CONFIG_KEYS } from '../config.ts';
import { IDENTITY_META_KEY, STORE_PREFIX, platformUserId, type StoreIdentity } from './index.ts';
import type { Operation } from '../model.ts';
import { storeExists, type DexieOptions } from './store-names.ts';

/** The name of the one database of earlier versions. */
export const LEGACY_STORE = STORE_PREFIX;

/** The `meta` row by which a store says it adopted the legacy one (so a leftover copy is deleted). */
export const ADOPTED_META_KEY = 'adoptedLegacyStore';

/** Who the legacy store's kept user is and their current team, read without upgrading it. */
async function keptOwner(
  options: DexieOptions,
): Promise<{ id: number | string | null; team: unknown } | null> {
  // No version declared: Dexie opens the database as it is, upgrading nothing.
  const raw = new Dexie(LEGACY_STORE, options);
  try {
    await raw.open();
    const names = raw.tables.map((t) => t.name);
    let user: unknown;
    if (names.includes('user')) user = ((await raw.table('user').get('v2')) as { data?: unknown })?.data;
    else if (names.includes('meta')) {
      const row = (await raw.table('meta').get(CONFIG_KEYS.user)) as
        { value?: { data?: unknown } } | undefined;
      user = row?.value?.data;
    }
    if (!isPlainObject(user)) return null;
    return { id: platformUserId(user), team: isPlainObject(user.team) ? user.team.id : undefined };
  } finally {
    raw.close();
  }
}

/**
 * Copies the legacy store into `target` (a store that recorded no identity yet) when it belongs to
 * `identity`, whose user is `userId` on the platform (`platformUserId`), and deletes it; true when it did. A legacy store
 * of anyone else, or of another team, is left untouched.
 */
export async function adoptLegacyStore(
  target: AdvisorDb,
  identity: StoreIdentity,
  userId: number | string,
  options: DexieOptions,
): Promise<boolean> {
  if (!(await storeExists(LEGACY_STORE, options))) return false;
  const owner = await keptOwner(options);
  if (!owner || owner.id === null || owner.id !== userId || owner.team !== identity.team) return false;

  // It is this identity's: open it at the current schema (its upgrades keep the outbox) and copy.
  const legacy = new AdvisorDb(LEGACY_STORE, options);
  const tables = target.tables.map((t) => t.name);
  const copied = new Map<string, unknown[]>();
  try {
    await legacy.open();
    for (const name of tables) copied.set(name, await legacy.table(name).toArray());
  } finally {
    legacy.close();
  }
  for (const op of copied.get('outbox') as Operation[])
    op.identity ??= { user: identity.user, team: identity.team };
  copied
    .get('meta')!
    .push({ key: IDENTITY_META_KEY, value: identity }, { key: ADOPTED_META_KEY, value: true });
  // All or nothing: the identity is recorded with the rows, so a crash midway adopts again.
  await target.transaction('rw', tables, async () => {
    for (const name of tables) await target.table(name).bulkPut(copied.get(name)!);
  });
  await dropAdoptedLegacyStore(target, options);
  return true;
}

/** Once its rows are in `target`, the legacy store goes (again, should a crash have left it). */
export async function dropAdoptedLegacyStore(target: AdvisorDb, options: DexieOptions): Promise<void> {
  if (!(await target.meta.get(ADOPTED_META_KEY))) return;
  if (await storeExists(LEGACY_STORE, options)) await new Dexie(LEGACY_STORE, options).delete();
}
