// Lists read page by page with the largest page the platform accepts: the page-size probe (a 422
// says too large), what is remembered of it, and the one loop that pages every list.

import type { ApiName, ApiRequest, Priority } from '@shared/api/request.ts';
import { parseListEnvelope, type ListPage as WirePage } from '@shared/wire/lists.ts';
import type { AdvisorDb } from '../../data/db.ts';
import { call, readMeta, type PullContext } from './context.ts';
import { failed, unreadable, type PullProgress, type PullReport } from './report.ts';

/**
 * Page sizes probed, largest first, until the platform accepts one (a 422 says too large); the one
 * accepted is remembered. The first is above the largest the documents name, so that a platform
 * taking more pages is used at that size: one refused request per list, once.
 */
export const PAGE_SIZES = [1000, 500, 200, 100, 50] as const;
/** Page sizes that worked, by list (the account list keeps its own in `pull.accounts`). */
export const PAGE_SIZES_STATE = 'pull.pageSizes';
/** The smallest page size each interface refused, so no other list of it probes that size again. */
export const PAGE_SIZE_REFUSED_STATE = 'pull.pageSizesRefused';

/** Where a list keeps the page size that worked for it. */
export interface PageSizeMemory {
  known(): Promise<number | null>;
  remember(limit: number): Promise<void>;
}

/** A list endpoint, newest first where it is so sorted. */
export interface ListSpec {
  /** The resource it lists, as the schemas name it (`Account`): named when its envelope is unreadable. */
  name: string;
  api: ApiName;
  path: string;
  query?: Record<string, string | number>;
  priority: Priority;
  pageSize: PageSizeMemory;
}

/**
 * One page as the platform answered it: its items as received (each read later by its own
 * schema, so a short page still means the end of the list), and the list's total where it gives one.
 */
export type ListPage = WirePage<unknown>;

/** The page size of a list remembered under its name (`PAGE_SIZES_STATE`). */
export function namedPageSize(db: AdvisorDb, name: string): PageSizeMemory {
  return {
    async known() {
      const size = (await readMeta<Record<string, unknown>>(db, PAGE_SIZES_STATE, {}))[name];
      return typeof size === 'number' ? size : null;
    },
    async remember(limit) {
      // One transaction: lists paged side by side (an engagement's three) each remember theirs.
      await db.transaction('rw', db.meta, async () => {
        const sizes = await readMeta<Record<string, unknown>>(db, PAGE_SIZES_STATE, {});
        await db.meta.put({ key: PAGE_SIZES_STATE, value: { ...sizes, [name]: limit } });
      });
    },
  };
}

/**
 * Pages through a list with the largest page it accepts: to its end, or `pages` pages, or until
 * `until` says a page reached what is known. `onPage` takes each page as it arrives. `complete`
 * tells whether the whole list arrived unchanged, and so proves that an item missing from it is
 * gone: every page read, and the total the platform gives (where it gives one) the same on every
 * page and equal to what arrived. Offset paging skips an item when another is deleted meanwhile;
 * then nothing may be removed. `end`: the list's last page was read (from `offset`, the only
 * proof there is that nothing older is left). Null when a page failed.
 */
export async function pageList(
  ctx: PullContext,
  report: PullReport,
  spec: ListSpec,
  options: {
    pages?: number;
    /** Where to start (an older page of a list whose newer items are here): 0 by default. */
    offset?: number;
    until?: ((page: readonly unknown[]) => boolean) | undefined;
    onPage: (page: ListPage) => Promise<void> | void;
  },
): Promise<{ complete: boolean; end: boolean } | null> {
  const req: ApiRequest = { api: spec.api, method: 'GET', path: spec.path, priority: spec.priority };
  if (spec.query) req.query = spec.query;
  let count = 0;
  const totals = new Set<number>();
  let ahead: Promise<{ data: unknown; limit: number } | null> | null = null;
  for (let offset = options.offset ?? 0, pages = 1; ; pages++) {
    const page = await (ahead ?? listPage(ctx, report, req, offset, spec.pageSize));
    ahead = null;
    if (!page) return null;
    // The envelope is held strictly (version 2 `params.total`, 0.0.1 `total`): no items, no list.
    const parsed = parseListEnvelope(page.data, spec.name);
    if (!parsed.ok) return unreadable(report, spec.path);
    const read = parsed.value;
    count += read.items.length;
    if (read.total !== null) totals.add(read.total);
    offset += page.limit;
    const end = read.items.length < page.limit || (read.total !== null && offset >= read.total);
    const capped = pages >= (options.pages ?? Infinity);
    // A list read to its end (a sweep: no `until`, no page cap) asks for its next page while this
    // one is stored: the same requests, the answer's trip and the write side by side. A list that
    // may stop at any page asks for no page it may not need (the budget, DESIGN.md §3).
    if (!end && !capped && options.until === undefined) {
      ahead = listPage(ctx, report, req, offset, spec.pageSize);
      // Awaited on the next turn; a page whose storing throws leaves it unawaited, not unhandled.
      ahead.catch(() => undefined);
    }
    await options.onPage(read);
    if (end)
      return { complete: totals.size <= 1 && (read.total === null || count === read.total), end: true };
    if (capped || options.until?.(read.items)) return { complete: false, end: false };
  }
}

/** A whole list (or its first `pages` pages) at once, by `pageList`, with its progress. */
export async function readList(
  ctx: PullContext,
  report: PullReport,
  spec: ListSpec,
  options: {
    pages?: number;
    onProgress?: ((p: PullProgress) => void) | undefined;
  } = {},
): Promise<{ items: unknown[]; complete: boolean } | null> {
  const items: unknown[] = [];
  const paged = await pageList(ctx, report, spec, {
    ...(options.pages === undefined ? {} : { pages: options.pages }),
    onPage: (page) => {
      items.push(...page.items);
      options.onProgress?.({ done: items.length, total: page.total });
    },
  });
  return paged && { items, complete: paged.complete };
}

/**
 * What of a newest-first list this computer holds, where `readOlderPage` starts: how many entries,
 * and when the oldest of them was made (`read`: the stored entries, a window at a time).
 */
export async function heldEntries(
  read: (window: { offset?: number; limit: number }) => Promise<{
    total: number;
    items: readonly { createdAt: string }[];
  }>,
): Promise<{ count: number; oldest: string | null }> {
  const { total: count } = await read({ limit: 0 });
  const last = count ? await read({ offset: count - 1, limit: 1 }) : null;
  return { count, oldest: last?.items[0]?.createdAt ?? null };
}

/** Pages one ask for older items may read when the list grew meanwhile. */
const OLDER_PAGES = 3;

/**
 * The page of a newest-first list right below the `held` items stored here, the oldest of them
 * stamped `oldest` (by `stamp`): from offset `held`. Items added to the list since it was read
 * move the older ones down: a page holding nothing older than what is here is followed by the
 * next, a few at most. `end`: the list has nothing further. Null when a page failed.
 */
export async function readOlderPage(
  ctx: PullContext,
  report: PullReport,
  spec: ListSpec,
  held: { count: number; oldest: string | null },
  stamp: (item: unknown) => string | null,
): Promise<{ items: unknown[]; end: boolean } | null> {
  const items: unknown[] = [];
  const paged = await pageList(ctx, report, spec, {
    offset: held.count,
    pages: OLDER_PAGES,
    until: (page) => held.oldest === null || (stamp(page.at(-1)) ?? '') < held.oldest,
    onPage: (page) => void items.push(...page.items),
  });
  return paged && { items, end: paged.end };
}

/**
 * One page of a list. The first page ever is the probe: the largest size first, the next on a
 * validation refusal (422); the size that worked is remembered, and a remembered size refused
 * later is probed down again.
 */
async function listPage(
  ctx: PullContext,
  report: PullReport,
  req: ApiRequest,
  offset: number,
  memory: PageSizeMemory,
): Promise<{ data: unknown; limit: number } | null> {
  const known = await memory.known();
  // A size one list of an interface refused is not tried on its other lists.
  const ceiling = (await readMeta<Record<string, unknown>>(ctx.db, PAGE_SIZE_REFUSED_STATE, {}))[req.api];
  const sizes = (known === null ? ctx.pageSizes : ctx.pageSizes.filter((s) => s <= known)).filter(
    (s) => typeof ceiling !== 'number' || s < ceiling || s === known,
  );
  for (const limit of sizes.length > 0 ? sizes : [known ?? ctx.pageSizes.at(-1)!]) {
    const result = await call(ctx, report, { ...req, query: { ...req.query, limit, offset } });
    if (!result.ok && result.kind === 'validation') {
      await rememberRefusedSize(ctx.db, req.api, limit);
      continue;
    }
    if (!result.ok) return failed(report, req.path, result);
    if (known !== limit) await memory.remember(limit);
    return { data: result.data, limit };
  }
  report.failures.push({
    path: req.path,
    kind: 'validation',
    status: 422,
    message: `The platform refused every page size tried (${sizes.join(', ')}).`,
  });
  return null;
}

async function rememberRefusedSize(db: AdvisorDb, api: string, limit: number): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const refused = await readMeta<Record<string, unknown>>(db, PAGE_SIZE_REFUSED_STATE, {});
    const before = refused[api];
    if (typeof before === 'number' && before <= limit) return;
    await db.meta.put({ key: PAGE_SIZE_REFUSED_STATE, value: { ...refused, [api]: limit } });
  });
}
