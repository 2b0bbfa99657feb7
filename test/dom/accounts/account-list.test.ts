// @vitest-environment happy-dom
// The account list over the local store: filters, search as you type, every sort key, the
// pipeline stage filter, favorite and archive toggles written through the change module (the
// outbox holds them), permissions said plainly, empty states, and a long list read a window at
// a time.

import { describe, expect, it, vi } from 'vitest';
import { useLocalStore } from '../../../renderer/src/common/local-store.ts';
import type { PlatformUser } from '../../../renderer/src/common/platform.ts';
import { useSessionStore } from '../../../renderer/src/common/session.ts';
import { outbox } from '../../support/store.ts';
import {
  account,
  button,
  chooseOption,
  click,
  listedNames,
  mountAt,
  one,
  screensPerTest,
  settle,
  typeText,
  userConfig,
} from './harness.ts';

const screen = screensPerTest();

/** A small book of accounts, newest first: Eve, Dan, Cat, Bob, Ann. */
async function book() {
  await userConfig(screen.db);
  return {
    ann: await account(screen.db, {
      first: 'Ann',
      last: 'Young',
      created: '2024-01-01 09:00:00',
      quality: 40,
    }),
    bob: await account(screen.db, {
      first: 'Bob',
      last: 'Xu',
      type: 'PROSPECT',
      stage: 'p2',
      created: '2024-01-02 09:00:00',
      quality: 90,
      co: { first: 'Zoe', last: 'Xu', email: 'annika@example.com' },
    }),
    cat: await account(screen.db, {
      first: 'Cat',
      last: 'Wade',
      favorited: true,
      created: '2024-01-03 09:00:00',
    }),
    dan: await account(screen.db, {
      first: 'Dan',
      last: 'Vale',
      archived: true,
      created: '2024-01-04 09:00:00',
    }),
    eve: await account(screen.db, {
      first: 'Eve',
      last: 'Ames',
      type: 'PROSPECT',
      created: '2024-01-05 09:00:00',
      quality: 75,
    }),
  };
}

const count = () => one('account-count').textContent?.trim();

describe('the account list', () => {
  it('shows the active accounts newest first, each with its quality, stage and sync state', async () => {
    await book();
    screen.mounted = await mountAt(screen.db, '/accounts');
    expect(listedNames()).toEqual(['Eve Ames', 'Cat Wade', 'Bob Xu', 'Ann Young']);
    expect(count()).toBe('4 accounts');
    const bobRow = document.querySelectorAll('.account-row')[2] as HTMLElement;
    expect(bobRow.textContent).toContain('Zoe Xu');
    expect(bobRow.textContent).toContain('Prospect');
    expect(bobRow.textContent).toContain('Acquire');
    expect(bobRow.querySelector('[aria-label="Quality score 90 of 100"]')).not.toBeNull();
    expect(bobRow.querySelector('[data-sync="synced"]')).not.toBeNull();
  });

  // Issue 23 point 18: after a switch from Harbor to Main Street, the frame named Main Street while
  // the list still counted Harbor's accounts, until Main Street's store opened.
  it('counts the accounts of the team shown, not of the store a team switch is leaving', async () => {
    await book();
    screen.mounted = await mountAt(screen.db, '/accounts');
    const local = useLocalStore();
    const session = useSessionStore();
    const user = (team: { id: number; name: string }) => ({ id: 5, team }) as unknown as PlatformUser;
    local.opened({ user: 'a'.repeat(32), team: 2 });
    session.showUser(user({ id: 2, name: 'Harbor' }), false);
    await settle();
    expect(count()).toBe('4 accounts');
    // Main Street chosen in the switcher (it shows it at once): the switch is under way.
    session.switching = true;
    await settle();
    expect(count()).toBe('Switching teams…');
    // The switch answered: the frame names Main Street, Harbor's store is still the one open.
    session.showUser(user({ id: 1, name: 'Main Street' }), false);
    await settle();
    expect(count()).toBe('Switching teams…');
    expect(document.body.textContent).not.toContain('4 accounts');
    // Main Street's store opened (here the same rows stand for it), and the switch ended.
    local.opened({ user: 'a'.repeat(32), team: 1 });
    session.switching = false;
    await settle();
    expect(count()).toBe('4 accounts');
    // A team chosen on another device: the platform's user names it before its store is open.
    session.showUser(user({ id: 2, name: 'Harbor' }), false);
    await settle();
    expect(count()).toBe('Opening the accounts of Harbor…');
  });

  it('filters clients, prospects, favorites, archived and all', async () => {
    await book();
    screen.mounted = await mountAt(screen.db, '/accounts');
    const filters = one('account-filter');
    const expected: [string, string[]][] = [
      ['Clients', ['Cat Wade', 'Ann Young']],
      ['Prospects', ['Eve Ames', 'Bob Xu']],
      ['Favorites', ['Cat Wade']],
      ['Archived', ['Dan Vale']],
      ['All', ['Eve Ames', 'Dan Vale', 'Cat Wade', 'Bob Xu', 'Ann Young']],
      ['Active', ['Eve Ames', 'Cat Wade', 'Bob Xu', 'Ann Young']],
    ];
    for (const [label, names] of expected) {
      await click(button(filters, label));
      expect(listedNames(), label).toEqual(names);
    }
    expect(screen.mounted.router.currentRoute.value.query).toEqual({});
  });

  it('filters by pipeline stage', async () => {
    await book();
    screen.mounted = await mountAt(screen.db, '/accounts');
    await chooseOption(one('account-stage'), 'Acquire');
    expect(listedNames()).toEqual(['Bob Xu']);
    expect(count()).toBe('1 account matches');
    expect(screen.mounted.router.currentRoute.value.query).toEqual({ stage: 'p2' });
  });

  it('searches client and co-client names and emails as the user types, each word a prefix', async () => {
    await book();
    screen.mounted = await mountAt(screen.db, '/accounts');
    const search = one('account-search') as HTMLInputElement;
    // Fast typing: one query for the burst, and only the last text counts.
    await typeText(search, 'a');
    await typeText(search, 'an');
    // Ann by her first name, Bob through his co-client's email (annika@…).
    await vi.waitFor(() => expect(listedNames()).toEqual(['Bob Xu', 'Ann Young']));
    expect(one('account-count').textContent?.trim()).toBe('2 accounts match');
    // Any case; Eve by her last name.
    await typeText(search, 'AM');
    await vi.waitFor(() => expect(listedNames()).toEqual(['Eve Ames']));
    await typeText(search, 'bob x');
    await vi.waitFor(() => expect(listedNames()).toEqual(['Bob Xu']));
    await typeText(search, 'nobody');
    await vi.waitFor(() =>
      expect(one('account-empty').textContent).toContain(
        'No client or co-client has a name or email starting with “nobody”.',
      ),
    );
    expect(screen.mounted.router.currentRoute.value.query).toEqual({ q: 'nobody' });
    await click(button(one('account-empty'), 'Show all active accounts'));
    await vi.waitFor(() => expect(listedNames()).toHaveLength(4));
    expect((one('account-search') as HTMLInputElement).value).toBe('');
  });

  it('sorts by every key of the interface, both ways', async () => {
    await book();
    screen.mounted = await mountAt(screen.db, '/accounts');
    const sortSelect = one('account-sort');
    const direction = one('account-sort-direction');
    const cases: [string, string[]][] = [
      ['Client last name', ['Eve Ames', 'Cat Wade', 'Bob Xu', 'Ann Young']],
      ['Client first name', ['Ann Young', 'Bob Xu', 'Cat Wade', 'Eve Ames']],
      ['Client email', ['Ann Young', 'Bob Xu', 'Cat Wade', 'Eve Ames']],
      // Accounts without a co-client come last in both directions.
      ['Co-client last name', ['Bob Xu', 'Ann Young', 'Cat Wade', 'Eve Ames']],
      ['Quality score', ['Bob Xu', 'Eve Ames', 'Ann Young', 'Cat Wade']],
      ['Created', ['Eve Ames', 'Cat Wade', 'Bob Xu', 'Ann Young']],
    ];
    for (const [label, names] of cases) {
      await chooseOption(sortSelect, label);
      expect(listedNames(), label).toEqual(names);
    }
    // Created, reversed: oldest first.
    await click(direction);
    expect(listedNames()).toEqual(['Ann Young', 'Bob Xu', 'Cat Wade', 'Eve Ames']);
    expect(screen.mounted.router.currentRoute.value.query).toEqual({ sort: 'created_at' });
    // Type: clients first A→Z, then reversed.
    await chooseOption(sortSelect, 'Type');
    expect(listedNames().slice(0, 2).sort()).toEqual(['Ann Young', 'Cat Wade']);
    await click(direction);
    expect(listedNames().slice(0, 2).sort()).toEqual(['Bob Xu', 'Eve Ames']);
    // Pipeline stage: in the order of the user's pipelines (prospect stages, then client stages).
    await chooseOption(sortSelect, 'Pipeline stage');
    expect(listedNames()).toEqual(['Eve Ames', 'Bob Xu', 'Ann Young', 'Cat Wade']);
    // Favorite: favorites first.
    await chooseOption(sortSelect, 'Favorite');
    expect(listedNames()[0]).toBe('Cat Wade');
    // Every key of the interface is offered.
    const select = one('account-sort');
    select.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await settle();
    const offered = [...document.querySelectorAll('.p-select-overlay .p-select-option')].map((o) =>
      o.textContent?.trim(),
    );
    expect(offered).toHaveLength(13);
  });

  it('sorts from a column header', async () => {
    await book();
    screen.mounted = await mountAt(screen.db, '/accounts');
    const header = document.querySelector<HTMLElement>(
      '[role="columnheader"] [data-sort="client.last_name"]',
    )!;
    await click(header);
    expect(listedNames()).toEqual(['Eve Ames', 'Cat Wade', 'Bob Xu', 'Ann Young']);
    expect(screen.mounted.router.currentRoute.value.query).toEqual({ sort: 'client.last_name' });
    expect(header.closest('[role="columnheader"]')?.getAttribute('aria-sort')).toBe('ascending');
    await click(header);
    expect(listedNames()).toEqual(['Ann Young', 'Bob Xu', 'Cat Wade', 'Eve Ames']);
    expect(header.closest('[role="columnheader"]')?.getAttribute('aria-sort')).toBe('descending');
  });

  it('writes favorite and archive toggles through the change module', async () => {
    const { bob, cat } = await book();
    screen.mounted = await mountAt(screen.db, '/accounts');
    const rowOf = (name: string) =>
      [...document.querySelectorAll<HTMLElement>('.account-row')].find((r) => r.textContent?.includes(name))!;

    await click(rowOf('Bob Xu').querySelector('[data-testid="toggle-favorite"]')!);
    await settle(6);
    expect(
      rowOf('Bob Xu').querySelector('[data-testid="toggle-favorite"]')?.getAttribute('aria-pressed'),
    ).toBe('true');
    expect(rowOf('Bob Xu').querySelector('[data-sync="pending"]')).not.toBeNull();
    let ops = await outbox(screen.db);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({
      table: 'accounts',
      recordId: bob.id,
      kind: 'update',
      fields: { favorited: true },
    });

    const archive = rowOf('Cat Wade').querySelector<HTMLElement>('[data-testid="toggle-archived"]')!;
    // Says what it does: a box icon, its name read out with the account's.
    expect(archive.getAttribute('aria-label')).toBe('Archive Cat Wade');
    expect(archive.querySelector('i')?.className).toBe('pi pi-box');
    await click(archive);
    await settle(6);
    expect(listedNames()).not.toContain('Cat Wade');
    ops = await outbox(screen.db);
    expect(ops.map((o) => [o.recordId, o.fields])).toEqual([
      [bob.id, { favorited: true }],
      [cat.id, { archived: true }],
    ]);
    // Toggled back before it was sent: the change cancels out, nothing is left to send.
    await click(button(one('account-filter'), 'Archived'));
    const restore = rowOf('Cat Wade').querySelector<HTMLElement>('[data-testid="toggle-archived"]')!;
    expect(restore.getAttribute('aria-label')).toBe('Restore Cat Wade from archive');
    expect(restore.querySelector('i')?.className).toBe('pi pi-undo');
    await click(restore);
    await settle(6);
    expect((await outbox(screen.db)).map((o) => o.recordId)).toEqual([bob.id]);
  });

  // Issue 23: archiving from the list happened at once, and the next row slid under the pointer.
  it('says an archive with Undo, which brings the household back and leaves nothing to send', async () => {
    const { cat } = await book();
    screen.mounted = await mountAt(screen.db, '/accounts');
    const rowOf = (name: string) =>
      [...document.querySelectorAll<HTMLElement>('.account-row')].find((r) => r.textContent?.includes(name));
    await click(rowOf('Cat Wade')!.querySelector<HTMLElement>('[data-testid="toggle-archived"]')!);
    await settle(6);
    expect(listedNames()).not.toContain('Cat Wade');
    expect((await outbox(screen.db)).map((o) => [o.recordId, o.fields])).toEqual([
      [cat.id, { archived: true }],
    ]);
    await vi.waitFor(() => expect(document.querySelector('[data-testid="archive-undo"]')).not.toBeNull());
    const word = document.querySelector<HTMLElement>('[data-testid="archive-undo"]')!;
    expect(word.textContent).toContain('Cat Wade archived');
    expect(word.textContent).toContain('Find it under Archived, or undo.');

    await click(word.querySelector<HTMLElement>('[data-testid="archive-undo-button"]')!);
    await settle(6);
    expect(listedNames()).toEqual(['Eve Ames', 'Cat Wade', 'Bob Xu', 'Ann Young']);
    expect(await outbox(screen.db)).toEqual([]);
    await vi.waitFor(() => expect(document.querySelector('[data-testid="archive-undo"]')).toBeNull());
  });

  it('opens an account from its row', async () => {
    const { bob } = await book();
    screen.mounted = await mountAt(screen.db, '/accounts');
    const row = [...document.querySelectorAll<HTMLElement>('.account-row')].find((r) =>
      r.textContent?.includes('Bob Xu'),
    )!;
    await click(row.querySelector('.cell:nth-child(5)')!);
    await settle();
    expect(screen.mounted.router.currentRoute.value).toMatchObject({
      name: 'account',
      params: { id: bob.id },
    });
  });

  it('says why the toggles and creating are not available to this role', async () => {
    await account(screen.db, { first: 'Ann', last: 'Young' });
    await userConfig(screen.db, [
      'accounts.favorite',
      'accounts.archive',
      'accounts.prospects.create',
      'accounts.clients.create',
    ]);
    screen.mounted = await mountAt(screen.db, '/accounts');
    expect(one('rights-note').textContent).toContain(
      'Your role on the platform does not let you mark favorites.',
    );
    expect(one('rights-note').textContent).toContain('does not let you archive or restore accounts.');
    expect(one('toggle-favorite').hasAttribute('disabled')).toBe(true);
    expect(one('toggle-archived').hasAttribute('disabled')).toBe(true);
    expect(one('new-account').hasAttribute('disabled')).toBe(true);
    await click(one('toggle-favorite'));
    expect(await outbox(screen.db)).toEqual([]);
  });

  it('says plainly when there is nothing to show', async () => {
    await userConfig(screen.db);
    screen.mounted = await mountAt(screen.db, '/accounts');
    expect(one('account-empty').textContent).toContain('No accounts on this computer yet.');
    await click(button(one('account-filter'), 'Favorites'));
    expect(one('account-empty').textContent).toContain('No favorites yet. Mark an account with the star');
  });
});

describe('a long list', () => {
  it('renders only the rows in view and reads the others as the list scrolls', async () => {
    await userConfig(screen.db);
    const rows = Array.from({ length: 1500 }, (_, i) => i);
    await screen.db.transaction('rw', screen.db.accounts, async () => {
      for (const i of rows)
        await account(screen.db, {
          first: `First${String(i).padStart(4, '0')}`,
          last: 'Sample',
          created: `2023-${String((i % 12) + 1).padStart(2, '0')}-01 00:00:00`,
        });
    });
    screen.mounted = await mountAt(screen.db, '/accounts?sort=client.first_name');
    await settle(10);
    expect(one('account-count').textContent?.trim()).toBe('1,500 accounts');
    const shown = listedNames();
    expect(shown.length).toBeGreaterThan(10);
    expect(shown.length).toBeLessThan(100);
    expect(shown[0]).toBe('First0000 Sample');

    // Scroll far down: the rows there are read and shown, the first ones are gone.
    const scroller = document.querySelector<HTMLElement>('[data-pc-name="virtualscroller"]')!;
    scroller.scrollTop = 1000 * 46;
    scroller.dispatchEvent(new Event('scroll'));
    await settle(10);
    const later = listedNames();
    expect(later.length).toBeLessThan(100);
    expect(later).toContain('First1005 Sample');
    expect(later).not.toContain('First0000 Sample');
  });
});
