// The sorts of the version 2 account list: every sort key, the value an account sorts by, ties
// in the order the records were made.

import { madeKey, TEXT_ORDER_COLUMNS } from '../accounts.ts';
import { pipelineStages } from '../config.ts';
import type { AdvisorDb } from '../db.ts';
import type { AccountRow } from '../model.ts';
import { keyOrder, type SortValue } from './order.ts';

export const ACCOUNT_SORT_KEYS = [
  'type',
  'quality',
  'pipeline',
  'favorited',
  'archived',
  'created_at',
  'updated_at',
  'client.first_name',
  'client.last_name',
  'client.email',
  'coclient.first_name',
  'coclient.last_name',
  'coclient.email',
] as const;
export type AccountSortKey = (typeof ACCOUNT_SORT_KEYS)[number];
/** A sort key, `-` in front for descending (as the interface writes it). */
export type AccountSort = AccountSortKey | `-${AccountSortKey}`;

/** A sort's key and direction; the interface's default is `-created_at`. */
export function sortOf(sort: AccountSort = '-created_at'): { key: AccountSortKey; desc: boolean } {
  const desc = sort.startsWith('-');
  return { key: (desc ? sort.slice(1) : sort) as AccountSortKey, desc };
}

export const isDateKey = (key: AccountSortKey): key is 'created_at' | 'updated_at' =>
  key === 'created_at' || key === 'updated_at';

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The value an account sorts by, for each key; `stage` gives a pipeline stage's position. */
export function sortValue(
  row: AccountRow,
  key: AccountSortKey,
  stage: (id: string) => number | null,
): SortValue {
  switch (key) {
    case 'type':
      return row.type;
    case 'quality':
      return row.meta.quality?.score ?? null;
    case 'pipeline':
      return stage(row.pipelineId);
    case 'favorited':
      return row.favorited;
    case 'archived':
      return row.archived;
    case 'created_at':
      return row.createdAt;
    case 'updated_at':
      return row.updatedAt;
    default:
      return text(row.fields[key]);
  }
}

/** The order records were made in, as the platform breaks ties (accounts.ts, madeKey). */
export function madeOrder(a: AccountRow, b: AccountRow): number {
  return compareMade(madeKey(a), madeKey(b));
}

/** Two made keys (accounts.ts, madeKey) in order. */
export function compareMade(ka: readonly (number | string)[], kb: readonly (number | string)[]): number {
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
  return 0;
}

/**
 * The platform's sort (`-created_at` where none is given): empty values last in both directions;
 * ties in the order of making, in the key's direction.
 */
export function accountComparator(
  sort: AccountSort | undefined,
  stage: (id: string) => number | null = () => null,
): (a: AccountRow, b: AccountRow) => number {
  const { key, desc } = sortOf(sort);
  const sign = desc ? -1 : 1;
  return (a, b) =>
    keyOrder(sortValue(a, key, stage), sortValue(b, key, stage), sign) || madeOrder(a, b) * sign;
}

/** Positions of the pipeline stages, in the order of the user resource (the platform sorts by it). */
export async function stagePositions(db: AdvisorDb): Promise<(id: string) => number | null> {
  return stageRank(await pipelineStages(db));
}

/** Positions of the given stages, from 1, in their order; null for any other id. */
export function stageRank(stages: readonly { id: string | number }[]): (id: string) => number | null {
  const positions = new Map(stages.map((p, i) => [p.id, i + 1] as const));
  return (id) => positions.get(id) ?? null;
}

export const DATE_COLUMNS = { created_at: 'createdAt', updated_at: 'updatedAt' } as const;

/** Whether a sort key is a name, an email or the quality: a value many accounts may lack. */
export const isValueKey = (key: AccountSortKey): boolean => key === 'quality' || key in TEXT_ORDER_COLUMNS;
