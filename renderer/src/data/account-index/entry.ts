// One account as the list's index holds it: the compact projection of a row that the search, the
// filters and every sort read (no fields, no meta), with each sort's value worked out once, and
// the total order of each sort key over such entries.

import { foldText, madeKey, TEXT_ORDER_COLUMNS } from '../accounts.ts';
import type { AccountRow } from '../model.ts';
import { compareMade, isDateKey, type AccountSortKey } from '../queries/account-sort.ts';
import { keyOrder } from '../queries/order.ts';

type TextKey = keyof typeof TEXT_ORDER_COLUMNS;
const TEXT_KEYS = Object.keys(TEXT_ORDER_COLUMNS) as TextKey[];

/** A text sort value: folded (case and accents ignored), then as written (its code units break ties). */
export type TextValue = readonly [folded: string, raw: string];

export interface AccountEntry {
  readonly id: string;
  /** The order records were made in (accounts.ts, madeKey): every sort's ties. */
  readonly made: readonly [number, number, string];
  /** The row's search terms (accounts.ts, searchColumn). */
  readonly search: readonly string[];
  readonly type: AccountRow['type'];
  readonly archived: 0 | 1;
  readonly favorited: 0 | 1;
  readonly pipelineId: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly quality: number | null;
  readonly text: Readonly<Record<TextKey, TextValue | null>>;
  /** Set by the search of the moment (list-index.ts) on the entries it found. */
  found: number;
}

const textValue = (v: unknown): TextValue | null =>
  typeof v === 'string' && v !== '' ? [foldText(v), v] : null;

/**
 * An entry as the `accountEntries` table keeps it beside each account row (written in the row's
 * own transaction, store.ts): what the index needs and nothing else, so that the store opens by
 * reading these instead of the rows. `text` holds the name and email sort values as written, in
 * TEXT_ORDER_COLUMNS' order ('' for none).
 */
export type StoredEntry = Pick<
  AccountEntry,
  | 'id'
  | 'made'
  | 'search'
  | 'type'
  | 'archived'
  | 'favorited'
  | 'pipelineId'
  | 'createdAt'
  | 'updatedAt'
  | 'quality'
> & { readonly text: readonly string[] };

/** The stored entry of an account row. */
export function storedEntryOf(row: AccountRow): StoredEntry {
  const score = row.meta?.quality?.score;
  return {
    id: row.id,
    made: madeKey(row),
    search: row.search ?? [],
    type: row.type,
    archived: row.archived,
    favorited: row.favorited,
    pipelineId: row.pipelineId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    quality: typeof score === 'number' ? score : null,
    text: TEXT_KEYS.map((key) => {
      const v = row.fields?.[key];
      return typeof v === 'string' ? v : '';
    }),
  };
}

/** The entry of a stored entry (its sort values folded once, here). */
export function entryOfStored(stored: StoredEntry): AccountEntry {
  const text = {} as Record<TextKey, TextValue | null>;
  TEXT_KEYS.forEach((key, i) => (text[key] = textValue(stored.text[i])));
  return { ...stored, text, found: 0 };
}

/** The entry of a stored account row. */
export const entryOf = (row: AccountRow): AccountEntry => entryOfStored(storedEntryOf(row));

const madeCompare = (a: AccountEntry, b: AccountEntry): number => compareMade(a.made, b.made);

const byId = (a: AccountEntry, b: AccountEntry) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const compareTexts = (a: TextValue | null, b: TextValue | null): number => {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
};

/** The value of a sort key with few values (or a number), null when empty; `stage` ranks a stage. */
function plainValue(
  e: AccountEntry,
  key: AccountSortKey,
  stage: (id: string) => number | null,
): string | number | null {
  switch (key) {
    case 'type':
      return e.type;
    case 'quality':
      return e.quality;
    case 'pipeline':
      return stage(e.pipelineId);
    case 'favorited':
      return e.favorited;
    case 'archived':
      return e.archived;
    default:
      return null;
  }
}

/** Whether an entry has no value for a sort key: such entries follow the others in both directions. */
export function isEmpty(e: AccountEntry, key: AccountSortKey, stage: (id: string) => number | null): boolean {
  if (isDateKey(key)) return false;
  if (key in e.text) return e.text[key as TextKey] === null;
  return plainValue(e, key, stage) === null;
}

/**
 * A sort key's ascending total order, as the list's queries give it (account-list.ts): dates with
 * ties by local id (as their indexes walk them), every other key with empty values last and ties
 * in the made order. A descending list reverses the valued part and the empty part each.
 */
export function ascending(
  key: AccountSortKey,
  stage: (id: string) => number | null,
): (a: AccountEntry, b: AccountEntry) => number {
  if (isDateKey(key)) {
    const column = key === 'created_at' ? 'createdAt' : 'updatedAt';
    return (a, b) => (a[column] < b[column] ? -1 : a[column] > b[column] ? 1 : byId(a, b));
  }
  if (key in TEXT_ORDER_COLUMNS) {
    const k = key as TextKey;
    return (a, b) => compareTexts(a.text[k], b.text[k]) || madeCompare(a, b);
  }
  return (a, b) => keyOrder(plainValue(a, key, stage), plainValue(b, key, stage), 1) || madeCompare(a, b);
}
