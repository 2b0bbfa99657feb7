// The pull side of the sync engine against the sandbox platform over real HTTP, through the real
// main-side transport, into Dexie over fake-indexeddb: the page probe, incremental list pulls,
// the deletion sweep, a whole account with its relations, pending local changes that a pull must
// keep, accounts kept offline, configuration, and the queries over what was pulled.

import { beforeAll, describe, expect, it } from 'vitest';
import { foldForSearch } from '@shared/search-text.ts';
import { COLLECTION_SECTIONS, sectionKey } from '@shared/sections.ts';
import { createRecord, updateRecord } from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { accountIndex } from '../../renderer/src/data/accounts.ts';
import type { AccountRow, Operation } from '../../renderer/src/data/model.ts';
import {
  ACCOUNT_SORT_KEYS,
  CONFIG_KEYS,
  accountSingles,
  configEntry,
  listAccounts,
  searchAccounts,
  sectionItems,
  type AccountFilter,
} from '../../renderer/src/data/queries/index.ts';
import { localView, unflatten } from '../../renderer/src/data/view.ts';
import {
  ACCOUNT_LIST_STATE,
  PAGE_SIZES,
  PullEngine,
  type PullProgress,
} from '../../renderer/src/sync/pull/index.ts';
import type { Send } from '../../renderer/src/sync/send.ts';
import type { AccountRecord } from '../platform/model.ts';
import { sandbox } from '../support/sandbox.ts';
import { openDb } from '../support/store.ts';
import { ADVISOR, ASSISTANT, sandboxUser } from '../support/sandbox-client.ts';

const platform = sandbox({ accounts: 120 });
const advisor = sandboxUser(platform, ADVISOR);
let send: Send;

beforeAll(() => {
  send = (req) => advisor.transport.request(req);
});

async function freshDb(): Promise<AdvisorDb> {
  const db = openDb();
  await db.open();
  return db;
}

/** The accounts the advisor sees: their current team's (archived included). */
function teamAccounts(): AccountRecord[] {
  const state = platform.control.dump();
  const user = state.users.find((u) => u.email === ADVISOR)!;
  return state.accounts.filter((a) => a.teamId === user.currentTeamId);
}

/** A request to the platform as another user, as a colleague working meanwhile. */
async function asUser(email: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const token = platform.control.token(email).access_token;
  const res = await fetch(`${platform.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

function requestsSince(): () => number {
  platform.control.resetStats();
  return () => platform.control.stats().total;
}

async function accountOf(db: AdvisorDb, serverId: number): Promise<AccountRow> {
  const row = await db.accounts.where('serverId').equals(serverId).first();
  if (!row) throw new Error(`account ${serverId} was not pulled`);
  return row;
}

/** An operation as the change module would queue it (only that module writes the outbox in the app). */
function pendingUpdate(
  table: Operation['table'],
  recordId: string,
  fields: Record<string, unknown>,
): Operation {
  return {
    id: crypto.randomUUID(),
    table,
    recordId,
    kind: 'update',
    fields,
    base: {},
    parentId: null,
    state: 'queued',
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    createdAt: Date.now(),
    updatedAt: Date.now(),
  };
}

/** Queues an update by hand and updates the row's local view, as a local edit does. */
async function editLocally(
  db: AdvisorDb,
  table: 'accounts' | 'sectionItems',
  id: string,
  fields: Record<string, unknown>,
) {
  const op = pendingUpdate(table, id, fields);
  await db.outbox.add(op);
  const row = (await db.table(table).get(id)) as AccountRow;
  await db.table(table).update(id, { fields: localView(row.server, [op]), status: 'pending' });
}

describe('account list', () => {
  it('probes the largest page, falls back on 422, remembers the size and brings the whole list (archived too)', async () => {
    const db = await freshDb();
    // The default sizes: the probe starts above the sandbox's cap of 500.
    expect(PAGE_SIZES[0]).toBeGreaterThan(500);
    const engine = new PullEngine({ db, send });
    const progress: PullProgress[] = [];
    const count = requestsSince();
    const report = await engine.pullAccountList({ onProgress: (p) => progress.push(p) });

    const expected = teamAccounts();
    expect(expected.some((a) => a.archived)).toBe(true);
    // The probe refused, the page, and (accounts new to the store) the platform's current team
    // confirmed as the store's before they are kept (issue 12).
    expect(platform.control.stats().byStatus).toMatchObject({ 422: 1, 200: 2 });
    expect(report).toMatchObject({
      requests: 3,
      records: expected.length,
      written: expected.length,
      failures: [],
    });
    expect(count()).toBe(3);
    expect(await db.accounts.count()).toBe(expected.length);
    expect(await db.accounts.where('archived').equals(1).count()).toBe(
      expected.filter((a) => a.archived).length,
    );
    expect(progress.at(-1)).toEqual({ done: expected.length, total: expected.length });
    expect((await db.meta.get(ACCOUNT_LIST_STATE))?.value).toMatchObject({ pageSize: 500 });

    for (const account of expected) {
      const row = await accountOf(db, account.id);
      expect(row.fields['client.email']).toBe(account.client.email);
      expect(row.fields['coclient.email']).toBe(account.coclient?.email ?? null);
      expect(row.status).toBe('synced');
      expect(row.server).toEqual(row.fields);
    }

    // The remembered size is used at once by the next engine: no probe.
    const again = await new PullEngine({ db, send }).pullAccountList({
      full: true,
    });
    expect(again.requests).toBe(1);
    expect(again.written).toBe(0);
  });

  it('falls back through several sizes when the platform takes only small pages', async () => {
    const db = await freshDb();
    const engine = new PullEngine({ db, send, pageSizes: [2000, 800, 40] });
    const report = await engine.pullAccountList();
    const pages = Math.ceil(teamAccounts().length / 40);
    // Two probes refused, the pages, and the team confirmed once for the new accounts.
    expect(report.requests).toBe(2 + pages + 1);
    expect(await db.accounts.count()).toBe(teamAccounts().length);
  });

  it('pulls incrementally only what changed since the last pull', async () => {
    const db = await freshDb();
    const engine = new PullEngine({ db, send, pageSizes: [10] });
    const first = await engine.pullAccountList();
    // The pages, and the team confirmed once for the accounts new to the store.
    expect(first.requests).toBe(Math.ceil(teamAccounts().length / 10) + 1);

    const [a, b] = teamAccounts().filter((x) => !x.archived);
    await asUser(ASSISTANT, 'POST', `/api/v2/accounts/${a!.id}`, { 'client.first_name': 'Changed' });
    await asUser(ASSISTANT, 'POST', `/api/v0/accounts/${b!.id}/assets`, {
      name: 'Boat',
      type: 'other',
      owner: 'client',
      current_value: 12000,
    });

    const count = requestsSince();
    const report = await engine.pullAccountList();
    expect(count()).toBe(1);
    expect(report.requests).toBe(1);
    expect(report.written).toBe(2);
    expect((await accountOf(db, a!.id)).fields['client.first_name']).toBe('Changed');
    expect((await accountOf(db, a!.id)).search).toContain('changed');
    const serverB = teamAccounts().find((x) => x.id === b!.id)!;
    expect((await accountOf(db, b!.id)).meta.updated_at).toBe(serverB.updated_at);

    expect((await engine.pullAccountList()).written).toBe(0);
  });

  it('notices remote deletions in the sweep: removed, or kept and flagged when a change is pending', async () => {
    const db = await freshDb();
    const engine = new PullEngine({ db, send });
    await engine.pullAccountList();
    const [gone, goneWithEdit] = teamAccounts().filter((a) => a.type === 'CLIENT');
    const editedRow = await accountOf(db, goneWithEdit!.id);
    await editLocally(db, 'accounts', editedRow.id, { 'client.last_name': 'Mine' });
    const goneRow = await accountOf(db, gone!.id);
    await db.sectionItems.add({
      id: 'item-of-gone',
      serverId: 'x|y',
      accountId: goneRow.id,
      section: 'assets',
      fields: {},
      server: {},
      status: 'synced',
      changedAt: 0,
    });
    for (const account of [gone!, goneWithEdit!])
      await asUser(ADVISOR, 'DELETE', `/api/v2/accounts/${account.id}`, { password: 'sandbox' });

    // An incremental pull cannot see deletions.
    expect((await engine.pullAccountList()).removed).toBe(0);
    const count = requestsSince();
    const report = await engine.pullAccountList({ full: true });
    // One page, the platform's current team confirmed (issue 12), then one confirmation per missing account.
    expect(count()).toBe(4);
    expect(report).toMatchObject({ requests: 4, removed: 2, flagged: 1 });
    expect(await db.accounts.get(goneRow.id)).toBeUndefined();
    expect(await db.sectionItems.get('item-of-gone')).toBeUndefined();
    const kept = await db.accounts.get(editedRow.id);
    expect(kept?.deletedOnServer).toBeGreaterThan(0);
    expect(kept?.fields['client.last_name']).toBe('Mine');
    expect(await db.accounts.count()).toBe(teamAccounts().length + 1);
  });

  it('sweeps again once the interval has passed', async () => {
    const db = await freshDb();
    let now = Date.parse('2030-01-01T00:00:00Z');
    const engine = new PullEngine({ db, send, now: () => now, sweepIntervalMs: 60_000 });
    await engine.pullAccountList();
    const victim = teamAccounts()[0]!;
    await asUser(ADVISOR, 'DELETE', `/api/v0/accounts/${victim.id}`);
    expect((await engine.pullAccountList()).removed).toBe(0);
    now += 60_000;
    expect((await engine.pullAccountList()).removed).toBe(1);
    expect(await db.accounts.where('serverId').equals(victim.id).count()).toBe(0);
  });
});

describe('one account', () => {
  let db: AdvisorDb;
  let engine: PullEngine;
  let account: AccountRecord;
  let goal: { id: string; fields: Record<string, unknown> };

  beforeAll(async () => {
    db = await freshDb();
    engine = new PullEngine({ db, send });
    // A seeded college goal whose beneficiary is a child (a FamilyMember item), with a co-client.
    account = teamAccounts().find(
      (a) =>
        a.coclient &&
        a.sections?.goals?.some(
          (g) => (g.fields.beneficiary as { type?: string } | null)?.type === 'FamilyMember',
        ),
    )!;
    goal = account.sections!.goals!.find(
      (g) => (g.fields.beneficiary as { type?: string } | null)?.type === 'FamilyMember',
    )!;
    // A document whose file is a stored file and whose relation names the same child.
    const state = platform.control.dump();
    // The platform takes only a file of the account's own team.
    const file = Object.values(state.files).find((f) => f.teamId === account.teamId)!;
    await asUser(ADVISOR, 'POST', `/api/v0/accounts/${account.id}/documents`, {
      file: { url: `${platform.url}/api/v0/files/${file.id}/${encodeURIComponent(file.name)}` },
      relation: goal.fields.beneficiary,
    });
    account = teamAccounts().find((a) => a.id === account.id)!;
    await engine.pullAccountList();
  });

  it('brings the account, both members’ details, every section and the read-only extras in 25 requests', async () => {
    const row = await accountOf(db, account.id);
    const count = requestsSince();
    const report = await engine.pullAccount(row.id, { priority: 'interactive' });
    // account + 2 details + 12 collections + 2 employment + 2 expenses + 2 income, and the
    // read-only extras: 2 security + profile + activity
    expect(report.failures).toEqual([]);
    expect(report.requests).toBe(25);
    expect(count()).toBe(25);
    expect((await db.accounts.get(row.id))?.pulledAt).toBeGreaterThan(0);

    const sections = account.sections!;
    for (const section of COLLECTION_SECTIONS) {
      for (const member of section.perMember ? (['client', 'coclient'] as const) : [undefined]) {
        const key = sectionKey(section, member);
        const rows = await sectionItems(db, row.id, key);
        expect(rows.map((r) => r.serverId).sort(), key).toEqual(
          (sections[key] ?? []).map((i) => i.id).sort(),
        );
      }
    }
  });

  it('points relations at local ids: the goal and the document name the child’s local row', async () => {
    const row = await accountOf(db, account.id);
    const childServerId = (goal.fields.beneficiary as { id: string }).id;
    const child = await db.sectionItems.where('serverId').equals(childServerId).first();
    expect(child?.section).toBe('family');
    const pulledGoal = await db.sectionItems.where('serverId').equals(goal.id).first();
    expect(pulledGoal?.fields.beneficiary).toEqual({ type: 'FamilyMember', id: child!.id });
    const [document] = await sectionItems(db, row.id, 'documents');
    expect(document?.fields.relation).toEqual({ type: 'FamilyMember', id: child!.id });
    const served = (await asUser(ADVISOR, 'GET', `/api/v0/accounts/${account.id}/documents`)) as {
      file: unknown;
    }[];
    expect(document?.fields.file).toEqual(served[0]!.file);
    const file = document?.fields.file as { url: string; filename: string };
    expect(file.url).toContain('/files/');
    expect(file.filename).not.toBe('');
  });

  it('stores member details flattened, and single sections as returned', async () => {
    const row = await accountOf(db, account.id);
    const singles = await accountSingles(db, row.id);
    expect(Object.keys(singles).sort()).toEqual(
      [
        'details:client',
        'details:coclient',
        'expenses-fixed',
        'expenses-tax',
        'income:client',
        'income:coclient',
      ].sort(),
    );
    for (const member of ['client', 'coclient']) {
      const served = await asUser(ADVISOR, 'GET', `/api/v0/accounts/${account.id}/${member}/details`);
      const details = singles[`details:${member}`]!;
      expect(details.fields).toHaveProperty(['address.city']);
      expect(details.fields).toHaveProperty(['drivers_license.jurisdiction.state']);
      expect(unflatten(details.fields)).toEqual(served);
    }
    const income = await asUser(ADVISOR, 'GET', `/api/v0/accounts/${account.id}/client/income`);
    expect(singles['income:client']!.fields).toEqual(income);
  });

  it('writes nothing and duplicates nothing when pulled again unchanged', async () => {
    const row = await accountOf(db, account.id);
    const before = await db.sectionItems.where('accountId').equals(row.id).primaryKeys();
    const report = await engine.pullAccount(row.id);
    expect(report.written).toBe(0);
    expect((await db.sectionItems.where('accountId').equals(row.id).primaryKeys()).sort()).toEqual(
      before.sort(),
    );
  });

  it('removes an item deleted on the server, and keeps one with a pending change, flagged', async () => {
    const row = await accountOf(db, account.id);
    const made: { id: string }[] = [];
    for (const name of ['Boat', 'Cabin'])
      made.push(
        (await asUser(ASSISTANT, 'POST', `/api/v0/accounts/${account.id}/assets`, {
          name,
          type: 'other',
          owner: 'client',
          current_value: 1000,
        })) as { id: string },
      );
    await engine.pullAccount(row.id);
    const [plain, edited] = made as [{ id: string }, { id: string }];
    const editedRow = (await db.sectionItems.where('serverId').equals(edited.id).first())!;
    await editLocally(db, 'sectionItems', editedRow.id, { name: 'Mine' });
    for (const item of made)
      await asUser(
        ASSISTANT,
        'DELETE',
        `/api/v0/accounts/${account.id}/assets/${encodeURIComponent(item.id)}`,
      );

    const report = await engine.pullAccount(row.id);
    expect(report).toMatchObject({ removed: 1, flagged: 1 });
    expect(await db.sectionItems.where('serverId').equals(plain.id).count()).toBe(0);
    const kept = await db.sectionItems.get(editedRow.id);
    expect(kept?.deletedOnServer).toBeGreaterThan(0);
    expect(kept?.fields.name).toBe('Mine');
  });

  it('skips the co-client’s endpoints when there is none, and drops their data once the co-client is removed', async () => {
    await asUser(ADVISOR, 'POST', `/api/v2/accounts/${account.id}`, { coclient: null });
    const row = await accountOf(db, account.id);
    const report = await engine.pullAccount(row.id);
    expect(report.failures).toEqual([]);
    expect(report.requests).toBe(21);
    const singles = await accountSingles(db, row.id);
    expect(Object.keys(singles)).not.toContain('details:coclient');
    expect(Object.keys(singles)).not.toContain('income:coclient');
    expect(await sectionItems(db, row.id, 'employment:coclient')).toEqual([]);
    expect((await db.accounts.get(row.id))?.fields['coclient.email']).toBeNull();
  });
});

describe('a pull never overwrites a pending local change', () => {
  it('keeps the local edit of one field while taking the server’s change of another (account and item)', async () => {
    const db = await freshDb();
    const engine = new PullEngine({ db, send });
    await engine.pullAccountList();
    const account = teamAccounts().find((a) => !a.archived && (a.sections?.assets?.length ?? 0) > 0)!;
    const row = await accountOf(db, account.id);
    await engine.pullAccount(row.id);
    const asset = account.sections!.assets![0]!;
    const assetRow = (await db.sectionItems.where('serverId').equals(asset.id).first())!;

    await editLocally(db, 'accounts', row.id, { 'client.first_name': 'Local' });
    await editLocally(db, 'sectionItems', assetRow.id, { name: 'Local name' });
    await asUser(ASSISTANT, 'POST', `/api/v2/accounts/${account.id}`, { 'client.last_name': 'Server' });
    await asUser(ASSISTANT, 'PUT', `/api/v0/accounts/${account.id}/assets/${encodeURIComponent(asset.id)}`, {
      current_value: 4242,
    });

    await engine.pullAccountList();
    await engine.pullAccount(row.id);

    const pulled = (await db.accounts.get(row.id))!;
    expect(pulled.fields).toMatchObject({ 'client.first_name': 'Local', 'client.last_name': 'Server' });
    expect(pulled.server).toMatchObject({
      'client.first_name': account.client.first_name,
      'client.last_name': 'Server',
    });
    expect(pulled.status).toBe('pending');
    expect(pulled.search).toContain('local');
    expect(pulled.search).toContain('server');
    const pulledAsset = (await db.sectionItems.get(assetRow.id))!;
    expect(pulledAsset.fields).toMatchObject({ name: 'Local name', current_value: { value: 4242 } });
    expect(pulledAsset.server).toMatchObject({ name: asset.fields.name, current_value: { value: 4242 } });
    expect(pulledAsset.status).toBe('pending');
  });

  it('keeps an item whose delete is queued, out of the screens’ lists, until the delete is sent', async () => {
    const db = await freshDb();
    const engine = new PullEngine({ db, send });
    await engine.pullAccountList();
    const account = teamAccounts().find((a) => (a.sections?.cash?.length ?? 0) > 0)!;
    const row = await accountOf(db, account.id);
    await engine.pullAccount(row.id);
    const cash = (await db.sectionItems.where('serverId').equals(account.sections!.cash![0]!.id).first())!;
    await db.outbox.add({ ...pendingUpdate('sectionItems', cash.id, {}), kind: 'delete' });
    await asUser(
      ASSISTANT,
      'PUT',
      `/api/v0/accounts/${account.id}/cash/${encodeURIComponent(cash.serverId!)}`,
      {
        name: 'Renamed there',
      },
    );

    await engine.pullAccount(row.id);
    const kept = (await db.sectionItems.get(cash.id))!;
    expect(kept.server).toMatchObject({ name: 'Renamed there' });
    expect(kept.fields).toEqual(cash.fields);
    expect((await sectionItems(db, row.id, 'cash')).map((r) => r.id)).not.toContain(cash.id);
    expect((await sectionItems(db, row.id, 'cash', { includeDeleted: true })).map((r) => r.id)).toContain(
      cash.id,
    );
  });

  it('leaves alone what belongs to a co-client added here and not sent yet', async () => {
    const db = await freshDb();
    const engine = new PullEngine({ db, send });
    await engine.pullAccountList();
    const account = teamAccounts().find((a) => !a.archived && !a.coclient)!;
    const row = await accountOf(db, account.id);
    await engine.pullAccount(row.id);
    await updateRecord(db, 'accounts', row.id, {
      'coclient.first_name': 'Bo',
      'coclient.last_name': 'New',
      'coclient.email': `bo-${Date.now()}@example.com`,
    });
    const { id: details } = await createRecord(db, 'singles', {
      accountId: row.id,
      key: 'details:coclient',
      fields: { comments: 'Met at the fair' },
    });
    const { id: job } = await createRecord(db, 'sectionItems', {
      accountId: row.id,
      section: 'employment:coclient',
      fields: { employer: 'Acme' },
    });
    // The platform has no co-client yet: their records are not gone, they are on their way.
    expect((await engine.pullAccount(row.id)).flagged).toBe(0);
    expect((await db.singles.get(details))?.deletedOnServer ?? null).toBeNull();
    expect((await db.sectionItems.get(job))?.deletedOnServer ?? null).toBeNull();
  });

  it('does not add a second copy of an account whose create is in flight', async () => {
    const db = await freshDb();
    const engine = new PullEngine({ db, send });
    await engine.pullAccountList();
    const email = `in-flight-${Date.now()}@example.com`;
    const template = (await db.accounts.toCollection().first())!;
    const fields = { ...template.fields, 'client.email': email };
    const local: AccountRow = {
      ...template,
      ...accountIndex(fields, template.meta),
      id: 'local-new',
      serverId: null,
      server: null,
      fields,
      status: 'pending',
    };
    await db.accounts.add(local);
    await db.outbox.add({
      ...pendingUpdate('accounts', 'local-new', local.fields),
      kind: 'create',
      state: 'inflight',
    });
    // The create reached the platform; its answer did not reach us.
    await asUser(ADVISOR, 'POST', '/api/v2/accounts', {
      type: 'CLIENT',
      'client.first_name': 'Ina',
      'client.last_name': 'Flight',
      'client.email': email,
    });
    await engine.pullAccountList();
    const copies = await db.accounts.filter((r) => r.search.includes(email)).toArray();
    expect(copies.map((r) => r.id)).toEqual(['local-new']);
  });
});

describe('relations to deleted items', () => {
  it('keep naming the local id the item had once the item is gone from the server', async () => {
    const db = await freshDb();
    const engine = new PullEngine({ db, send });
    await engine.pullAccountList();
    const account = teamAccounts().find((a) => !a.archived)!;
    const row = await accountOf(db, account.id);
    const child = (await asUser(ASSISTANT, 'POST', `/api/v0/accounts/${account.id}/family`, {
      first_name: 'Kit',
      last_name: 'Gone',
      relationship: 'child',
    })) as { id: string };
    const goal = (await asUser(ASSISTANT, 'POST', `/api/v0/accounts/${account.id}/goals`, {
      name: 'Camp',
      type: 'travel',
      owner: 'client',
      beneficiary: { type: 'FamilyMember', id: child.id },
      target: { value: 500, date: '2031-06-01' },
    })) as { id: string };
    await engine.pullAccount(row.id);
    const childId = (await db.sectionItems.where('serverId').equals(child.id).first())!.id;
    const goalOf = async () => (await db.sectionItems.where('serverId').equals(goal.id).first())!;
    expect((await goalOf()).fields.beneficiary).toEqual({ type: 'FamilyMember', id: childId });

    await asUser(
      ASSISTANT,
      'DELETE',
      `/api/v0/accounts/${account.id}/family/${encodeURIComponent(child.id)}`,
    );
    await engine.pullAccount(row.id);
    expect(await db.sectionItems.get(childId)).toBeUndefined();
    // The platform keeps the relation (without a label): it still names the same local id, unchanged.
    const kept = await goalOf();
    expect(kept.fields.beneficiary).toEqual({ type: 'FamilyMember', id: childId });
    expect(kept.server?.beneficiary).toEqual({ type: 'FamilyMember', id: childId });
    expect((await engine.pullAccount(row.id)).written).toBe(0);
  });
});

describe('accounts kept offline and configuration', () => {
  it('pulls offline, favorite and recently opened accounts, oldest pull first, and skips unchanged ones', async () => {
    const db = await freshDb();
    const engine = new PullEngine({ db, send, recentAccounts: 1 });
    await engine.pullAccountList();
    const favorites = await db.accounts.where('favorited').equals(1).primaryKeys();
    const [offline, opened, older] = (await db.accounts.where('favorited').equals(0).primaryKeys()).slice(
      0,
      3,
    );
    // Pulled before, long ago (offline first, then opened), and changed since: due again.
    await db.accounts.update(offline!, { availableOffline: 1, pulledAt: 5, pulledUpdatedAt: 'long ago' });
    await db.accounts.update(opened!, { openedAt: 2, pulledAt: 10, pulledUpdatedAt: 'long ago' });
    await db.accounts.update(older!, { openedAt: 1 });
    const order: string[] = [];
    const recorded = new PullEngine({
      db,
      send: (req) => {
        if (req.api === 'v2' && /^\/accounts\/\d+$/.test(req.path)) order.push(req.path);
        return send(req);
      },
      recentAccounts: 1,
    });
    const progress: PullProgress[] = [];
    const report = await recorded.pullOfflineAccounts({ onProgress: (p) => progress.push(p) });

    const expected = new Set([...favorites, offline!, opened!]);
    expect(favorites.length).toBeGreaterThan(0);
    expect(report.failures).toEqual([]);
    expect(order.length).toBe(expected.size);
    const pathOf = async (id: string) => `/accounts/${String((await db.accounts.get(id))!.serverId)}`;
    expect(order.slice(-2)).toEqual([await pathOf(offline!), await pathOf(opened!)]);
    expect(progress.at(-1)).toEqual({ done: expected.size, total: expected.size });
    const rows = await db.accounts.bulkGet([...expected]);
    expect(rows.every((r) => (r?.pulledAt ?? 0) > 10)).toBe(true);
    expect((await db.accounts.get(older!))?.pulledAt).toBeNull();

    // Nothing changed: nothing is asked.
    const count = requestsSince();
    expect((await engine.pullOfflineAccounts()).requests).toBe(0);
    expect(count()).toBe(0);

    // One of them changes on the server: the list pull sees it, and only that one is pulled again.
    const changed = (await db.accounts.get(offline!))!;
    await asUser(ASSISTANT, 'POST', `/api/v2/accounts/${String(changed.serverId)}`, {
      'client.first_name': 'Again',
    });
    await engine.pullAccountList();
    const again = await engine.pullOfflineAccounts();
    expect(again.requests).toBeGreaterThanOrEqual(21);
    expect(again.requests).toBeLessThanOrEqual(25);
  });

  it('pulls configuration once a day unless forced', async () => {
    const db = await freshDb();
    let now = 1_000_000;
    const engine = new PullEngine({ db, send, now: () => now });
    const first = await engine.pullConfig();
    const state = platform.control.dump();
    const user = (await configEntry<{ pipelines: unknown[]; templates: { id: string }[] }>(
      db,
      CONFIG_KEYS.user,
    ))!;
    const templates = user.data.templates;
    expect(templates.length).toBeGreaterThan(0);
    expect(first.failures).toEqual([]);
    expect(first.requests).toBe(6 + templates.length);
    expect(user.pulledAt).toBe(now);
    expect(user.data.pipelines.length).toBe(state.pipelines.length);
    // The stages are rows of their own, in the user resource's order.
    expect((await db.pipelines.orderBy('position').toArray()).map((p) => p.server)).toEqual(
      user.data.pipelines,
    );
    expect(await db.meta.get(CONFIG_KEYS.user)).toBeUndefined();
    const structures = (await configEntry<Record<string, unknown>>(db, CONFIG_KEYS.templates))!.data;
    expect(Object.keys(structures).sort()).toEqual(templates.map((t) => t.id).sort());
    expect(structures[templates[0]!.id]).toHaveProperty('panels');
    const icons = (await configEntry<string[]>(db, CONFIG_KEYS.icons))!;
    expect(icons.data).toContain('i_user');

    now += 60 * 60_000;
    expect(await engine.pullConfig()).toMatchObject({ skipped: true, requests: 0 });
    expect((await engine.pullConfig({ force: true })).requests).toBe(first.requests);
    now += 25 * 60 * 60_000;
    expect((await engine.pullConfig()).skipped).toBe(false);
  });
});

describe('queries over pulled accounts', () => {
  let db: AdvisorDb;
  let rows: AccountRow[];

  beforeAll(async () => {
    db = await freshDb();
    const engine = new PullEngine({ db, send });
    await engine.pullAccountList();
    await engine.pullConfig();
    rows = await db.accounts.toArray();
  });

  const names = (r: AccountRow) =>
    ['client', 'coclient'].flatMap((m) =>
      ['first_name', 'last_name', 'email'].map((f) => r.fields[`${m}.${f}`]),
    );
  // Case, accents and punctuation ignored on both sides (issue 23, point 15): "O'" is "o".
  // What folds to nothing ("@") is looked up as typed.
  const bruteSearch = (q: string) => {
    const typed = foldForSearch(q);
    const starts = (v: string) =>
      typed ? foldForSearch(v).startsWith(typed) : v.toLowerCase().startsWith(q.toLowerCase());
    return rows
      .filter((r) => names(r).some((v) => typeof v === 'string' && starts(v)))
      .map((r) => r.id)
      .sort();
  };

  it('finds by prefix of first name, last name or email of either member, each account once, any case, accent or punctuation', async () => {
    const prefixes = new Set<string>(['a', 'M', 'sa', 'zz', '@']);
    for (const row of rows.slice(0, 30))
      for (const v of names(row))
        if (typeof v === 'string' && v) prefixes.add(v.slice(0, 1 + (v.length % 3)).toUpperCase());
    for (const q of prefixes) {
      const found = (await searchAccounts(db, q, 10_000)).map((r) => r.id);
      expect(new Set(found).size, q).toBe(found.length);
      expect(found.sort(), q).toEqual(bruteSearch(q));
      const page = await listAccounts(db, { search: q, filter: 'all', limit: 10_000 });
      expect(page.items.map((r) => r.id).sort(), q).toEqual(bruteSearch(q));
    }
  });

  it('gives the same accounts as the platform’s own search', async () => {
    for (const q of ['a', 'Jo', 'ma', 'smi']) {
      const served = (await asUser(ADVISOR, 'GET', `/api/v2/accounts?type=all&limit=500&query=${q}`)) as {
        items: { id: number }[];
      };
      const page = await listAccounts(db, { search: q, filter: 'all', limit: 500 });
      expect(page.items.map((r) => r.serverId).sort(), q).toEqual(served.items.map((a) => a.id).sort());
    }
  });

  it('filters as the version 2 type filter, with totals and pages', async () => {
    const cases: [AccountFilter | undefined, string][] = [
      [undefined, ''],
      ['client', 'client'],
      ['prospect', 'prospect'],
      ['favorite', 'favorite'],
      ['archived', 'archived'],
      ['all', 'all'],
    ];
    for (const [filter, type] of cases) {
      const served = (await asUser(ADVISOR, 'GET', `/api/v2/accounts?limit=500&type=${type}`)) as {
        items: { id: number; created_at: string }[];
      };
      const all = await listAccounts(db, { ...(filter ? { filter } : {}), limit: 500 });
      expect(all.total, String(filter)).toBe(served.items.length);
      // Newest first, served by an index: equal timestamps may come in another order.
      expect(all.items.map((r) => r.serverId).sort(), String(filter)).toEqual(
        served.items.map((a) => a.id).sort(),
      );
      expect(all.items.map((r) => r.meta.created_at)).toEqual(served.items.map((a) => a.created_at));
      const page = await listAccounts(db, { ...(filter ? { filter } : {}), offset: 5, limit: 7 });
      expect(page.items.map((r) => r.id)).toEqual(all.items.slice(5, 12).map((r) => r.id));
    }
    const stage = rows[0]!.pipelineId;
    const inStage = await listAccounts(db, { pipeline: stage, filter: 'all', limit: 500 });
    expect(inStage.items.map((r) => r.id).sort()).toEqual(
      rows
        .filter((r) => r.pipelineId === stage)
        .map((r) => r.id)
        .sort(),
    );
  });

  it('sorts by every sort key of the interface as the platform does', async () => {
    for (const key of ACCOUNT_SORT_KEYS) {
      for (const sort of [key, `-${key}`] as const) {
        const served = (await asUser(ADVISOR, 'GET', `/api/v2/accounts?type=all&limit=500&sort=${sort}`)) as {
          items: { id: number; created_at: string; updated_at: string }[];
        };
        const local = await listAccounts(db, { filter: 'all', sort, limit: 500 });
        if (key === 'created_at' || key === 'updated_at') {
          // Served by the index: equal timestamps may come in another order.
          expect(
            local.items.map((r) => r.meta[key]),
            sort,
          ).toEqual(served.items.map((a) => a[key]));
        } else {
          expect(
            local.items.map((r) => r.serverId),
            sort,
          ).toEqual(served.items.map((a) => a.id));
        }
      }
    }
  });
});
