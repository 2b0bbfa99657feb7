// @vitest-environment happy-dom
// Nothing this computer does not hold is shown as a value (issue 13, point 3). An account whose
// data never arrived says "Not downloaded yet" wherever its figures and sections would be — never
// $0, never "No … yet", never "Synced" — with "Get it now" online and "available when online"
// offline. An account one of whose sections failed to arrive (a fault queued on the sandbox
// platform for that one request) shows what arrived, names what did not, and "Get it now" pulls
// the rest from the platform.

import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import type { Bridge } from '@shared/bridge.ts';
import type { AuthStatus } from '@shared/auth.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { useConnectivityStore } from '../../../renderer/src/common/connectivity.ts';
import { useSessionStore } from '../../../renderer/src/common/session.ts';
import { useSyncStore } from '../../../renderer/src/common/sync.ts';
import { createRecord } from '../../../renderer/src/data/changes/index.ts';
import { accountPartKeys } from '../../../renderer/src/data/coverage.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { readStoreIdentity } from '../../../renderer/src/data/identity/index.ts';
import type { AccountRow } from '../../../renderer/src/data/model.ts';
import { PullEngine } from '../../../renderer/src/sync/pull/index.ts';
import { WHOLE_DOLLARS, netWorthOf, sectionSum, wholeDollars } from '../../platform/figures.ts';
import type { AccountRecord } from '../../platform/model.ts';
import { sandbox } from '../../support/sandbox.ts';
import { clientFields } from '../../support/store.ts';
import {
  byTestId,
  click,
  mountWorkspace,
  one,
  openDb,
  settle,
  syncedAccount,
  type Mounted,
} from './harness.ts';
import { sandboxSend } from './sandbox-send.ts';

let mounted: Mounted | null = null;
unmountAfterEach();
afterEach(async () => {
  await useSyncStore().stop();
});

/** The sandbox's seeded advisor, with every permission (test/platform/seed.ts). */
const ADVISOR = 'advisor@sandbox.test';

const pageText = () => document.body.textContent ?? '';
const header = () => one('account-sync');
/** A household on the platform (client and co-client) of which only its row in the list is here. */
async function neverPulled(db: AdvisorDb): Promise<AccountRow> {
  const account = await syncedAccount(db, 7, {
    ...clientFields('Ann'),
    'coclient.first_name': 'Bob',
    'coclient.last_name': 'Tester',
    'coclient.email': 'bob@example.com',
  });
  await db.accounts.update(account.id, { meta: { ...account.meta, clientId: 70, coclientId: 71 } });
  return (await db.accounts.get(account.id))!;
}

describe('an account never downloaded', () => {
  it('the overview says "Not downloaded yet" for every figure and card, never $0 or "Synced"', async () => {
    const db = openDb();
    const account = await neverPulled(db);
    mounted = await mountWorkspace(db, account.id);
    await settle();

    expect(header().getAttribute('data-account-badge')).toBe('absent');
    expect(header().textContent).toContain('Not downloaded yet');
    expect(header().textContent).not.toContain('Synced');
    expect(one('synced-note').textContent).toContain('Not downloaded yet');

    expect(one('net-worth-total').textContent?.trim()).toBe('Not downloaded yet');
    expect(one('cash-flow-net').textContent?.trim()).toBe('Not downloaded yet');
    expect(one('profile').textContent).toContain('Not downloaded yet');
    expect(one('activity').textContent).toContain('Not downloaded yet');
    // No figure at all, and none of the words for "there is none".
    expect(pageText()).not.toMatch(/\$\s?0\b/);
    expect(pageText()).not.toMatch(/\$[\d,]+/);
    for (const empty of ['Add assets', 'Enter income', 'No profile values', 'Nothing recorded'])
      expect(pageText()).not.toContain(empty);
    // Online: each says where it is and offers to get it now.
    const notes = byTestId('not-downloaded');
    expect(notes.length).toBe(4);
    for (const note of notes) {
      expect(note.getAttribute('data-state')).toBe('online');
      expect(note.querySelector('[data-testid="get-now"]')?.textContent).toContain('Get it now');
    }
  });

  it('offline, each says it is available when online and offers nothing to press', async () => {
    const db = openDb();
    const account = await neverPulled(db);
    mounted = await mountWorkspace(db, account.id);
    useConnectivityStore().networkUp = false;
    await settle();

    const notes = byTestId('not-downloaded');
    expect(notes.length).toBe(4);
    for (const note of notes) {
      expect(note.getAttribute('data-state')).toBe('offline');
      expect(note.textContent).toContain('available when online');
    }
    // The cards without a figure say it themselves; each figure says it once, its notice when it comes.
    expect(one('profile').textContent).toContain('Not downloaded yet');
    expect(one('activity').textContent).toContain('Not downloaded yet');
    for (const card of ['net-worth', 'cash-flow']) {
      expect(one(card).textContent?.split('Not downloaded yet')).toHaveLength(2);
      expect(one(card).querySelector('[data-testid="not-downloaded"]')?.textContent).toContain(
        'with the next sync',
      );
    }
    expect(byTestId('get-now')).toEqual([]);
    expect(pageText()).not.toMatch(/\$[\d,]+/);
  });

  // A review found "Not downloaded yet" twice on each figure: as its headline and in the notice.
  it('each figure says "Not downloaded yet" once, and its notice how to get the data', async () => {
    const db = openDb();
    const account = await neverPulled(db);
    mounted = await mountWorkspace(db, account.id);
    await settle();

    const worth = one('net-worth');
    const flow = one('cash-flow');
    expect(one('net-worth-total').textContent?.trim()).toBe('Not downloaded yet');
    expect(one('cash-flow-net').textContent?.trim()).toBe('Not downloaded yet');
    for (const card of [worth, flow]) {
      expect(card.textContent?.split('Not downloaded yet')).toHaveLength(2);
      const note = card.querySelector<HTMLElement>('[data-testid="not-downloaded"]')!;
      expect(note.textContent).toContain('on the platform');
      expect(note.textContent).toContain('Get it now');
      expect(note.textContent).toContain('prepare the household for a meeting');
    }
    expect(worth.textContent).toContain('Assets, accounts and liabilities');
    expect(flow.textContent).toContain('Income and expenses');
    expect(pageText()).not.toMatch(/\$[\d,]+/);
  });

  it('the financial sections are marked, a section shows no "none yet" and no total', async () => {
    const db = openDb();
    const account = await neverPulled(db);
    mounted = await mountWorkspace(db, account.id, { tab: 'financials', section: 'assets' });
    await settle();

    const links = [...document.querySelectorAll('[data-section]')];
    expect(links.length).toBeGreaterThan(10);
    for (const link of links) {
      expect(link.querySelector('[data-testid="section-missing"]')?.textContent).toContain(
        'Not downloaded yet',
      );
      // Neither a count of 0 nor "Empty".
      expect(link.querySelector('[data-testid="section-state"]')).toBeNull();
    }
    expect(one('section-empty').textContent).not.toContain('No assets');
    expect(one('not-downloaded').textContent).toContain('Not downloaded yet');
    expect(byTestId('section-total')).toEqual([]);
    expect(one('section-count').textContent?.trim()).toBe('');
  });

  it('an asset added here shows with the rest still "not downloaded yet"', async () => {
    const db = openDb();
    const account = await neverPulled(db);
    await createRecord(db, 'sectionItems', {
      accountId: account.id,
      section: 'assets',
      fields: {
        type: 'secondary-residence',
        name: 'Lake cabin',
        owner: { type: 'client', id: null },
        current_value: { value: 420_000, frequency: 'one-time' },
      },
    });
    mounted = await mountWorkspace(db, account.id, { tab: 'financials', section: 'assets' });
    await settle();

    expect(one('section-table').textContent).toContain('Lake cabin');
    expect(one('section-count').textContent).toContain('1 asset added here');
    expect(one('not-downloaded').textContent).toContain('Not downloaded yet');
    // What was added here is no total of the household's assets.
    expect(byTestId('section-total')).toEqual([]);
    const link = document.querySelector('[data-section="assets"]')!;
    expect(link.querySelector('[data-testid="section-missing"]')?.textContent).toContain('1');

    // Nor of its net worth: a pending asset does not make the section downloaded.
    await mounted.router.replace({ query: { tab: 'overview' } });
    await settle();
    expect(one('net-worth-total').textContent?.trim()).toBe('Not downloaded yet');
    expect(header().getAttribute('data-account-badge')).toBe('pending');
    expect(header().querySelector('[data-testid="sync-badge"]')?.getAttribute('title')).toContain(
      'Not downloaded yet',
    );
  });

  it('a single-record section and the member details say so above their form', async () => {
    const db = openDb();
    const account = await neverPulled(db);
    mounted = await mountWorkspace(db, account.id, { tab: 'financials', section: 'expenses-fixed' });
    await settle();
    expect(one('single-expenses-fixed').querySelector('[data-testid="not-downloaded"]')).not.toBeNull();
    expect(one('missing-note').textContent).toContain('only what this computer has');

    await mounted.router.replace({ query: { tab: 'members', member: 'coclient' } });
    await settle();
    expect(one('single-details:coclient').querySelector('[data-testid="not-downloaded"]')).not.toBeNull();
    expect(one('member-security').textContent).toContain('Not downloaded yet');
    // Nor "No photo": the photo is part of the details that never arrived.
    expect(one('member-photo').textContent).toContain('Not downloaded yet');
    expect(one('member-photo').textContent).not.toContain('No photo');
    expect(byTestId('security-status')).toEqual([]);
  });
});

// ---- against the sandbox platform ------------------------------------------------------------

describe('an account one of whose sections failed to arrive (sandbox platform)', () => {
  const platform = sandbox({ accounts: 40 });
  let send: ReturnType<typeof sandboxSend>;

  beforeAll(() => {
    send = sandboxSend(platform, ADVISOR);
  });

  it('shows what arrived, names what did not, and "Get it now" brings the rest', async () => {
    const db = openDb();
    await db.open();
    const engine = new PullEngine({ db, send });
    await engine.pullAccountList();
    const store = platform.control.store();
    const state = platform.control.dump();
    const team = state.users.find((u) => u.email === ADVISOR)!.currentTeamId;
    const household: AccountRecord | undefined = state.accounts.find((a) => {
      if (a.teamId !== team || !a.coclient) return false;
      const { sections } = store.sections(a);
      return (sections.cash?.length ?? 0) > 0 && (sections.assets?.length ?? 0) > 0;
    });
    if (!household) throw new Error('The seed has no household with cash and assets.');
    const { sections } = store.sections(household);
    const row = (await db.accounts.where('serverId').equals(household.id).first())!;

    // The platform fails the one request for the household's cash accounts.
    platform.control.setFaults({
      queue: [{ kind: 'server-error', methods: ['GET'], path: `/accounts/${household.id}/cash$` }],
    });
    const report = await engine.pullAccount(row.id, { priority: 'interactive' });
    expect(report.failures.map((f) => f.path)).toEqual([`/accounts/${household.id}/cash`]);
    const pulled = (await db.accounts.get(row.id))!;
    expect(pulled.pulledAt).toBeNull();
    // Every part of a household with a co-client arrived, but its cash.
    expect(Object.keys(pulled.parts ?? {}).sort()).toEqual(
      accountPartKeys(['client', 'coclient'])
        .filter((key) => key !== 'cash')
        .sort(),
    );

    // The app's sync, over the same platform: "Get it now" pulls through it.
    useBridge({ api: { request: send } } as unknown as Bridge);
    mounted = await mountWorkspace(db, row.id);
    useSessionStore().status = { identity: await readStoreIdentity(db) } as unknown as AuthStatus;
    await settle();

    expect(header().getAttribute('data-account-badge')).toBe('partial');
    expect(header().textContent).toContain('Partly downloaded');
    expect(header().querySelector('[data-testid="sync-badge"]')?.getAttribute('title')).toContain('Cash');
    // Net worth: no total that would leave the cash out; what arrived is shown, the cash is named.
    const worth = one('net-worth');
    expect(one('net-worth-total').textContent?.trim()).toBe('Incomplete');
    expect(worth.querySelector('[data-part="cash"] .amount')?.textContent?.trim()).toBe('not downloaded');
    expect(worth.querySelector('[data-part="assets"] .amount')?.textContent?.trim()).toBe(
      wholeDollars(sectionSum(sections, 'assets')),
    );
    expect(worth.querySelector('[data-testid="not-downloaded"]')?.textContent).toContain('Cash');
    // The cash flow does not depend on the cash accounts: every part of it is here.
    expect(one('cash-flow-net').textContent?.trim()).toMatch(WHOLE_DOLLARS);

    // While the pull runs (the cash answer held back a moment), the figure is on its way, not $0.
    platform.control.setFaults({
      latencyMs: 1500,
      queue: [{ kind: 'latency', methods: ['GET'], path: `/accounts/${household.id}/cash$` }],
    });
    await click(worth.querySelector('[data-testid="get-now"]')!);
    // The pull starts after the click's own reads: under load, a moment after the click returns.
    await vi.waitFor(() => expect(one('net-worth-total').textContent?.trim()).toBe('Downloading…'));
    expect(one('net-worth').querySelector('[data-testid="not-downloaded"]')?.getAttribute('data-state')).toBe(
      'downloading',
    );
    expect(one('net-worth').textContent).toContain('Downloading from the platform');
    await vi.waitFor(() => expect(one('net-worth-total').textContent?.trim()).toMatch(WHOLE_DOLLARS), {
      timeout: 15_000,
    });
    expect(one('net-worth-total').textContent?.trim()).toBe(wholeDollars(netWorthOf(sections)));
    // The figures show once their sections are here, before the rest of the household (issue 23,
    // point 8): the badge says synced once the whole pull has ended.
    await vi.waitFor(() => expect(header().getAttribute('data-account-badge')).toBe('synced'), {
      timeout: 15_000,
    });
    expect(byTestId('not-downloaded')).toEqual([]);
    // Recorded as pulled whole once the pull has ended (the badge follows the parts as they land).
    await vi.waitFor(async () => expect((await db.accounts.get(row.id))?.pulledAt).not.toBeNull());
  });
});
