// The version 2 account list's orders, kept so that a page at 50,000 accounts is cut without
// sorting (or scoring) every account for every request. Per team and sort key, the team's
// accounts are sorted once, ascending with empty values last and ties by id, the order sortItems
// (listing.ts) gives; descending walks the same order backwards, empty values still last. A page
// then takes one cheap pass over the order: the filter decides, matches are counted for `total`,
// and only those from `offset` to `offset + limit` are kept (and shaped by the caller).
//
// The sandbox changes its records in place, so an order is dropped when the store says it was
// written (Store.revision, bumped by every write request and every `changed()`), when the list of
// accounts is another list or of another length (create, delete, reset), and when a key's value
// read again in the pass differs from the one it was sorted by (a record changed by other means).
// Only the quality score, too costly to read again per account, relies on the revision alone.

import { compareValues, isEmpty, type SortValue } from './listing.ts';
import type { AccountRecord } from './model.ts';
import type { Store } from './store.ts';

interface Order {
  revision: number;
  accounts: AccountRecord[];
  length: number;
  items: AccountRecord[];
  values: SortValue[];
  /** Index of the first item with an empty value (they are last). */
  firstEmpty: number;
}

/** The orders of each store, keyed by team and sort key. */
const orders = new WeakMap<Store, Map<string, Order>>();

/** Keys whose value cannot be read again per account per request (see the header). */
const COSTLY = new Set(['quality']);

function build(store: Store, teamId: number, get: (a: AccountRecord) => SortValue): Order {
  const accounts = store.state.accounts;
  const team = accounts.filter((a) => a.teamId === teamId);
  const keyed = team.map((a) => ({ a, v: get(a) }));
  keyed.sort((x, y) => compareValues(x.v, y.v) || x.a.id - y.a.id);
  const values = keyed.map((k) => k.v);
  const firstEmpty = values.findIndex(isEmpty);
  return {
    revision: store.revision,
    accounts,
    length: accounts.length,
    items: keyed.map((k) => k.a),
    values,
    firstEmpty: firstEmpty < 0 ? values.length : firstEmpty,
  };
}

function orderOf(store: Store, teamId: number, name: string, get: (a: AccountRecord) => SortValue): Order {
  let byKey = orders.get(store);
  if (!byKey) orders.set(store, (byKey = new Map<string, Order>()));
  const id = `${teamId}\u0000${name}`;
  const kept = byKey.get(id);
  const s = store.state;
  if (
    kept &&
    kept.revision === store.revision &&
    kept.accounts === s.accounts &&
    kept.length === s.accounts.length
  )
    return kept;
  const order = build(store, teamId, get);
  byKey.set(id, order);
  return order;
}

/** Positions of an order in the direction asked: non-empty values first, then the empty ones. */
function* walk(order: Order, desc: boolean): Generator<number> {
  const n = order.items.length;
  if (!desc) for (let i = 0; i < n; i++) yield i;
  else {
    for (let i = order.firstEmpty - 1; i >= 0; i--) yield i;
    for (let i = n - 1; i >= order.firstEmpty; i--) yield i;
  }
}

export interface PageQuery {
  teamId: number;
  /** Sort key (known to be one of the list's) and direction. */
  key: { name: string; get: (a: AccountRecord) => SortValue; desc: boolean };
  filter: (a: AccountRecord) => boolean;
  offset: number;
  limit: number;
}

/**
 * The accounts of a page of the team's accounts that pass `filter`, in the key's order with ties
 * by id in the key's direction, and how many pass in all.
 */
export function accountPage(store: Store, q: PageQuery): { items: AccountRecord[]; total: number } {
  for (let attempt = 0; ; attempt++) {
    const order = orderOf(store, q.teamId, q.key.name, q.key.get);
    const recheck = attempt === 0 && !COSTLY.has(q.key.name);
    const items: AccountRecord[] = [];
    const end = q.offset + q.limit;
    let total = 0;
    let stale = false;
    for (const i of walk(order, q.key.desc)) {
      const a = order.items[i] as AccountRecord;
      if (recheck && q.key.get(a) !== order.values[i]) {
        stale = true;
        break;
      }
      if (!q.filter(a)) continue;
      if (total >= q.offset && total < end) items.push(a);
      total++;
    }
    if (!stale) return { items, total };
    order.revision = -1; // read again from the records as they are now
  }
}
