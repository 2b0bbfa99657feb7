// @vitest-environment happy-dom
// The overview computes net worth and monthly cash flow from the account's items in the local
// store (shared/finance.ts), follows new items at once, and shows quality, profile and activity.

import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { createRecord } from '../../../renderer/src/data/changes/index.ts';
import { CONFIG_KEYS, putConfigEntry } from '../../../renderer/src/data/queries/index.ts';
import { PullEngine } from '../../../renderer/src/sync/pull/index.ts';
import { PushEngine } from '../../../renderer/src/sync/push/index.ts';
import { sandbox } from '../../support/sandbox.ts';
import {
  byTestId,
  click,
  household,
  inputOf,
  mountWorkspace,
  one,
  openDb,
  settle,
  syncedItem,
  syncedSingle,
  typeText,
  type Mounted,
} from './harness.ts';
import { sandboxSend } from './sandbox-send.ts';

let mounted: Mounted | null = null;
unmountAfterEach();

const usd = (value: number, frequency = 'one-time') => ({ value, frequency });
const part = (name: string) => one('net-worth').querySelector(`[data-part="${name}"] .amount`)?.textContent;
const flow = (name: string) => one('cash-flow').querySelector(`[data-flow="${name}"] .amount`)?.textContent;

describe('the overview', () => {
  it('shows net worth and monthly cash flow computed from the items, and follows new ones', async () => {
    const db = openDb();
    const account = await household(db);
    await syncedItem(db, account.id, 'assets', 'a|1', { name: 'Home', current_value: usd(450_000) });
    await syncedItem(db, account.id, 'cash', 'c|1', { name: 'Checking', current_value: usd(12_500) });
    await syncedItem(db, account.id, 'plans', 'p|1', { name: '401(k)', current_value: 210_000 });
    await syncedItem(db, account.id, 'insurance', 'i|1', {
      name: 'Whole life',
      cash_value: usd(9_000),
      coverage_value: usd(1_000_000),
    });
    await syncedItem(db, account.id, 'liabilities', 'l|1', { name: 'Mortgage', current_value: usd(300_000) });
    await syncedItem(db, account.id, 'expenses-variable', 'v|1', {
      type: 'groceries',
      value: usd(900, 'monthly'),
    });
    await syncedSingle(db, account.id, 'income:client', { employment: usd(120_000, 'yearly') });
    await syncedSingle(db, account.id, 'income:coclient', {
      employment: usd(3_000, 'monthly'),
      other: usd(5_000),
    });
    await syncedSingle(db, account.id, 'expenses-fixed', {
      mortgage: usd(2_400, 'monthly'),
      auto_insurance: usd(1_200, 'yearly'),
    });
    await syncedSingle(db, account.id, 'expenses-tax', { federal_income: usd(18_000, 'yearly') });
    mounted = await mountWorkspace(db, account.id);

    // 450,000 + 12,500 + 210,000 + 9,000 − 300,000
    expect(one('net-worth-total').textContent).toBe('$381,500');
    expect(part('assets')).toBe('$450,000');
    expect(part('insurance')).toBe('$9,000');
    expect(part('liabilities')).toBe('−$300,000');
    // Income 10,000 + 3,000; fixed 2,400 + 100; tax 1,500; variable 900 → 8,100 a month.
    expect(flow('income')).toBe('$13,000');
    expect(flow('fixed')).toBe('−$2,500');
    expect(flow('tax')).toBe('−$1,500');
    expect(flow('variable')).toBe('−$900');
    expect(one('cash-flow-net').textContent).toBe('$8,100');
    // A one-time amount is listed apart, not hidden and not counted.
    expect(one('one-time').textContent).toContain('Other (income of Bob Tester)');
    expect(one('one-time').textContent).toContain('$5,000');

    // An item typed now counts at once.
    await createRecord(db, 'sectionItems', {
      accountId: account.id,
      section: 'taxable',
      fields: { name: 'Brokerage', owner: { type: 'client', id: null }, current_value: usd(40_000) },
    });
    await vi.waitFor(() => expect(one('net-worth-total').textContent).toBe('$421,500'));
  });

  // Issue 16 point 5: a frequency the platform allows that the app does not know is kept; the
  // overview must then neither count it as a month nor hide it.
  it('leaves amounts at a frequency it cannot convert out of the monthly figures and names them', async () => {
    const db = openDb();
    const account = await household(db);
    await syncedSingle(db, account.id, 'income:client', {
      employment: usd(1_000, 'monthly'),
      dividends: usd(3_000, 'quarterly'),
    });
    await syncedItem(db, account.id, 'expenses-variable', 'v|1', {
      type: 'groceries',
      value: usd(400, 'monthly'),
    });
    await syncedItem(db, account.id, 'expenses-variable', 'v|2', {
      type: 'domestic-help',
      value: usd(80, 'biweekly'),
    });
    mounted = await mountWorkspace(db, account.id);

    // Income: the salary only; variable expenses: the groceries only; 1,000 − 400 = 600.
    expect(flow('income')).toBe('$1,000');
    expect(flow('variable')).toBe('−$400');
    expect(one('cash-flow-net').textContent).toBe('$600');
    const uncounted = one('uncounted');
    expect(uncounted.querySelector('.label')?.textContent).toBe(
      'Not in the monthly figures (the app cannot convert their frequency):',
    );
    const lines = [...uncounted.querySelectorAll('.line')].map((l) =>
      [...l.children].map((c) => c.textContent?.trim()),
    );
    expect(lines).toEqual([
      ['Dividends (income of Ann Tester)', '$3,000 quarterly'],
      ['Domestic help (variable expenses)', '$80 biweekly'],
    ]);
    expect(byTestId('one-time')).toHaveLength(0);
  });

  it('shows the quality rules, the profile values by member and the activity with its icons', async () => {
    const db = openDb();
    const account = await household(db);
    await db.accounts.update(account.id, {
      meta: {
        ...account.meta,
        clientId: 31,
        coclientId: 32,
        quality: {
          score: 60,
          rules: [
            { message: 'Client has an e-mail address', valid: true },
            { message: 'Client has a date of birth', valid: false },
          ],
        },
      },
    });
    await putConfigEntry(db, CONFIG_KEYS.dataset, {
      pulledAt: 1,
      data: {
        panels: [],
        groups: [{ id: 'g1', title: 'Goals' }],
        elements: [{ id: 'e1', group_id: 'g1', title: 'Retirement age' }],
      },
    });
    await db.profileValues.put({
      id: 'pv1',
      accountServerId: 7,
      memberId: 32,
      datasetId: 'e1',
      server: { id: 'pv1', dataset_id: 'e1', member_id: 32, row_id: 'r1', type: 'NUMBER', value: '62' },
      pulledAt: 1,
    });
    await db.accountActivity.put({
      id: 5,
      accountServerId: 7,
      type: 'account.created',
      createdAt: '2026-03-14 09:30:00',
      server: {
        id: 5,
        type: 'account.created',
        icon: 'i_user_plus',
        description: 'Account created',
        options: { author: 'Alex Morgan' },
        created_at: '2026-03-14 09:30:00',
      },
      pulledAt: 1,
    });
    mounted = await mountWorkspace(db, account.id);

    expect(one('quality-score').textContent).toBe('60');
    const rules = one('quality').querySelectorAll('li');
    expect(
      [...rules].map((r) => [r.querySelector('.rule-text')?.textContent?.trim(), r.dataset.rule]),
    ).toEqual([
      ['Client has an e-mail address', 'met'],
      ['Client has a date of birth', 'missing'],
    ]);
    // A rule not met says so in words and with its icon, not by colour alone.
    expect(rules[1]?.querySelector('.rule-state')?.textContent).toBe('Missing');
    expect(rules[1]?.querySelector('i')?.className).toContain('pi-exclamation-triangle');
    expect(rules[0]?.querySelector('.rule-state')).toBeNull();
    expect(one('profile').textContent).toContain('Bob Tester');
    expect(one('profile').textContent).toContain('Retirement age');
    expect(one('profile').textContent).toContain('62');
    // The activity reads its own page of the store (activity/AccountActivity.vue), a moment later.
    await vi.waitFor(() => expect(one('activity').querySelector('li')).not.toBeNull());
    const item = one('activity').querySelector('li')!;
    expect(item.textContent).toContain('Account created');
    expect(item.textContent).toContain('Alex Morgan');
    expect(item.querySelector('i')?.className).toBe('pi pi-user-plus');
  });

  it('says a score estimated here is one, with its rules, until the platform’s answer replaces it', async () => {
    const db = openDb();
    const account = await household(db);
    // Details typed offline: the change module estimates the score in the same transaction.
    await createRecord(db, 'singles', {
      accountId: account.id,
      key: 'details:client',
      fields: { birth_date: '1975-09-30' },
    });
    mounted = await mountWorkspace(db, account.id);

    // E-mails of both (10 + 8) and the client's date of birth (8) of 69.
    expect(one('quality-score').textContent).toBe('38');
    expect(one('quality-estimated').textContent?.trim()).toBe(
      'Estimated on this computer until the platform answers.',
    );
    expect(one('quality').querySelector('[role="meter"]')?.getAttribute('aria-label')).toBe(
      'Quality score, estimated on this computer until the platform answers',
    );
    const rules = [...one('quality').querySelectorAll('li')].map((r) => [
      r.querySelector('.rule-text')?.textContent?.trim(),
      r.dataset.rule,
    ]);
    expect(rules).toHaveLength(10);
    expect(rules[2]).toEqual(['Client date of birth is on file', 'met']);
    expect(rules[9]).toEqual(['Co-client date of birth is on file', 'missing']);

    const platform = { score: 61, rules: [{ message: 'Client has a date of birth', valid: true }] };
    const row = await db.accounts.get(account.id);
    await db.accounts.update(account.id, { meta: { ...row!.meta, quality: platform } });
    await vi.waitFor(() => expect(one('quality-score').textContent).toBe('61'));
    expect(document.querySelector('[data-testid="quality-estimated"]')).toBeNull();
    expect(one('quality').querySelector('[role="meter"]')?.getAttribute('aria-label')).toBe('Quality score');
  });
});

describe('the overview’s members', () => {
  it('show the e-mail and phone changed on the Members tab while that change waits to be sent', async () => {
    const db = openDb();
    const account = await household(db);
    await syncedSingle(db, account.id, 'details:coclient', {
      first_name: 'Bob',
      last_name: 'Tester',
      email: 'bob@example.com',
      phone: null,
    });
    // As the Members tab saves: only the changed fields, queued for the platform.
    await createRecord(db, 'singles', {
      accountId: account.id,
      key: 'details:coclient',
      fields: { email: 'robert@example.com', phone: '+1 5125550199' },
    });
    mounted = await mountWorkspace(db, account.id);

    const coclient = one('overview-members').querySelector('[data-member="coclient"]')!;
    expect(coclient.textContent).toContain('robert@example.com');
    // In the one written form of a phone (issue 23, point 18), not as typed.
    expect(coclient.textContent).toContain('+1 512 555 0199');
    expect(coclient.textContent).not.toContain('bob@example.com');
    // The client, changed nowhere, reads as the account has it.
    const client = one('overview-members').querySelector('[data-member="client"]')!;
    expect(client.textContent).toContain('ann@example.com');
  });
});

describe('the overview’s members, after a change on the Members tab is sent (sandbox platform)', () => {
  const platform = sandbox({ accounts: 20 });

  // A review found the overview back on the account row's older copy once the change was sent,
  // until the next pull brought the account again.
  it('show the member’s new e-mail while it waits and once the platform has it', async () => {
    const send = sandboxSend(platform, 'advisor@sandbox.test');
    const db = openDb();
    await db.open();
    const pull = new PullEngine({ db, send });
    await pull.pullAccountList();
    const state = platform.control.dump();
    const team = state.users.find((u) => u.email === 'advisor@sandbox.test')!.currentTeamId;
    const record = state.accounts.find((a) => a.teamId === team && a.coclient?.email)!;
    const row = (await db.accounts.where('serverId').equals(record.id).first())!;
    await pull.pullAccount(row.id, { priority: 'interactive' });
    const before = record.coclient!.email;
    const after = 'new.address@example.com';

    mounted = await mountWorkspace(db, row.id, { tab: 'members', member: 'coclient' });
    const page = one('single-details:coclient');
    await typeText(inputOf(page, 'email'), after);
    await click(one('single-save'));
    await mounted.router.replace({ query: { tab: 'overview' } });
    await settle();
    const coclient = () => one('overview-members').querySelector('[data-member="coclient"]')!.textContent;
    expect(coclient()).toContain(after);

    const report = await new PushEngine({ db, send }).run();
    expect(report).toMatchObject({ synced: 1, remaining: 0, rejected: 0 });
    const onPlatform = platform.control.dump().accounts.find((a) => a.id === record.id);
    expect(onPlatform?.coclient?.email).toBe(after);
    // The account row still holds the copy of its last pull: the overview does not go back to it.
    expect((await db.accounts.get(row.id))?.fields['coclient.email']).toBe(before);
    await settle();
    expect(coclient()).toContain(after);
    expect(coclient()).not.toContain(before);

    // The next pull brings the account with the new address: still the same, from either record.
    await pull.pullAccount(row.id, { priority: 'interactive' });
    await settle();
    expect((await db.accounts.get(row.id))?.fields['coclient.email']).toBe(after);
    expect(coclient()).toContain(after);
  });
});

describe('the overview’s profile and quality', () => {
  it('name what each reads: a photo ID from a form is no driver’s license, which the quality rule checks', async () => {
    const db = openDb();
    const account = await household(db);
    await db.accounts.update(account.id, { meta: { ...account.meta, clientId: 31 } });
    await putConfigEntry(db, CONFIG_KEYS.dataset, {
      pulledAt: 1,
      data: {
        panels: [],
        groups: [{ id: 'g1', title: 'Identification' }],
        elements: [{ id: 'e1', group_id: 'g1', title: 'Photo ID' }],
      },
    });
    await db.profileValues.put({
      id: 'pv1',
      accountServerId: 7,
      memberId: 31,
      datasetId: 'e1',
      server: {
        id: 'pv1',
        dataset_id: 'e1',
        member_id: 31,
        row_id: 'r1',
        type: 'FILE',
        value: 'photo-id.pdf',
      },
      pulledAt: 1,
    });
    // The client's driver's license (0.0.1: Driver's License, number and expire_date) typed here.
    await createRecord(db, 'singles', {
      accountId: account.id,
      key: 'details:client',
      fields: { 'drivers_license.number': 'D1234567' },
    });
    mounted = await mountWorkspace(db, account.id);

    expect(one('profile').textContent).toContain('Photo ID');
    expect(one('profile').textContent).toContain('photo-id.pdf');
    const rule = () =>
      [...one('quality').querySelectorAll<HTMLElement>('li')].find((r) =>
        r.textContent?.includes('driver’s license'),
      );
    // Without its expiry date the license is not complete: the rule says which document it misses.
    expect(rule()?.querySelector('.rule-text')?.textContent?.trim()).toBe(
      'Client driver’s license number and expiry date are on file',
    );
    expect(rule()?.dataset.rule).toBe('missing');
    expect(one('quality').textContent).not.toContain('identity document');

    await createRecord(db, 'singles', {
      accountId: account.id,
      key: 'details:client',
      fields: { 'drivers_license.expire_date': '2031-05-01' },
    });
    await vi.waitFor(() => expect(rule()?.dataset.rule).toBe('met'));
  });
});
