// @vitest-environment happy-dom
// The workspace's forms in the advisor's words: the platform's messages with the field's label
// and what to do; countries and US states chosen by name; dates as the user writes them; the
// co-client's record named after the co-client; the PIN hidden until asked; single sections with
// their state; a goal's amount and date each labelled; a conflict titled without taking sides;
// missing quality rules said in words; a full disk said plainly with the typed values kept; and a
// document created with its file in one transaction.

import Dexie from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import type { Bridge } from '@shared/bridge.ts';
import { sectionForm } from '@shared/section-forms/build.ts';
import { MEMBER_FIELDS } from '@shared/section-forms/member-form.ts';
import { readableMessage } from '@shared/section-forms/server-messages.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { NUMERIC_DATE, axisLabel, formatDate } from '../../../renderer/src/household/values.ts';
import { recordOps, refreshRow, updateRecord } from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { recordLabel } from '../../../renderer/src/data/labels.ts';
import {
  choose,
  click,
  dialog,
  field,
  household,
  messagesOf,
  type Mounted,
  mountWorkspace,
  one,
  openDb,
  openNewItem,
  outbox,
  settle,
  syncedItem,
  syncedSingle,
  typeNumber,
  typeText,
} from './harness.ts';

let mounted: Mounted | null = null;
unmountAfterEach();

const usd = (value: number, frequency = 'one-time') => ({ value, frequency });
const numericDate = (y: number, m: number, d: number) =>
  new Intl.DateTimeFormat(navigator.language, NUMERIC_DATE).format(new Date(y, m - 1, d));

/** Makes every write of the outbox fail as a full disk does. */
function fillDisk(db: AdvisorDb): () => void {
  const full = () => {
    throw new Dexie.QuotaExceededError('QuotaExceededError: the quota has been exceeded.');
  };
  db.outbox.hook('creating', full);
  db.outbox.hook('updating', full);
  return () => {
    db.outbox.hook('creating').unsubscribe(full);
    db.outbox.hook('updating').unsubscribe(full);
  };
}

describe('messages in the advisor’s words', () => {
  it('names the field by its label and says what to do, keeping what the platform adds', () => {
    expect(readableMessage('citizenship.country is invalid.', MEMBER_FIELDS)).toBe(
      'Citizenship: choose a country from the list.',
    );
    // Without the form (the sync panel), the field is still found by its name.
    expect(readableMessage('citizenship.country is invalid.')).toBe(
      'Citizenship: choose a country from the list.',
    );
    const goals = sectionForm('goals')?.fields;
    expect(readableMessage('target.date is required.', goals)).toBe(
      'Target date: pick the date to reach it by.',
    );
    expect(readableMessage('current-value is required.')).toBe('Current value: required, enter an amount.');
    expect(readableMessage('drivers_license.expire_date is invalid: it must come after issue_date.')).toBe(
      'Expires: pick a date from the calendar (the platform says: it must come after issue_date).',
    );
    // What is no field message stays as the platform wrote it.
    expect(readableMessage('The platform cannot be reached.')).toBe('The platform cannot be reached.');
  });

  it('shows dates as the user writes them, and chart labels whole', () => {
    expect(formatDate('2016-05-14 00:00:00', 'en-US')).toBe('May 14, 2016');
    expect(formatDate('2016-05-14', 'de-DE')).toBe('14.05.2016');
    expect(formatDate(null)).toBe('');
    expect(axisLabel('Retirement & college')).toEqual(['Retirement &', 'college']);
    expect(axisLabel('Assets')).toBe('Assets');
  });
});

describe('member details', () => {
  it('chooses countries and US states by name and stores their codes; dates in the user’s format', async () => {
    const db = openDb();
    const account = await household(db);
    await syncedSingle(db, account.id, 'details:coclient', {
      first_name: 'Bob',
      last_name: 'Tester',
      email: 'bob@example.com',
      birth_date: '1980-03-14 00:00:00',
    });
    mounted = await mountWorkspace(db, account.id, { tab: 'members', member: 'coclient' });
    const page = one('single-details:coclient');

    const birth = field(page, 'birth_date').querySelector('input') as HTMLInputElement;
    expect(birth.value).toBe(numericDate(1980, 3, 14));
    expect(page.textContent).not.toContain('Two-letter country code');

    await choose(page, 'citizenship.country', 'Sweden');
    // Not a US address yet: the state is free text.
    expect(field(page, 'address.state').querySelector('.p-select')).toBeNull();
    await choose(page, 'address.country', 'United States');
    await choose(page, 'address.state', 'California');
    await typeText(birth, numericDate(1981, 4, 2));
    await click(one('single-save'));

    const [op] = await outbox(db);
    expect(op?.fields).toMatchObject({
      'citizenship.country': 'SE',
      'address.country': 'US',
      'address.state': 'CA',
      birth_date: '1981-04-02',
    });
  });

  it('names the co-client on a refused change, with the platform’s message in the advisor’s words', async () => {
    const db = openDb();
    const account = await household(db);
    await syncedSingle(db, account.id, 'details:coclient', {
      first_name: 'Bob',
      last_name: 'Tester',
      email: 'bob@example.com',
    });
    const id = `${account.id}:details:coclient`;
    await updateRecord(db, 'singles', id, { 'citizenship.country': 'XX' });
    const [op] = await recordOps(db, 'singles', id);
    await db.outbox.put({
      ...op!,
      state: 'rejected',
      lastError: {
        kind: 'validation',
        status: 422,
        message: 'citizenship.country is invalid.',
        fields: { 'citizenship.country': ['citizenship.country is invalid.'] },
      },
    });
    const row = (await db.singles.get(id))!;
    await db.singles.put(refreshRow('singles', row, await recordOps(db, 'singles', id)));

    // The sync panel's card names Bob, whose record it is, not the account's client Ann.
    expect(await recordLabel(db, 'singles', id)).toBe('Co-client details · Bob Tester');

    mounted = await mountWorkspace(db, account.id, { tab: 'members', member: 'coclient' });
    const page = one('single-details:coclient');
    expect(messagesOf(page, 'citizenship.country')).toBe('Citizenship: choose a country from the list.');
    // The banner keeps the name as written.
    expect(one('form-error').textContent).toContain('Bob Tester — details');
    expect(page.textContent).not.toContain('citizenship.country');
  });

  it('hides the PIN until asked, and again after leaving the tab', async () => {
    // The PIN is on no disk: Show reads it from the platform (pin-reveal.test.ts).
    useBridge({
      api: {
        request: () =>
          Promise.resolve({
            ok: true,
            status: 200,
            data: { account_id: 7, type: 'client', status: 'NEW', pin: 646199 },
          }),
      },
    } as unknown as Bridge);
    const db = openDb();
    const account = await household(db);
    await db.memberSecurity.put({
      id: '7:client',
      accountServerId: 7,
      member: 'client',
      status: 'NEW',
      server: { account_id: 7, type: 'client', status: 'NEW' },
      pulledAt: 1,
    });
    mounted = await mountWorkspace(db, account.id, { tab: 'members', member: 'client' });
    await vi.waitFor(() => expect(one('member-pin').textContent).toBe('••••••'));
    expect(one('member-security').textContent).not.toContain('646199');
    const toggle = one('pin-toggle');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');

    await click(toggle);
    await vi.waitFor(() => expect(one('member-pin').textContent).toBe('646199'));
    expect(one('pin-toggle').getAttribute('aria-pressed')).toBe('true');

    await mounted.router.push({ name: 'account', params: { id: account.id }, query: { tab: 'overview' } });
    await settle();
    await mounted.router.push({ name: 'account', params: { id: account.id }, query: { tab: 'members' } });
    await settle();
    await vi.waitFor(() => expect(one('member-pin').textContent).toBe('••••••'));
    expect(one('pin-toggle').getAttribute('aria-pressed')).toBe('false');
  });

  it('says a full disk in plain words and keeps what was typed', async () => {
    const db = openDb();
    const account = await household(db);
    mounted = await mountWorkspace(db, account.id, { tab: 'members', member: 'client' });
    const page = one('single-details:client');
    const comments = field(page, 'comments').querySelector('textarea') as HTMLTextAreaElement;
    await typeText(comments, 'Prefers morning meetings');

    const free = fillDisk(db);
    await click(one('single-save'));
    await vi.waitFor(() =>
      expect(one('save-failure').textContent).toContain('no room left on this computer'),
    );
    expect(one('save-failure').textContent).toContain('Free some disk space');
    expect(one('save-failure').textContent).not.toContain('Quota');
    expect((field(page, 'comments').querySelector('textarea') as HTMLTextAreaElement).value).toBe(
      'Prefers morning meetings',
    );
    expect(await outbox(db)).toEqual([]);

    free();
    await click(one('single-save'));
    await vi.waitFor(async () => expect(await outbox(db)).toHaveLength(1));
  });
});

describe('financial sections', () => {
  it('shows single sections as filled, empty or their monthly total, beside the counts', async () => {
    const db = openDb();
    const account = await household(db);
    await syncedSingle(db, account.id, 'expenses-fixed', { mortgage: usd(2_400, 'monthly') });
    await syncedSingle(db, account.id, 'expenses-tax', { federal_income: usd(0) });
    await syncedSingle(db, account.id, 'income:coclient', { other: usd(5_000) });
    mounted = await mountWorkspace(db, account.id, { tab: 'financials', section: 'assets' });
    const state = (key: string) =>
      document.querySelector(`[data-section="${key}"] [data-testid="section-state"]`)?.textContent;

    await vi.waitFor(() => expect(state('expenses-fixed')).toBe('$2.4K/mo'));
    expect(state('expenses-tax')).toBe('Empty');
    expect(state('income:client')).toBe('Empty');
    expect(state('income:coclient')).toBe('Filled');
    expect(document.querySelector('[data-section="assets"] .count')?.textContent).toBe('0');
  });

  it('says beside a section’s monthly total how many amounts it could not convert', async () => {
    const db = openDb();
    const account = await household(db);
    await syncedSingle(db, account.id, 'income:client', {
      employment: usd(1_200, 'monthly'),
      dividends: usd(3_000, 'quarterly'),
    });
    await syncedSingle(db, account.id, 'income:coclient', { other: usd(500, 'biweekly') });
    mounted = await mountWorkspace(db, account.id, { tab: 'financials', section: 'assets' });
    const state = (key: string) =>
      document.querySelector<HTMLElement>(`[data-section="${key}"] [data-testid="section-state"]`);

    // $1,200 a month counted; the quarterly dividends are not, and not passed over either.
    await vi.waitFor(() => expect(state('income:client')?.textContent).toBe('$1.2K/mo + 1 not counted'));
    expect(state('income:client')?.getAttribute('aria-label')).toBe(
      '$1,200 a month, and 1 amount not counted: the app cannot convert its frequency',
    );
    expect(state('income:coclient')?.textContent).toBe('1 not counted');
  });

  it('labels a goal’s amount and date apart, and starts a goal as one-time', async () => {
    mounted = await openNewItem('goals');
    const { db } = mounted;

    const target = field(dialog(), 'target');
    const labels = [...target.querySelectorAll<HTMLLabelElement>('.part label')];
    expect(labels.map((l) => l.textContent?.replace('(required)', '').replace('*', '').trim())).toEqual([
      'Target amount',
      'Target date',
    ]);
    for (const label of labels) {
      expect(target.querySelector(`#${label.htmlFor}`)).not.toBeNull();
      // One label each: the field's own (read by the group) would double the input's name.
      expect(document.querySelectorAll(`label[for="${label.htmlFor}"]`)).toHaveLength(1);
    }
    const frequency = field(dialog(), 'frequency');
    expect(frequency.querySelector('.field-label')?.textContent?.trim()).toBe('How often');
    expect(frequency.textContent).toContain('One time');

    await choose(dialog(), 'type', 'Wedding');
    await typeText(field(dialog(), 'name').querySelector('input') as HTMLInputElement, 'Wedding');
    await choose(dialog(), 'owner', 'Joint');
    await typeNumber(dialog(), 'target', 30_000);
    const date = target.querySelectorAll('input')[1] as HTMLInputElement;
    await typeText(date, numericDate(2027, 6, 12));
    await click(one('item-save'));
    await vi.waitFor(async () => expect(await outbox(db)).toHaveLength(1));
    const [op] = await outbox(db);
    expect(op?.fields).toMatchObject({
      frequency: 'one-time',
      target: { value: 30_000, date: '2027-06-12' },
    });
  });

  it('titles a conflict by the record as it was, and says what “before” means', async () => {
    const db = openDb();
    const account = await household(db);
    const item = await syncedItem(db, account.id, 'assets', 'a|1', {
      name: 'Sailboat',
      type: 'other',
      owner: { type: 'client', id: null },
      current_value: usd(36_500),
    });
    await updateRecord(db, 'sectionItems', item.id, { name: 'Sailboat (mine)' });
    const [op] = await recordOps(db, 'sectionItems', item.id);
    await db.outbox.put({ ...op!, state: 'conflict' });
    await db.conflicts.add({
      id: op!.id,
      table: 'sectionItems',
      recordId: item.id,
      fields: { name: { base: 'Sailboat', mine: 'Sailboat (mine)', theirs: 'Sailboat (theirs)' } },
      detectedAt: Date.now(),
    });
    await db.sectionItems.update(item.id, { status: 'conflict' });
    mounted = await mountWorkspace(db, account.id, { tab: 'financials', section: 'assets', item: item.id });

    await vi.waitFor(() => expect(one('item-dialog-title').textContent).toBe('Sailboat'));
    expect(one('conflict').textContent).toContain(
      'The asset “Sailboat” was changed here and on the platform',
    );
    expect(one('conflict-base').textContent?.trim()).toBe('Before both changes: Sailboat');
  });

  it('keeps a new item’s typed values when the disk is full', async () => {
    mounted = await openNewItem('assets');
    const { db } = mounted;
    await choose(dialog(), 'type', 'Vehicle');
    await typeText(field(dialog(), 'name').querySelector('input') as HTMLInputElement, 'Family car');
    await choose(dialog(), 'owner', 'Joint');
    await typeNumber(dialog(), 'current_value', 18_000);

    const free = fillDisk(db);
    await click(one('item-save'));
    await vi.waitFor(() =>
      expect(one('save-failure').textContent).toContain('no room left on this computer'),
    );
    expect(one('save-failure').textContent).not.toContain('Quota');
    expect((field(dialog(), 'name').querySelector('input') as HTMLInputElement).value).toBe('Family car');
    expect(await db.sectionItems.count()).toBe(0);

    free();
    await click(one('item-save'));
    await vi.waitFor(async () => expect(await outbox(db)).toHaveLength(1));
  });

  it('creates a document and its file in one transaction', async () => {
    mounted = await openNewItem('documents');
    const { db } = mounted;
    const picker = field(dialog(), 'file').querySelector('input[type="file"]') as HTMLInputElement;
    const file = new File([new Uint8Array([37, 80, 68, 70])], 'Trust.pdf', { type: 'application/pdf' });
    Object.defineProperty(picker, 'files', { value: [file] });
    picker.dispatchEvent(new Event('change'));
    await settle();
    await choose(dialog(), 'relation', 'Joint');

    // Every write of the outbox and the files, by the transaction it was made in.
    const transactions = new Set<unknown>();
    const seen = (...args: unknown[]) => void transactions.add(args.at(-1));
    db.outbox.hook('creating', (_k, _o, t) => seen(t));
    db.outbox.hook('updating', (_m, _k, _o, t) => seen(t));
    db.files.hook('creating', (_k, _o, t) => seen(t));
    await click(one('item-save'));
    await vi.waitFor(async () => expect(await outbox(db)).toHaveLength(1));

    expect(transactions.size).toBe(1);
    const [op] = await outbox(db);
    expect(op).toMatchObject({ kind: 'create' });
    expect(JSON.stringify(op?.fields)).toContain('Trust.pdf');
  });
});
