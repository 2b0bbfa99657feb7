// "Incremental by watermark, with a periodic sweep": how the account list, the advisor's feed and
// the team's engagement list (which keeps a second watermark: `pagesSince`) are pulled. Newest first, with the largest page; a pull stops at the first page that reaches
// below the newest item of the last pull (the watermark), and a sweep reads every page, so that
// what the list no longer has can be noticed: when asked (`full`), on the first pull, and once the
// last sweep is older than the sweep interval. A list cut short by a failure proves nothing about
// deletions and must not move the watermark.

import { readMeta, type PullContext } from './context.ts';
import { pageList, type ListPage, type ListSpec } from './paging.ts';
import type { PullReport } from './report.ts';

/** What an incremental list remembers between runs besides its watermark (a meta row). */
export interface SweepState {
  pulledAt: number | null;
  sweptAt: number | null;
}

/** One pull of an incremental list, as its walk sees it. */
export interface IncrementalRun<S> {
  /** Every page is read: what the list no longer has can be noticed. */
  sweep: boolean;
  /** The newest stamp of the last pull; null on a sweep. */
  watermark: string | null;
  /** What the list remembered, as read (a walk may keep more in it, the account list its page size). */
  state: S;
  /** Pages the list newest first: to its end on a sweep, else until a page ends below the watermark. */
  pages(
    spec: ListSpec,
    onPage: (page: ListPage) => Promise<void> | void,
  ): Promise<{ complete: boolean } | null>;
}

export interface IncrementalList<S, K extends string> {
  /** The meta key of what the list remembers. */
  key: string;
  /** What it remembers before its first pull. */
  initial: S;
  /** Which field of it holds the watermark. */
  watermark: K;
  /** The sort key of an item as the platform sent it (`updated_at`, `created_at`). */
  stamp: (item: unknown) => string | null;
  /** Sweep now, whenever the last sweep was. */
  full?: boolean | undefined;
  /** Sweep once the last sweep is this old (ms); the pull context's sweep interval when unset. */
  sweepAfterMs?: number | undefined;
}

/**
 * Runs one pull of an incremental list: decides between a sweep and an incremental pull, lets
 * `walk` page through it (and apply what arrives), then moves the watermark to the newest item
 * seen and notes the time, and the time of the sweep when the walk says it swept. A walk answers
 * null when a page failed: nothing is remembered then.
 */
export async function pullIncrementally<S extends SweepState & Record<K, string | null>, K extends string>(
  ctx: PullContext,
  report: PullReport,
  list: IncrementalList<S, K>,
  walk: (run: IncrementalRun<S>) => Promise<{ swept: boolean } | null>,
): Promise<void> {
  const state = await readMeta<S>(ctx.db, list.key, list.initial);
  const sweep =
    list.full === true ||
    state.sweptAt === null ||
    ctx.now() - state.sweptAt >= (list.sweepAfterMs ?? ctx.sweepIntervalMs);
  const watermark = sweep ? null : state[list.watermark];
  let newest: string | null = null;
  const run: IncrementalRun<S> = {
    sweep,
    watermark,
    state,
    pages: async (spec, onPage) => {
      const paged = await pagesSince(ctx, report, spec, { watermark, stamp: list.stamp }, onPage);
      newest ??= paged?.newest ?? null;
      return paged;
    },
  };
  const walked = await walk(run);
  if (!walked) return;
  const now = ctx.now();
  const next = {
    ...state,
    [list.watermark]: newer(newest, state[list.watermark]),
    pulledAt: now,
    sweptAt: walked.swept ? now : state.sweptAt,
  };
  await ctx.db.meta.put({ key: list.key, value: next });
}

/**
 * Pages a list sorted newest first by `stamp` until a page ends below `watermark` (every page when
 * it is null), and says the newest stamp it saw (the first item's): a list with a second
 * watermark of its own (the engagement list's completions) pages through this too.
 */
export async function pagesSince(
  ctx: PullContext,
  report: PullReport,
  spec: ListSpec,
  since: { watermark: string | null; stamp: (item: unknown) => string | null },
  onPage: (page: ListPage) => Promise<void> | void,
): Promise<{ complete: boolean; newest: string | null } | null> {
  const { watermark, stamp } = since;
  let newest: string | null = null;
  const paged = await pageList(ctx, report, spec, {
    onPage: (page) => {
      newest ??= stamp(page.items[0]);
      return onPage(page);
    },
    // Equal stamps go on: another change may have happened within the same second.
    until: watermark === null ? undefined : (page) => (stamp(page.at(-1)) ?? '') < watermark,
  });
  return paged && { ...paged, newest };
}

/** The later of two stamps (null when neither is known). */
export function newer(a: string | null, b: string | null): string | null {
  return a === null ? b : b === null || a > b ? a : b;
}
