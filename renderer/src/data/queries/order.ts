// The platform's order of list values, shared by every list the screens sort here (accounts,
// engagements, reports), and paging along an index.

import type { Collection } from 'dexie';
import { foldText } from '../accounts.ts';

export type SortValue = string | number | null;

/** Texts in the list's order: case and accents ignored (foldText), then code units, as the `order.*` indexes keep them. */
export function compareText(a: string, b: string): number {
  const [fa, fb] = [foldText(a), foldText(b)];
  return fa < fb ? -1 : fa > fb ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

export function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  return a! < b! ? -1 : a! > b! ? 1 : 0;
}

/** Two values of a sort key as the platform orders them: empty values last in both directions; 0 for a tie. */
export function keyOrder(va: SortValue, vb: SortValue, sign: number): number {
  if (va === null || vb === null) return va === vb ? 0 : va === null ? 1 : -1;
  return compareValues(va, vb) * sign;
}

/** The first position of a sorted array whose item is not before `item` (binary search). */
export function firstNotBefore<T>(sorted: readonly T[], item: T, compare: (a: T, b: T) => number): number {
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(sorted[mid]!, item) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** An index range in order, paged: only the page's rows are read. */
export async function indexPage<T, K, I>(
  range: Collection<T, K, I>,
  desc: boolean,
  q: { offset?: number; limit?: number },
): Promise<Page<T>> {
  const total = await range.clone().count();
  const ordered = desc ? range.reverse() : range;
  const items = await ordered
    .offset(Math.max(0, q.offset ?? 0))
    .limit(Math.max(0, q.limit ?? 50))
    .toArray();
  return { items, total };
}
