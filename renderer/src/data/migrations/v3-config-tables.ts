// Schema version 3: the configuration gets tables of its own (data/config.ts): `config` by kind,
// the `user` by interface, its `teams` and `pipelines` by id.

import { isPlainObject } from '@shared/is-plain-object.ts';
import { CONFIG_KEYS, writeConfigEntry, type ConfigTables } from '../config.ts';

export const STORES_V3 = {
  config: 'kind',
  user: 'api',
  teams: 'id, position',
  pipelines: 'id, position, type',
} as const;

/**
 * The configuration rows kept in `meta` up to version 2 move to their tables, unchanged as their
 * readers see them. Runs inside the upgrade transaction, which touches no other table: the outbox
 * and every record are carried across as they are.
 */
export async function moveConfigOutOfMeta(tx: ConfigTables): Promise<void> {
  const meta = tx.table('meta');
  for (const key of Object.values(CONFIG_KEYS)) {
    const row = (await meta.get(key)) as { value?: unknown } | undefined;
    if (!row) continue;
    const value = row.value;
    if (isPlainObject(value) && typeof value.pulledAt === 'number')
      await writeConfigEntry(tx, key, { pulledAt: value.pulledAt, data: value.data });
    await meta.delete(key);
  }
}
