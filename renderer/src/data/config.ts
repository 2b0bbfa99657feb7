// Configuration the sync pulls (PullEngine.pullConfig, pullDefinitions) and the screens read: icons,
// activity types, the dataset, template structures, the 0.0.1 templates and the section forms'
// allowed values in `config` (one row per kind),
// the user as each interface gives it in `user`, and the user's teams and pipeline stages in
// tables of their own, in the order the platform gave them. Readers get each piece back whole as a
// `ConfigEntry` (the user with its `teams` and `pipelines` lists), as they did when all of it was
// kept in `meta`; schema version 3 moved those rows here (migrations/v3-config-tables.ts).

import type { Table } from 'dexie';
import { z } from 'zod';
import { isPlainObject } from '@shared/is-plain-object.ts';
import type { AdvisorDb } from './db.ts';
import type { ConfigKind, ConfigRow, PipelineRow, TeamRow, UserRow } from './model.ts';

/** Names of the pieces of configuration (the `meta` keys they had up to schema version 2). */
export const CONFIG_KEYS = {
  icons: 'config.icons',
  activities: 'config.activities',
  dataset: 'config.dataset',
  /** The user resource: permissions, teams, pipelines, template summaries. */
  user: 'config.user',
  /** Template structures by template id. */
  templates: 'config.templates',
  /** The 0.0.1 user: company, company email, phone and logo. */
  userV0: 'config.userV0',
  /** The 0.0.1 templates (`/user/templates`): the keys forms are sent with. */
  formTemplates: 'config.formTemplates',
  /**
   * The allowed values of the section forms' selects by entity and field (`/define`,
   * shared/allowed-values.ts), as `Definitions`; pulled by sync/pull/definitions.ts.
   */
  definitions: 'config.definitions',
} as const;

export type ConfigKey = (typeof CONFIG_KEYS)[keyof typeof CONFIG_KEYS];

export interface ConfigEntry<T = unknown> {
  pulledAt: number;
  data: T;
}

/** Where each piece lives: a `config` row of a kind, or the `user` row of an interface. */
const PLACES: Record<ConfigKey, { kind: ConfigKind } | { api: UserRow['api'] }> = {
  [CONFIG_KEYS.icons]: { kind: 'icons' },
  [CONFIG_KEYS.activities]: { kind: 'activities' },
  [CONFIG_KEYS.dataset]: { kind: 'dataset' },
  [CONFIG_KEYS.templates]: { kind: 'templates' },
  [CONFIG_KEYS.formTemplates]: { kind: 'formTemplates' },
  [CONFIG_KEYS.definitions]: { kind: 'definitions' },
  [CONFIG_KEYS.user]: { api: 'v2' },
  [CONFIG_KEYS.userV0]: { api: 'v0' },
};

/** The lists of the version 2 user that have tables of their own. */
const USER_LISTS = ['teams', 'pipelines'] as const;
type UserList = (typeof USER_LISTS)[number];

/** The configuration tables, for a transaction. */
export const CONFIG_TABLES = ['config', 'user', 'teams', 'pipelines'] as const;

/** A database or an upgrade transaction: both name their tables. */
export interface ConfigTables {
  table(name: string): Table;
}

/** An element of the user's `teams` or `pipelines` as a row needs it: an id (a number or a text). */
const Keyed = z.looseObject({ id: z.union([z.number(), z.string().min(1)]) });
const idOf = (v: unknown): string | number | null => {
  const read = Keyed.safeParse(v);
  return read.success ? read.data.id : null;
};

/** Whether a list can be kept as rows: every element an object with an id of its own. */
function keyable(list: unknown): list is Record<string, unknown>[] {
  if (!Array.isArray(list)) return false;
  const ids = list.map(idOf);
  return ids.every((id) => id !== null) && new Set(ids).size === ids.length;
}

/**
 * Stores one piece of configuration in its place, in a database's transaction or an upgrade's
 * (migrations/v3-config-tables.ts).
 */
export async function writeConfigEntry(
  tables: ConfigTables,
  key: ConfigKey,
  entry: ConfigEntry,
): Promise<void> {
  const place = PLACES[key];
  if ('kind' in place) {
    await tables.table('config').put({ kind: place.kind, ...entry } satisfies ConfigRow);
    return;
  }
  if (place.api === 'v0' || !isPlainObject(entry.data)) {
    await tables.table('user').put({ api: place.api, ...entry, lists: [] } satisfies UserRow);
    return;
  }
  const data = { ...entry.data };
  const lists: UserList[] = [];
  const rows: Partial<Record<UserList, (TeamRow | PipelineRow)[]>> = {};
  for (const name of USER_LISTS) {
    const list = data[name];
    if (!keyable(list)) continue;
    lists.push(name);
    delete data[name];
    rows[name] = list.map((server, position) => ({
      id: idOf(server)!,
      position,
      ...(name === 'pipelines' ? { type: typeof server.type === 'string' ? server.type : '' } : {}),
      server,
      pulledAt: entry.pulledAt,
    }));
  }
  // A new user resource replaces the lists whole: a team or stage it no longer names is gone.
  for (const name of USER_LISTS) {
    await tables.table(name).clear();
    await tables.table(name).bulkPut(rows[name] ?? []);
  }
  await tables.table('user').put({ api: 'v2', pulledAt: entry.pulledAt, data, lists } satisfies UserRow);
}

async function read<T>(tables: ConfigTables, key: ConfigKey): Promise<ConfigEntry<T> | undefined> {
  const place = PLACES[key];
  if ('kind' in place) {
    const row = (await tables.table('config').get(place.kind)) as ConfigRow | undefined;
    return row && { pulledAt: row.pulledAt, data: row.data as T };
  }
  const row = (await tables.table('user').get(place.api)) as UserRow | undefined;
  if (!row) return undefined;
  if (row.lists.length === 0) return { pulledAt: row.pulledAt, data: row.data as T };
  const data = { ...(row.data as Record<string, unknown>) };
  for (const name of row.lists) {
    const rows = (await tables.table(name).orderBy('position').toArray()) as (TeamRow | PipelineRow)[];
    data[name] = rows.map((r) => r.server);
  }
  return { pulledAt: row.pulledAt, data: data as T };
}

/** A piece of configuration as last pulled, or undefined before the first pull. */
export function configEntry<T = unknown>(db: AdvisorDb, key: ConfigKey): Promise<ConfigEntry<T> | undefined> {
  return db.transaction('r', CONFIG_TABLES, () => read<T>(db, key));
}

/** Stores pieces of configuration in one transaction (the pull's answers, or a test's). */
export function putConfigEntries(db: AdvisorDb, entries: readonly [ConfigKey, ConfigEntry][]): Promise<void> {
  return db.transaction('rw', CONFIG_TABLES, async () => {
    for (const [key, entry] of entries) await writeConfigEntry(db, key, entry);
  });
}

export function putConfigEntry(db: AdvisorDb, key: ConfigKey, entry: ConfigEntry): Promise<void> {
  return putConfigEntries(db, [[key, entry]]);
}

/** The pipeline stages of the user resource, in its order. */
export function pipelineStages(db: AdvisorDb): Promise<PipelineRow[]> {
  return db.pipelines.orderBy('position').toArray();
}
