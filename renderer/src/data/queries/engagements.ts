// Engagements as the screens read them: the filters, search, sorts and paging of the version 2
// list, one engagement and its outputs, the changes of engagements waiting to be sent, and a
// completed engagement's answers grouped as its template groups them.

import Dexie from 'dexie';
import type { AdvisorDb } from '../db.ts';
import {
  ENGAGEMENT_OPERATION_KINDS,
  type EngagementOperationKind,
  type EngagementPartKind,
  type EngagementPartRow,
  type EngagementRow,
  type Operation,
  type OperationState,
} from '../model.ts';
import { compareValues, indexPage, keyOrder, type Page, type SortValue } from './order.ts';
import { accountServerId } from './records.ts';
import { engagementIndex, engagementsSettled } from '../engagement-index.ts';
import type { EngagementSort, EngagementSortKey } from './engagement-sort.ts';

export { ENGAGEMENT_SORT_KEYS, type EngagementSort, type EngagementSortKey } from './engagement-sort.ts';

/** The engagement list's query of version 2, with a local account id. */
export interface EngagementQuery {
  accountId?: string;
  /** A member's server id (`meta.clientId` / `meta.coclientId` of the account). */
  memberId?: number;
  templateId?: string;
  type?: 'completed' | 'in-progress';
  /** Prefix of the title or of the engaged member's name, any case. */
  search?: string;
  /** Default `-created_at`, as the interface. */
  sort?: EngagementSort;
  offset?: number;
  /** Default 50, as the interface. */
  limit?: number;
}

/**
 * The platform's order of engagements: by the key (empty values last in both directions), ties
 * by creation, in the key's direction. The platform breaks ties by the order records were made,
 * which `created_at` and then the id only approximate within one second.
 */
export function engagementComparator(sort: EngagementSort): (a: EngagementRow, b: EngagementRow) => number {
  const desc = sort.startsWith('-');
  const key = (desc ? sort.slice(1) : sort) as EngagementSortKey;
  const sign = desc ? -1 : 1;
  const value = (r: EngagementRow): SortValue => {
    const v = (r.server as unknown as Record<string, unknown>)[key];
    return typeof v === 'number' || (typeof v === 'string' && v !== '') ? v : null;
  };
  const made = (a: EngagementRow, b: EngagementRow) =>
    compareValues(a.createdAt, b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return (a, b) => keyOrder(value(a), value(b), sign) || made(a, b) * sign;
}

/**
 * A page of engagements: the filters, search, sorts and paging of the version 2 list, answered by
 * the engagement index in memory (engagement-index.ts); only the page's rows are read. Until the
 * index is built, the default order alone, within an account or within a type walks a table index.
 */
export async function listEngagements(db: AdvisorDb, q: EngagementQuery = {}): Promise<Page<EngagementRow>> {
  const sort = q.sort ?? '-created_at';
  const desc = sort.startsWith('-');
  const account = q.accountId === undefined ? undefined : await accountServerId(db, q.accountId);
  if (account === null) return { items: [], total: 0 };
  const completed = q.type === undefined ? undefined : q.type === 'completed' ? 1 : 0;
  const search = q.search?.trim().toLowerCase() ?? '';
  const { engagements } = db;
  const index = engagementIndex(db);
  // At most one filter, the account or the type: a table index walks it in `created_at` order.
  const oneIndexedFilter =
    search === '' &&
    q.memberId === undefined &&
    q.templateId === undefined &&
    (account === undefined || completed === undefined);
  if (!index.ready && (desc ? sort.slice(1) : sort) === 'created_at' && oneIndexedFilter) {
    const range =
      account !== undefined
        ? engagements
            .where('[accountServerId+createdAt]')
            .between([account, Dexie.minKey], [account, Dexie.maxKey])
        : completed !== undefined
          ? engagements
              .where('[completed+createdAt]')
              .between([completed, Dexie.minKey], [completed, Dexie.maxKey])
          : engagements.orderBy('createdAt');
    return indexPage(range, desc, q);
  }
  // Inside a transaction its own writes are listed; outside, none that is being undone.
  await (Dexie.currentTransaction ? index.whenReady : engagementsSettled(index));
  const ids = index.list.ids(
    { accountServerId: account, memberId: q.memberId, templateId: q.templateId, completed, search },
    sort,
  );
  const offset = Math.max(0, q.offset ?? 0);
  const rows = await engagements.bulkGet(ids.slice(offset, offset + Math.max(0, q.limit ?? 50)));
  return { items: rows.filter((r): r is EngagementRow => r !== undefined), total: ids.length };
}

export function getEngagement(db: AdvisorDb, id: string): Promise<EngagementRow | undefined> {
  return db.engagements.get(id);
}

/** One output of an engagement (data, documents, signatures or history), in the platform's order. */
export async function engagementParts<K extends EngagementPartKind>(
  db: AdvisorDb,
  engagementId: string,
  kind: K,
): Promise<EngagementPartRow<K>[]> {
  const rows = await db.engagementParts.where('[engagementId+kind]').equals([engagementId, kind]).toArray();
  return (rows as EngagementPartRow<K>[]).sort((a, b) => a.position - b.position);
}

/** A questionnaire sent, closed or reopened here that the platform does not have yet. */
export interface PendingEngagementChange {
  opId: string;
  kind: EngagementOperationKind;
  state: OperationState;
  /** Local id of the account it is queued on. */
  accountId: string;
  /** The engagement closed or reopened; null for a send (it has no id until the platform makes it). */
  engagementId: string | null;
  /** A send's member and template. */
  member: 'client' | 'coclient' | null;
  templateId: string | null;
  /** Why the platform refused it, or why its last try failed. */
  error: string | null;
  queuedAt: number;
}

/** The engagement changes waiting (an account's, or all), in the order they go. */
export async function pendingEngagementChanges(
  db: AdvisorDb,
  accountId?: string,
): Promise<PendingEngagementChange[]> {
  const ops: Operation[] =
    accountId === undefined
      ? await db.outbox.toArray()
      : await db.outbox.where('[table+recordId]').equals(['accounts', accountId]).toArray();
  return ops
    .filter((op) => (ENGAGEMENT_OPERATION_KINDS as readonly string[]).includes(op.kind))
    .sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))
    .map((op) => ({
      opId: op.id,
      kind: op.kind as EngagementOperationKind,
      state: op.state,
      accountId: op.recordId,
      engagementId: typeof op.fields.engagement === 'string' ? op.fields.engagement : null,
      member: op.fields.member === 'client' || op.fields.member === 'coclient' ? op.fields.member : null,
      templateId: typeof op.fields.template_id === 'string' ? op.fields.template_id : null,
      error: op.lastError?.message ?? null,
      queuedAt: op.createdAt,
    }));
}
