// The list answers of both interfaces: the envelope, and a page read item by item.

import { z } from 'zod';
import { listOf, parseWire, soft, wireObject, type WireResult } from './parse.ts';

const maybeNumber = soft(z.number().nullable().optional(), undefined);

/**
 * The list envelope of either interface: version 2 `{items, params: {limit, offset, sort, total}}`
 * (its account activity `{items}` only), 0.0.1 `{items, limit, offset, total}`.
 */
export const ListEnvelope = wireObject('List', {
  items: z.array(z.unknown()),
  params: soft(
    wireObject('ListParams', {
      limit: maybeNumber,
      offset: maybeNumber,
      sort: soft(z.string().optional(), undefined),
      total: maybeNumber,
    }).optional(),
    undefined,
  ),
  limit: maybeNumber,
  offset: maybeNumber,
  total: maybeNumber,
});
export type ListEnvelope = z.infer<typeof ListEnvelope>;

const pages = new WeakMap<z.ZodType, Map<string, z.ZodType>>();

/** The envelope with the items read by `item` (made once per resource). */
function pageSchema<T extends z.ZodType>(item: T, name: string) {
  const make = () => wireObject('List', { ...ListEnvelope.shape, items: listOf(item, name) });
  const byName = pages.get(item) ?? new Map<string, z.ZodType>();
  pages.set(item, byName);
  const schema = (byName.get(name) as ReturnType<typeof make> | undefined) ?? make();
  byName.set(name, schema);
  return schema;
}

export interface ListPage<T> {
  /** The items the resource's schema could read, in the platform's order. */
  items: T[];
  /** `params.total` (version 2) or `total` (0.0.1); null where the list gives none. */
  total: number | null;
}

/**
 * One page of a list: the envelope held strictly (no `items` array, no list), each item read by
 * `item`; an item it refuses (no valid id) is left out and reported among the repairs.
 */
export function parseListPage<T extends z.ZodType>(
  body: unknown,
  item: T,
  name: string,
): WireResult<ListPage<z.output<T>>> {
  const read = parseWire(pageSchema(item, name), body, `${name} list`);
  if (!read.ok) return read;
  const { items, params, total } = read.value;
  const given = params !== undefined ? params.total : total;
  return {
    ok: true,
    value: { items, total: typeof given === 'number' ? given : null },
    repairs: read.repairs,
  };
}

/** One page of a list whose items are read later (each by its own row maker): items as received. */
export const parseListEnvelope = (body: unknown, name: string): WireResult<ListPage<unknown>> =>
  parseListPage(body, z.unknown(), name);

/** An answer that is a bare array of a resource (profile values, forms, reports …), item by item. */
export function parseArray<T extends z.ZodType>(
  body: unknown,
  item: T,
  name: string,
): WireResult<z.output<T>[]> {
  return parseWire(listOf(item, name), body, `${name} list`);
}

/**
 * One page of a list whose items are read by a function of their own (an account becomes its
 * snapshot): the envelope held strictly, an item `read` refuses left out and reported.
 */
export function parseListPageWith<T>(
  body: unknown,
  read: (item: unknown) => WireResult<T>,
  name: string,
): WireResult<ListPage<T>> {
  const page = parseListPage(body, z.unknown(), name);
  if (!page.ok) return page;
  const items: T[] = [];
  const repairs = [...page.repairs];
  page.value.items.forEach((item, i) => {
    const one = read(item);
    if (one.ok) {
      items.push(one.value);
      repairs.push(...one.repairs);
    } else repairs.push({ field: `${name}.${i}`, message: one.message });
  });
  return { ok: true, value: { items, total: page.value.total }, repairs };
}

// ---- the documented envelopes, held strictly (what the contract tests check the sandbox by) ----

/** Version 2 `params`: limit, offset, sort and total, as the document lists them. */
export const ListParamsV2 = wireObject('ListParamsV2', {
  limit: z.int(),
  offset: z.int(),
  sort: z.string(),
  total: z.int(),
});

/** A version 2 list of a resource. */
export const listV2 = <T extends z.ZodType>(item: T) =>
  wireObject('ListV2', { items: z.array(item), params: ListParamsV2 });
export interface ListV2<T> {
  items: T[];
  params: z.infer<typeof ListParamsV2>;
}

/** A 0.0.1 list (accounts, the activity feed): items, limit, offset, total. */
export const listV0 = <T extends z.ZodType>(item: T) =>
  wireObject('ListV0', { items: z.array(item), limit: z.int(), offset: z.int(), total: z.int() });
export interface ListV0<T> {
  items: T[];
  limit: number;
  offset: number;
  total: number;
}
