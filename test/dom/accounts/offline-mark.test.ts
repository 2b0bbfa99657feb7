// @vitest-environment happy-dom
// The account list and the pipeline board mark a household whose every part is on this computer
// ("Available offline", an icon with its label for screen readers and a tooltip); one pulled in
// part or not at all stays plain, and its quiet "synced" tick says it speaks for the list's entry.

import { describe, expect, it, vi } from 'vitest';
import { accountPartKeys, recordParts } from '../../../renderer/src/data/coverage.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import type { AccountRow } from '../../../renderer/src/data/model.ts';
import { account, mountAt, screensPerTest, userConfig } from './harness.ts';

const screen = screensPerTest();

/** A whole pull: every part arrived, and `pulledAt` with them (sync/pull/account-data.ts). */
async function pulledInFull(db: AdvisorDb, row: AccountRow) {
  await recordParts(db, row.id, accountPartKeys(['client']), ['client'], 1_000);
  await db.accounts.update(row.id, { pulledAt: 1_000 });
}

async function book() {
  await userConfig(screen.db);
  const ready = await account(screen.db, { first: 'Ann', last: 'Ready', type: 'PROSPECT', stage: 'p1' });
  const partly = await account(screen.db, { first: 'Bob', last: 'Partly', type: 'PROSPECT', stage: 'p1' });
  await account(screen.db, { first: 'Cy', last: 'Listed', type: 'PROSPECT', stage: 'p1' });
  await pulledInFull(screen.db, ready);
  // One section failed: everything else arrived.
  const some = accountPartKeys(['client']).filter((key) => key !== 'assets');
  await recordParts(screen.db, partly.id, some, ['client'], 1_000);
}

/** The list's row, or the board's card, of a household by its last name. */
const entryOf = (selector: string, last: string) =>
  [...document.querySelectorAll<HTMLElement>(selector)].find((e) => e.textContent?.includes(last))!;

function expectMarks(selector: string) {
  const ready = entryOf(selector, 'Ready');
  const mark = ready.querySelector('[data-testid="offline-mark"]')!;
  expect(mark.getAttribute('aria-label')).toBe('Available offline');
  expect(mark.getAttribute('role')).toBe('img');
  expect(mark.getAttribute('title')).toContain('all of this household is on this computer');
  expect(ready.querySelector('[data-sync="synced"]')?.getAttribute('title')).toContain(
    'all of it is on this computer',
  );
  for (const last of ['Partly', 'Listed']) {
    const plain = entryOf(selector, last);
    expect(plain.querySelector('[data-testid="offline-mark"]')).toBeNull();
    expect(plain.querySelector('[data-sync="synced"]')?.getAttribute('title')).toContain(
      'the rest of the household is not on this computer yet',
    );
  }
}

describe('households available offline', () => {
  it('are marked in the account list; the others are plain', async () => {
    await book();
    screen.mounted = await mountAt(screen.db, '/accounts');
    await vi.waitFor(() => expect(document.querySelectorAll('.account-row')).toHaveLength(3));
    expectMarks('.account-row');
    expect(document.querySelectorAll('[data-testid="offline-mark"]')).toHaveLength(1);
  });

  it('are marked on the pipeline board; the others are plain', async () => {
    await book();
    screen.mounted = await mountAt(screen.db, '/accounts/board/prospect');
    await vi.waitFor(() => expect(document.querySelectorAll('[data-testid="board-card"]')).toHaveLength(3));
    expectMarks('[data-testid="board-card"]');
    expect(document.querySelectorAll('[data-testid="offline-mark"]')).toHaveLength(1);
  });
});
