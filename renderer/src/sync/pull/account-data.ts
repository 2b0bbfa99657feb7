// One account's pull: the account, the full details of its members and every section, with its
// read-only extras (account-extras.ts), applied so that what a push wrote meanwhile wins, ids of
// related items are settled across sections, and a removed co-client's records go.

import type { Priority } from '@shared/api/request.ts';
import { WORTH_PART_LABELS, countsInCashFlow } from '@shared/finance.ts';
import { SECTIONS, type MemberRole, type SectionDescriptor } from '@shared/sections.ts';
import type { SectionItem } from '@shared/wire/v0/sections.ts';
import {
  itemLocalIds,
  newSectionItemRow,
  newSingleRow,
  relationTargets,
  releaseLocalIds,
  sectionItemFields,
  singleRowId,
} from '../../data/mappers.ts';
import { recordParts } from '../../data/coverage.ts';
import type { SectionItemRow, SingleRow } from '../../data/model.ts';
import { sameValue } from '../../data/view.ts';
import { accountExtras, extrasRequests } from './account-extras.ts';
import {
  accountParts,
  fetchPart,
  MEMBER_KEYS,
  membersOf,
  type AccountPart,
  type Fetched,
} from './account-parts.ts';
import { confirmAccount } from './account-snapshots.ts';
import { allParts, type PullContext } from './context.ts';
import { emptyReport, type PullReport } from './report.ts';
import {
  applySnapshots,
  goneFromServer,
  uncertainCreates,
  untouchedSince,
  type SnapshotUpdate,
} from './snapshots.ts';

type ItemsBySid = Map<string, SectionItemRow>;

/** The account's rows as they were before the requests went out: items by server id, singles by id. */
interface LocalBefore {
  items: ItemsBySid;
  singles: Map<string, SingleRow>;
}

/** One collection as the server listed it: items with a server id only. */
interface CollectionList {
  key: string;
  section: SectionDescriptor;
  items: SectionItem[];
}

/** What deciding an item's update needs: ids settled for the whole pull, rows before and now. */
interface ItemContext {
  accountId: string;
  before: LocalBefore;
  ids: ReadonlyMap<string, string>;
  now: ItemsBySid;
  uncertain: ReadonlySet<string>;
}

/**
 * The requests of one account's whole pull (`pullAccountData`): the account, each member's
 * details, every section (per member where it is) and the extras; 21, 25 with a co-client. (The
 * very first activity page of a store may add a page-size probe or two.) Time estimates count
 * with it.
 */
export const accountPullRequests = (members: readonly MemberRole[]): number =>
  1 + accountParts(0, members).length + extrasRequests(members);

/**
 * The account, the full details of its members and every section (about twenty requests; the
 * co-client's only when there is one), and with them its read-only extras (3 requests, 4 with a
 * co-client), all in the report: 21 requests, 25 with a co-client. Parts that fail keep their
 * local data and are listed in the report; the parts that arrived are recorded on the account
 * (data/coverage.ts), and `pulledAt` is set only when every part arrived.
 *
 * In two rounds, each stored as it ends: first what the overview shows (`overviewFirst`: the
 * members' details and the sections of net worth and cash flow, 15 requests with the account's
 * own), then the rest and the extras. At the platform's 60 requests a minute the figures of a
 * household opened for the first time then show in seconds, not after all 25 (about 20 s).
 */
export async function pullAccountData(
  ctx: PullContext,
  localId: string,
  priority: Priority,
): Promise<PullReport> {
  const report = emptyReport();
  const account = await ctx.db.accounts.get(localId);
  if (!account) throw new Error(`There is no local account ${localId} to pull.`);
  // Not on the server yet (an unsent create): there is nothing to pull.
  if (typeof account.serverId !== 'number') return { ...report, skipped: true };
  const snapshot = await confirmAccount(ctx, account.serverId, localId, report, priority);
  if (!snapshot) return report;
  const members = membersOf(snapshot.meta);
  const before = await localBefore(ctx, localId);
  const parts = accountParts(snapshot.serverId, members);
  const fetchAll = (list: readonly AccountPart[]) =>
    allParts(list.map((part) => fetchPart(ctx, part, report, priority)));
  const first = await fetchAll(parts.filter(overviewFirst));
  await storeRound(ctx, localId, { answers: first, extras: [], last: false }, before, report, members);
  const [rest, extras] = await allParts([
    fetchAll(parts.filter((part) => !overviewFirst(part))),
    accountExtras(ctx, snapshot.serverId, members, report, priority),
  ]);
  await storeRound(ctx, localId, { answers: rest, extras, last: true }, before, report, members);
  const { db } = ctx;
  if (report.failures.length === 0)
    await db.accounts.update(localId, { pulledAt: ctx.now(), pulledUpdatedAt: snapshot.meta.updated_at });
  return report;
}

/** The sections the overview's figures are made of (shared/finance.ts), by path. */
const OVERVIEW_SECTIONS = new Set([
  ...Object.keys(WORTH_PART_LABELS),
  ...SECTIONS.filter((s) => countsInCashFlow(s.path)).map((s) => s.path),
]);

/** Whether a part is asked for in the first round: a member's details, or a section of the figures. */
export const overviewFirst = (part: AccountPart): boolean =>
  part.kind === 'details' || OVERVIEW_SECTIONS.has(part.section?.path ?? '');

/** What one round of an account's pull brought: the answers, the extras, and whether it is the last. */
interface Round {
  answers: readonly (Fetched | null)[];
  extras: readonly string[];
  last: boolean;
}

/**
 * One round's answers stored in one transaction, the parts that arrived recorded with them (a part
 * is on this computer from the moment it is stored). The last round also drops a removed
 * co-client's records.
 */
async function storeRound(
  ctx: PullContext,
  localId: string,
  round: Round,
  before: LocalBefore,
  report: PullReport,
  members: readonly MemberRole[],
): Promise<void> {
  const fetched = round.answers.filter((a): a is Fetched => a !== null);
  const { db } = ctx;
  await db.transaction('rw', [db.accounts, db.sectionItems, db.singles, db.outbox, db.meta], async () => {
    await applySingles(ctx, localId, fetched, before, report);
    await applyCollections(ctx, localId, fetched, before, report);
    if (round.last && !members.includes('coclient')) await dropCoclientData(ctx, localId, before, report);
    const arrived = [...fetched.map((f) => f.part.key), ...round.extras];
    await recordParts(db, localId, arrived, members, ctx.now());
  });
}

async function localBefore(ctx: PullContext, accountId: string): Promise<LocalBefore> {
  const items = await ctx.db.sectionItems.where('accountId').equals(accountId).toArray();
  const singles = await ctx.db.singles.where('accountId').equals(accountId).toArray();
  return {
    items: new Map(items.filter((r) => r.serverId !== null).map((r) => [String(r.serverId), r])),
    singles: new Map(singles.map((r) => [r.id, r])),
  };
}

async function applySingles(
  ctx: PullContext,
  accountId: string,
  fetched: readonly Fetched[],
  before: LocalBefore,
  report: PullReport,
) {
  const parts = fetched.filter((f) => f.kind === 'record');
  const ids = parts.map((f) => singleRowId(accountId, f.part.key));
  const current = await ctx.db.singles.bulkGet(ids);
  const updates: SnapshotUpdate<'singles'>[] = [];
  for (const [i, { part, fields: server }] of parts.entries()) {
    const row = current[i];
    if (!untouchedSince(before.singles.get(ids[i]!), row)) continue;
    if (row && !row.deletedOnServer && sameValue(row.server, server)) continue;
    updates.push({ row: row ?? newSingleRow(accountId, part.key), server });
  }
  report.written += await applySnapshots(ctx.db, 'singles', updates);
}

/**
 * Every collection at once: local ids are settled for all items and every item a relation
 * points at before any relation is translated, so the order of the sections does not matter,
 * and a relation to an item that is not there (yet) keeps a reserved id the item will adopt.
 */
async function applyCollections(
  ctx: PullContext,
  accountId: string,
  fetched: readonly Fetched[],
  before: LocalBefore,
  report: PullReport,
) {
  const { db } = ctx;
  const lists = fetched
    .filter((f) => f.kind === 'collection')
    .map((f): CollectionList => ({ key: f.part.key, section: f.part.section!, items: f.items }));
  const serverIds = lists.flatMap((list) => [
    ...list.items.map((item) => item.id),
    ...list.items.flatMap((item) => relationTargets(list.section, item)),
  ]);
  const current = await db.sectionItems.where('accountId').equals(accountId).toArray();
  const context: ItemContext = {
    accountId,
    before,
    ids: await itemLocalIds(db, accountId, serverIds),
    now: new Map(current.filter((r) => r.serverId !== null).map((r) => [String(r.serverId), r])),
    uncertain: await uncertainSections(ctx, accountId),
  };
  const updates = lists.flatMap((list) => itemUpdates(list, context));
  const gone = lists.flatMap((list) => missingItems(list, before, context.now));
  report.written += await applySnapshots(db, 'sectionItems', updates);
  await releaseLocalIds(
    db,
    accountId,
    updates.map((u) => String(u.row.serverId)),
  );
  if (gone.length > 0) await goneFromServer(db, 'sectionItems', gone, ctx.now(), report);
}

/** The items of a collection that take the server's snapshot. */
function itemUpdates(list: CollectionList, c: ItemContext): SnapshotUpdate<'sectionItems'>[] {
  const updates: SnapshotUpdate<'sectionItems'>[] = [];
  for (const item of list.items) {
    const row = c.now.get(item.id);
    // Written meanwhile by someone else (a push, another pull): their version is as fresh.
    if (!untouchedSince(c.before.items.get(item.id), row)) continue;
    if (!row && c.uncertain.has(list.key)) continue;
    const server = sectionItemFields(list.section, item, (target) => c.ids.get(target) ?? target);
    if (row && !row.deletedOnServer && sameValue(row.server, server)) continue;
    const fresh = () => newSectionItemRow(c.ids.get(item.id)!, item.id, c.accountId, list.key);
    updates.push({ row: row ?? fresh(), server });
  }
  return updates;
}

/** Items of a collection the server had before the request went out and no longer lists. */
function missingItems(list: CollectionList, before: LocalBefore, now: ItemsBySid): SectionItemRow[] {
  const listed = new Set(list.items.map((item) => item.id));
  return [...before.items]
    .filter(([sid, row]) => row.section === list.key && !listed.has(sid))
    .map(([sid]) => now.get(sid))
    .filter((row): row is SectionItemRow => row !== undefined && row.section === list.key);
}

/** Section keys of the account with a create whose outcome is unknown (see `uncertainCreates`). */
async function uncertainSections(ctx: PullContext, accountId: string): Promise<Set<string>> {
  const ops = await uncertainCreates(ctx.db, 'sectionItems');
  const rows = await ctx.db.sectionItems.bulkGet(ops.map((op) => op.recordId));
  return new Set(rows.filter((r) => r?.accountId === accountId).map((r) => r!.section));
}

/**
 * The co-client was removed on the server: their details, income and employment go too, as far
 * as the server had them before the requests went out and nobody wrote them since. A co-client
 * added here (not sent yet, or sent while this pull ran) is not gone: their records are on their
 * way to the server.
 */
async function dropCoclientData(
  ctx: PullContext,
  accountId: string,
  before: LocalBefore,
  report: PullReport,
): Promise<void> {
  const keys = MEMBER_KEYS.map((k) => `${k}:coclient`);
  const singles = (
    await ctx.db.singles
      .where('[accountId+key]')
      .anyOf(keys.map((k) => [accountId, k]))
      .toArray()
  ).filter((row) => {
    const was = before.singles.get(row.id);
    return was?.server != null && untouchedSince(was, row);
  });
  const items = (
    await ctx.db.sectionItems
      .where('[accountId+section]')
      .anyOf(keys.map((k) => [accountId, k]))
      .toArray()
  ).filter((row) => {
    const was = row.serverId === null ? undefined : before.items.get(String(row.serverId));
    return was !== undefined && untouchedSince(was, row);
  });
  const now = ctx.now();
  if (singles.length > 0) await goneFromServer(ctx.db, 'singles', singles, now, report);
  if (items.length > 0) await goneFromServer(ctx.db, 'sectionItems', items, now, report);
}
