// The invariants of the chaos scenario, checked once everything has settled (DESIGN.md §6):
// nothing duplicated (one server copy per local create), nothing lost (what the user created,
// deleted or last wrote is on the server, unless another user changed that very thing), and the
// local store the same as the server after a full pull. The server is read through its interfaces
// (fresh reads, not the pull's) and, for counting copies, through the control dump.

import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import {
  RELATION_SECTION,
  SECTIONS,
  sectionKey,
  sectionOfKey,
  sectionPath,
  type MemberRole,
} from '@shared/sections.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import {
  accountSnapshot,
  detailsFields,
  relationTargetsKey,
  sectionItemFields,
  singleFields,
} from '../../renderer/src/data/mappers.ts';
import type { Fields, SyncedRow } from '../../renderer/src/data/model.ts';
import { sameValue } from '../../renderer/src/data/view.ts';
import { DESCRIPTORS } from '../../renderer/src/sync/requests.ts';
import type { State } from '../platform/model.ts';
import type { Intent, Oracle } from './oracle.ts';
import { markerOf, type Marker } from './values.ts';

export interface Findings {
  duplicates: number;
  lost: number;
  divergent: number;
  /** One line per finding, naming the record and what is wrong. */
  problems: string[];
}

export interface CheckInput {
  db: AdvisorDb;
  oracle: Oracle;
  /** Reads the platform as the advisor (faults off). */
  send: (req: ApiRequest) => Promise<ApiResult>;
  /** The platform's whole state (`control.dump()`). */
  state: State;
  /** Local ids of the accounts whose details and sections were worked on. */
  scope: readonly string[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields two values differ in, for a readable finding. */
function differences(mine: Fields, theirs: Fields): string {
  const keys = new Set([...Object.keys(mine), ...Object.keys(theirs)]);
  return [...keys]
    .filter((k) => !sameValue(mine[k], theirs[k]))
    .map((k) => `${k}: here ${JSON.stringify(mine[k])}, server ${JSON.stringify(theirs[k])}`)
    .join('; ');
}

export async function check(input: CheckInput): Promise<Findings> {
  const findings: Findings = { duplicates: 0, lost: 0, divergent: 0, problems: [] };
  const report = (kind: 'duplicates' | 'lost' | 'divergent', message: string) => {
    findings[kind]++;
    findings.problems.push(`${kind}: ${message}`);
  };
  await checkOutbox(input, report);
  await checkIntents(input, report);
  await checkAccounts(input, report);
  for (const accountId of input.scope) await checkAccountData(input, accountId, report);
  return findings;
}

type Report = (kind: 'duplicates' | 'lost' | 'divergent', message: string) => void;

/** A change still queued after settling never reached the server: lost. */
async function checkOutbox({ db }: CheckInput, report: Report): Promise<void> {
  for (const op of await db.outbox.toArray())
    report(
      'lost',
      `${op.kind} of ${op.table} ${op.recordId} is still ${op.state} (${op.lastError?.message ?? 'no error'})`,
    );
}

// ---- Nothing duplicated, nothing lost --------------------------------------------------------

/** Server copies of a record made here: every server record carrying one of its markers. */
function serverCopies(state: State, intent: Intent): number {
  const markers: Set<Marker> = intent.markers;
  if (intent.table === 'accounts')
    return state.accounts.filter((a) => markers.has(a.client.email.toLowerCase())).length;
  let copies = 0;
  for (const account of state.accounts)
    for (const item of account.sections?.[intent.key] ?? []) {
      const marker = markerOf(intent.key, item.fields);
      if (marker !== null && markers.has(marker)) copies++;
    }
  return copies;
}

const onServer = (state: State, intent: Intent): boolean =>
  [...intent.serverIds].some((sid) =>
    intent.table === 'accounts'
      ? state.accounts.some((a) => a.id === sid)
      : state.accounts.some((a) => a.sections?.[intent.key]?.some((item) => item.id === sid)),
  );

async function checkIntents(input: CheckInput, report: Report): Promise<void> {
  const { db, state, oracle } = input;
  for (const intent of oracle.all()) {
    const name = `${intent.table} ${intent.key || 'account'} ${intent.id}`;
    const row = (await db.table(intent.table).get(intent.id)) as SyncedRow | undefined;
    if (row?.serverId != null) intent.serverIds.add(row.serverId);
    const copies = intent.created ? serverCopies(state, intent) : 0;
    if (copies > 1) report('duplicates', `${name}: ${copies} copies on the server`);
    const gone = intent.deleted || intent.discarded;
    if (gone) {
      if (row) report('lost', `${name} was deleted here but is still in the local store`);
      if (copies > 0 || onServer(state, intent))
        report('lost', `${name} was deleted here but is still on the server`);
      continue;
    }
    if (intent.othersDeleted) continue;
    if (!row) {
      report('lost', `${name} is missing from the local store`);
      continue;
    }
    if (intent.created && copies === 0) report('lost', `${name} never reached the server`);
    await checkFields(input, intent, row, name, report);
  }
}

/** Every field last written here, and not touched by anyone else, holds what was written. */
async function checkFields(
  { db, oracle }: CheckInput,
  intent: Intent,
  row: SyncedRow,
  name: string,
  report: Report,
): Promise<void> {
  const d = DESCRIPTORS[intent.table];
  const target = { row: row as never, account: null };
  for (const [field, wanted] of intent.fields) {
    if (intent.othersFields.has(field)) continue;
    const actual = row.fields[field];
    if (await relationToVanished(db, oracle, wanted)) {
      // The item it names is gone: the server keeps the relation to a deleted item (null label).
      if ((actual as { type?: unknown } | null)?.type === (wanted as { type: unknown }).type) continue;
    } else if (d.same(target, field, actual, wanted)) continue;
    report('lost', `${name}: ${field} is ${JSON.stringify(actual)}, ${JSON.stringify(wanted)} was written`);
  }
  for (const [field, file] of intent.files) {
    const held = row.fields[field] as { filename?: unknown } | null | undefined;
    const actual = held ? (held.filename ?? '(no name)') : null;
    if (actual !== file)
      report('lost', `${name}: ${field} holds ${JSON.stringify(actual)}, ${String(file)} was chosen`);
  }
}

/** A relation to an item that no longer exists as it was (deleted, discarded, recreated elsewhere). */
async function relationToVanished(db: AdvisorDb, oracle: Oracle, value: unknown): Promise<boolean> {
  if (!isObject(value) || typeof value.type !== 'string' || !(value.type in RELATION_SECTION)) return false;
  if (typeof value.id !== 'string') return false;
  const target = oracle.find('sectionItems', value.id);
  const gone = target && (target.deleted || target.discarded || target.othersDeleted || target.recreated);
  return Boolean(gone) || !(await db.sectionItems.get(value.id));
}

// ---- The local store equals the server ------------------------------------------------------

async function read(send: CheckInput['send'], api: 'v2' | 'v0', path: string, query?: ApiRequest['query']) {
  const res = await send({ api, method: 'GET', path, ...(query ? { query } : {}) });
  if (!res.ok) throw new Error(`The checker could not read ${path}: ${res.message}`);
  return res.data;
}

/** Rows the store must not hold once everything is settled: unsynced, or flagged gone. */
function unsettled(row: SyncedRow): string | null {
  if (row.deletedOnServer) return 'is flagged deleted on the server';
  if (row.status !== 'synced') return `is ${row.status}`;
  return null;
}

async function checkAccounts({ db, send }: CheckInput, report: Report): Promise<void> {
  const served = new Map<number, Fields>();
  for (let offset = 0; ; offset += 500) {
    const page = (await read(send, 'v2', '/accounts', { type: 'all', limit: 500, offset })) as {
      items: unknown[];
    };
    for (const item of page.items) {
      const snapshot = accountSnapshot(item);
      if (snapshot) served.set(snapshot.serverId, snapshot.fields);
    }
    if (page.items.length < 500) break;
  }
  const seen = new Set<number>();
  for (const row of await db.accounts.toArray()) {
    const name = `account ${row.id} (${String(row.serverId)})`;
    const problem = unsettled(row);
    if (problem) report('divergent', `${name} ${problem}`);
    const theirs = typeof row.serverId === 'number' ? served.get(row.serverId) : undefined;
    if (!theirs) {
      report('divergent', `${name} is here but not on the server`);
      continue;
    }
    if (seen.has(row.serverId as number)) report('divergent', `${name} is held twice here`);
    seen.add(row.serverId as number);
    if (!sameValue(row.fields, theirs)) report('divergent', `${name}: ${differences(row.fields, theirs)}`);
  }
  for (const serverId of served.keys())
    if (!seen.has(serverId)) report('divergent', `account ${serverId} is on the server but not here`);
}

/** The details, single sections and collections of one account, read fresh from the server. */
async function checkAccountData(input: CheckInput, accountId: string, report: Report): Promise<void> {
  const { db, send } = input;
  const account = await db.accounts.get(accountId);
  if (typeof account?.serverId !== 'number') return; // reported with the accounts
  const serverId = account.serverId;
  const members: MemberRole[] = account.meta.coclientId !== null ? ['client', 'coclient'] : ['client'];
  const keys = new Set<string>();
  const localIdOf = await serverToLocal(db, accountId);
  for (const member of members) {
    const key = `details:${member}`;
    keys.add(key);
    const data = await read(send, 'v0', `/accounts/${serverId}/${member}/details`);
    await compareSingle(db, accountId, key, detailsFields(data), report);
  }
  for (const section of SECTIONS)
    for (const member of section.perMember ? members : [undefined]) {
      const key = sectionKey(section, member);
      keys.add(key);
      const data = await read(send, 'v0', sectionPath(section, serverId, member));
      if (section.single) await compareSingle(db, accountId, key, singleFields(data), report);
      else await compareCollection(db, accountId, key, data as Record<string, unknown>[], localIdOf, report);
    }
  // What belongs to a member the account no longer has must be gone here too.
  for (const row of await db.singles.where('accountId').equals(accountId).toArray())
    if (!keys.has(row.key)) report('divergent', `single ${row.id} is here but not on the server`);
  for (const row of await db.sectionItems.where('accountId').equals(accountId).toArray())
    if (!keys.has(row.section))
      report('divergent', `item ${row.id} (${row.section}) is here but the server has no such section`);
}

async function compareSingle(db: AdvisorDb, accountId: string, key: string, theirs: Fields, report: Report) {
  const row = await db.singles.get(`${accountId}:${key}`);
  const name = `single ${accountId}:${key}`;
  if (!row) return report('divergent', `${name} is on the server but not here`);
  const problem = unsettled(row);
  if (problem) report('divergent', `${name} ${problem}`);
  if (!sameValue(row.fields, theirs)) report('divergent', `${name}: ${differences(row.fields, theirs)}`);
}

/** Server item id → local id, as the pull maps relations: rows first, then ids reserved for targets not here. */
async function serverToLocal(db: AdvisorDb, accountId: string): Promise<(sid: string) => string> {
  const map = new Map<string, string>();
  const reserved = (await db.meta.get(relationTargetsKey(accountId)))?.value;
  if (isObject(reserved)) for (const [sid, id] of Object.entries(reserved)) map.set(sid, String(id));
  for (const row of await db.sectionItems.where('accountId').equals(accountId).toArray())
    if (row.serverId !== null) map.set(String(row.serverId), row.id);
  return (sid) => map.get(sid) ?? sid;
}

async function compareCollection(
  db: AdvisorDb,
  accountId: string,
  key: string,
  items: Record<string, unknown>[],
  localIdOf: (sid: string) => string,
  report: Report,
) {
  const section = sectionOfKey(key)!.section;
  const rows = await db.sectionItems.where('[accountId+section]').equals([accountId, key]).toArray();
  const served = new Set<string>();
  for (const item of items) {
    const sid = String(item.id);
    served.add(sid);
    const mine = rows.filter((r) => r.serverId === sid);
    const name = `item ${key} ${sid}`;
    if (mine.length !== 1) {
      report('divergent', `${name} is held ${mine.length} times here`);
      continue;
    }
    const row = mine[0]!;
    const problem = unsettled(row);
    if (problem) report('divergent', `${name} ${problem}`);
    const theirs = sectionItemFields(section, item, localIdOf);
    if (!sameValue(row.fields, theirs)) report('divergent', `${name}: ${differences(row.fields, theirs)}`);
  }
  for (const row of rows)
    if (row.serverId === null || !served.has(String(row.serverId)))
      report('divergent', `item ${key} ${row.id} (${String(row.serverId)}) is here but not on the server`);
}
