// The platform's current team switched from another device (issue 12), against the sandbox
// platform over real HTTP: the same user's token switches it with POST v2 /user/switch while
// changes are queued here and during a pull. A 404, or an account missing from the list, is then
// no deletion: nothing is removed or marked here, the queued changes stay queued, the sync state
// says the platform's team moved, and everything reaches the platform once the team is back.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiRequest } from '@shared/api/request.ts';
import { createRecord, updateRecord } from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import type { StoreIdentity } from '../../renderer/src/data/identity/index.ts';
import type { AccountRow } from '../../renderer/src/data/model.ts';
import type { SyncCoordinator, SyncState } from '../../renderer/src/sync/coordinator/index.ts';
import { STATS_KEY } from '../../renderer/src/data/queries/index.ts';
import { PullEngine, type PullReport } from '../../renderer/src/sync/pull/index.ts';
import type { Send } from '../../renderer/src/sync/send.ts';
import { TeamWatch } from '../../renderer/src/sync/team.ts';
import { sandbox } from '../support/sandbox.ts';
import { SANDBOX_TEAM, newUserKey, openDb } from '../support/store.ts';
import { loneCoordinator } from './lone-coordinator.ts';
import { ADVISOR, sandboxUser } from '../support/sandbox-client.ts';

/** The advisor's other team in the sandbox (Harbor Wealth Partners). */
const HARBOR = 2;

const platform = sandbox({ accounts: 12 });
const advisor = sandboxUser(platform, ADVISOR, { perTest: true });
/** The same user on another device. */
const elsewhere = sandboxUser(platform, ADVISOR, { perTest: true });
let identity: StoreIdentity;
let db: AdvisorDb;
const stops: (() => Promise<void>)[] = [];

beforeEach(async () => {
  identity = { user: newUserKey(), team: SANDBOX_TEAM };
  db = openDb(undefined, identity);
  await switchElsewhere(SANDBOX_TEAM);
  // The store holds its team's accounts, as after a first pull.
  await new PullEngine({ db, send: advisor.send }).pullAccountList({ full: true });
});
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  await switchElsewhere(SANDBOX_TEAM);
  await db.delete();
});

/** Another device of the same user makes `team` the platform's current team. */
async function switchElsewhere(team: number): Promise<void> {
  const res = await elsewhere.send({ api: 'v2', method: 'POST', path: '/user/switch', body: { id: team } });
  if (!res.ok) throw new Error(`The switch to team ${team} failed: ${res.message}`);
}

const serverAccount = (id: unknown) => platform.control.dump().accounts.find((a) => a.id === id);
const byEmail = (email: string) => platform.control.dump().accounts.filter((a) => a.client.email === email);

/** A synced account of the store's team, with what is known of it here. */
async function storedAccount(): Promise<AccountRow & { serverId: number }> {
  const rows = await db.accounts.toArray();
  const row = rows.find((r) => typeof r.serverId === 'number' && serverAccount(r.serverId)?.teamId === 1);
  if (!row) throw new Error('The first pull stored no account of the store’s team.');
  return row as AccountRow & { serverId: number };
}

/** Everything the store holds of its accounts, to compare before and after. */
async function accountsHere() {
  const rows = await db.accounts.orderBy('id').toArray();
  return rows.map((r) => ({ id: r.id, serverId: r.serverId, deletedOnServer: r.deletedOnServer ?? null }));
}

/** Resolves once `done` holds, asked every 20 ms for at most 15 s. */
async function settled(done: () => Promise<boolean>): Promise<void> {
  for (const end = Date.now() + 15_000; !(await done());) {
    if (Date.now() > end) throw new Error('Timed out waiting for the store to settle.');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function until(c: SyncCoordinator, test: (s: SyncState) => boolean, timeoutMs = 15_000): Promise<SyncState> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Timed out; the state is ${JSON.stringify(c.state)}`)),
      timeoutMs,
    );
    const off = c.subscribe((s) => {
      if (!test(s)) return;
      clearTimeout(timer);
      queueMicrotask(() => off());
      resolve(s);
    });
  });
}

describe('changes queued while another device switches the team', () => {
  it('are held, nothing deleted or marked; the state says the team moved; all land once it is back', async () => {
    const account = await storedAccount();
    const name = `Moved-${crypto.randomUUID().slice(0, 8)}`;
    const email = `team-moved-${crypto.randomUUID()}@example.com`;
    await updateRecord(db, 'accounts', account.id, { 'client.first_name': name });
    await createRecord(db, 'sectionItems', {
      accountId: account.id,
      section: 'assets',
      fields: { name: 'Boat', type: 'vehicle', owner: 'client', current_value: 5000 },
    });
    await createRecord(db, 'accounts', {
      fields: {
        type: 'CLIENT',
        'client.first_name': 'Nia',
        'client.last_name': 'Team',
        'client.email': email,
      },
    });
    const before = await accountsHere();
    const queued = (await db.outbox.orderBy('seq').toArray()).map((op) => op.id);

    await switchElsewhere(HARBOR);
    const sync = loneCoordinator({ db, send: advisor.send, identity: () => identity });
    stops.push(() => sync.stop());
    sync.start();
    const moved = await until(sync, (s) => s.teamMoved !== null);
    expect(moved.teamMoved).toEqual({ team: HARBOR });
    // Let the pass end (the move may be learnt from the configuration's user before the push has
    // put back what it had claimed) and any pull under way settle.
    await settled(async () => (await db.outbox.where('state').equals('inflight').count()) === 0);
    await until(sync, (s) => s.phase === 'idle');

    const ops = await db.outbox.orderBy('seq').toArray();
    expect(ops.map((op) => op.id)).toEqual(queued);
    expect(ops.every((op) => op.state === 'queued' && op.lastError === null)).toBe(true);
    expect(await db.conflicts.count()).toBe(0);
    expect((await accountsHere()).filter((r) => before.some((b) => b.id === r.id))).toEqual(before);
    expect(sync.state).toMatchObject({ pendingCount: 3, rejected: [], conflicts: [] });
    // Nothing reached either team.
    expect(serverAccount(account.serverId)?.client.first_name).not.toBe(name);
    expect(byEmail(email)).toEqual([]);

    // The platform's team is the store's again: the next pass sends everything, once.
    await switchElsewhere(SANDBOX_TEAM);
    await sync.rearm();
    await until(sync, (s) => s.teamMoved === null && s.pendingCount === 0 && s.phase === 'idle');
    expect(await db.outbox.count()).toBe(0);
    expect(serverAccount(account.serverId)?.client.first_name).toBe(name);
    expect(serverAccount(account.serverId)?.sections?.assets?.map((i) => i.fields.name)).toContain('Boat');
    expect(byEmail(email)).toHaveLength(1);
    expect(byEmail(email)[0]?.teamId).toBe(SANDBOX_TEAM);
  });
});

describe('a pull while another device switches the team', () => {
  it('an incremental list read under the other team leaves none of its accounts and keeps its watermark', async () => {
    const before = await accountsHere();
    const state = await db.meta.get('pull.accounts');
    // The switch happens between the pull's start and its first page.
    let switched = false;
    const send: Send = async (req: ApiRequest) => {
      if (!switched && req.method === 'GET' && req.path === '/accounts') {
        switched = true;
        await switchElsewhere(HARBOR);
      }
      return advisor.send(req);
    };
    const pull = new PullEngine({ db, send, team: new TeamWatch(db, send) });
    const listed = await pull.pullAccountList();
    expect(switched).toBe(true);
    expect(listed.records).toBeGreaterThan(0);
    expect(await accountsHere()).toEqual(before);
    expect(await db.meta.get('pull.accounts')).toEqual(state);
    // Back on the store's team, the next pull finds this team's accounts only.
    await switchElsewhere(SANDBOX_TEAM);
    await pull.pullAccountList();
    const teams = (await db.accounts.toArray()).map((r) => serverAccount(r.serverId)?.teamId);
    expect(new Set(teams)).toEqual(new Set([SANDBOX_TEAM]));
  });

  it('an account’s 404 and the accounts missing from the full list remove and mark nothing', async () => {
    const account = await storedAccount();
    await createRecord(db, 'sectionItems', {
      accountId: account.id,
      section: 'assets',
      fields: { name: 'Kayak', type: 'vehicle', owner: 'client', current_value: 700 },
    });
    const before = await accountsHere();
    const moves: (number | null)[] = [];
    // The switch happens between the pull's first request and its answer.
    let switched = false;
    const send: Send = async (req: ApiRequest) => {
      if (!switched && req.method === 'GET' && req.path === `/accounts/${account.serverId}`) {
        switched = true;
        await switchElsewhere(HARBOR);
      }
      return advisor.send(req);
    };
    const team = new TeamWatch(db, send, (moved) => moves.push(moved));
    const pull = new PullEngine({ db, send, team });

    const opened = await pull.pullAccount(account.id, { priority: 'interactive' });
    expect(switched).toBe(true);
    expect(moves).toEqual([HARBOR]);
    expect(opened.removed + opened.flagged).toBe(0);
    expect(opened.failures.map((f) => f.status)).toContain(404);
    // A full list under the other team lacks every account of this one: still nothing goes.
    const swept = await pull.pullAccountList({ full: true });
    expect(swept.removed + swept.flagged).toBe(0);
    // The list it read was Harbor's: none of its accounts stays in this team's store.
    expect(swept.records).toBeGreaterThan(0);
    expect(await accountsHere()).toEqual(before);
    expect((await db.outbox.toArray()).map((op) => [op.kind, op.state])).toEqual([['create', 'queued']]);

    // Back on the store's team, the same pulls find the account where it was.
    await switchElsewhere(SANDBOX_TEAM);
    const again = await pull.pullAccount(account.id, { priority: 'interactive' });
    expect(again.failures).toEqual([]);
    // The move is forgotten at the next confirmation (the coordinator asks before its next pulls).
    expect(await team.confirm()).toEqual({ kind: 'same' });
    expect(moves).toEqual([HARBOR, null]);
    expect(await db.accounts.get(account.id)).toMatchObject({ serverId: account.serverId });
  });
});

describe('read-only lists pulled while another device switches the team', () => {
  /** What the store holds of the team's read-only records, to compare before and after. */
  async function readOnlyHere() {
    return {
      engagements: await db.engagements.orderBy('id').toArray(),
      forms: await db.forms.orderBy('id').toArray(),
      reports: await db.reports.orderBy('id').toArray(),
      feed: await db.userActivity.orderBy('id').toArray(),
      stats: (await db.meta.get(STATS_KEY))?.value,
    };
  }

  /** The last year, as `YYYY-MM-DD` (the longest range the statistics take). */
  const lastYear = () => {
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    return { start: day(Date.now() - 365 * 86_400_000), end: day(Date.now()) };
  };

  it('write none of the other team’s rows and sweep none of this team’s; each says the team moved', async () => {
    const pull = new PullEngine({ db, send: advisor.send });
    // A form sent to one of this team's accounts, so that the team has forms.
    const account = await storedAccount();
    const templates = await advisor.send({ api: 'v0', method: 'GET', path: '/user/templates' });
    const [template] = (templates.ok ? templates.data : []) as { key: string }[];
    const sent = await advisor.send({
      api: 'v0',
      method: 'POST',
      path: `/accounts/${account.serverId}/forms`,
      body: { template: template!.key },
    });
    expect(sent.ok).toBe(true);
    // This team's records, as pulled before.
    await pull.pullEngagements();
    await pull.pullForms();
    await pull.pullReports();
    await pull.pullUserActivity({ full: true });
    await pull.pullStats(lastYear());
    const before = await readOnlyHere();
    expect(before.engagements.length * before.forms.length * before.reports.length).toBeGreaterThan(0);
    expect(before.feed.length).toBeGreaterThan(0);
    const withEngagements = await db.accounts
      .where('serverId')
      .equals(before.engagements[0]!.accountServerId)
      .first();

    // Another device switches the team between each pull's start and its list's answer.
    const lists = ['/engagements', '/user/forms', '/user/reports', '/user/activities', '/user/stats'];
    let switches = 0;
    const send: Send = async (req: ApiRequest) => {
      if (req.method === 'GET' && lists.includes(req.path)) {
        switches++;
        await switchElsewhere(HARBOR);
      }
      return advisor.send(req);
    };
    const moved = new PullEngine({ db, send, team: new TeamWatch(db, send) });
    const reports: PullReport[] = [
      // A sweep: the one pull of the team's list that could remove engagements.
      await moved.pullEngagements({ full: true }),
      // An account's list under the other team is empty: it must not sweep the account's engagements.
      await moved.pullEngagements({ accountId: withEngagements!.id }),
      await moved.pullForms(),
      await moved.pullReports(),
      await moved.pullUserActivity({ full: true }),
      await moved.pullStats(lastYear()),
    ];
    expect(switches).toBe(6);
    for (const report of reports)
      expect(report).toMatchObject({ teamMoved: HARBOR, written: 0, removed: 0, failures: [] });
    // The other team's lists did come (they were read), and none of it stayed.
    expect(reports[0]!.records + reports[2]!.records + reports[4]!.records).toBeGreaterThan(0);
    expect(await readOnlyHere()).toEqual(before);

    // Back on the store's team: the same pulls keep this team's records and say nothing moved.
    await switchElsewhere(SANDBOX_TEAM);
    const back = new PullEngine({ db, send: advisor.send });
    for (const report of [await back.pullEngagements(), await back.pullForms(), await back.pullReports()])
      expect(report.teamMoved).toBeUndefined();
    const after = await readOnlyHere();
    expect(after.engagements.map((e) => e.id)).toEqual(before.engagements.map((e) => e.id));
    expect(after.forms.map((f) => f.id)).toEqual(before.forms.map((f) => f.id));
    expect(after.reports.map((r) => r.id)).toEqual(before.reports.map((r) => r.id));
  });
});

describe('the configuration pulled while another device switches the team', () => {
  /** The user, its teams and pipelines and the templates' structures as stored here. */
  async function configHere() {
    return {
      config: await db.table('config').toArray(),
      user: await db.table('user').toArray(),
      teams: await db.table('teams').toArray(),
      pipelines: await db.table('pipelines').toArray(),
    };
  }

  it('writes nothing of the other team’s user or templates and says the team moved, with no extra request', async () => {
    await new PullEngine({ db, send: advisor.send }).pullConfig({ force: true });
    const before = await configHere();
    expect(before.user.length).toBeGreaterThan(0);

    let requests = 0;
    const send: Send = async (req: ApiRequest) => {
      requests++;
      // The switch lands just before the user is read.
      if (req.api === 'v2' && req.path === '/user') await switchElsewhere(HARBOR);
      return advisor.send(req);
    };
    const report = await new PullEngine({ db, send, team: new TeamWatch(db, send) }).pullConfig({
      force: true,
    });
    expect(report).toMatchObject({ teamMoved: HARBOR, written: 0, failures: [] });
    expect(await configHere()).toEqual(before);
    // The team was read from the user the pull fetches anyway: icons, activities, dataset, both
    // users, the form templates and each template's structure, no question asked besides.
    const harborTemplates = await advisor.send({ api: 'v2', method: 'GET', path: '/user' });
    expect(harborTemplates.ok).toBe(true);
    const templates = (harborTemplates.ok ? (harborTemplates.data as { templates: unknown[] }).templates : [])
      .length;
    expect(requests).toBeLessThanOrEqual(6 + templates);

    // Back on the store's team, the configuration is written again.
    await switchElsewhere(SANDBOX_TEAM);
    const back = await new PullEngine({ db, send: advisor.send }).pullConfig({ force: true });
    expect(back.teamMoved).toBeUndefined();
    expect(back.failures).toEqual([]);
  });
});
