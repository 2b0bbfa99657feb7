// @vitest-environment happy-dom
// Two goals of the same name (issue 23, point 18) read the same in a document's "Related to", so
// the advisor could not tell which one they picked. Items that read the same are told apart by
// what differs between them (a goal's target), or by their place when nothing does.

import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import {
  click,
  dialog,
  field,
  household,
  mountWorkspace,
  one,
  openDb,
  optionsOpen,
  settle,
  syncedItem,
} from './harness.ts';

unmountAfterEach();

const dateOf = (y: number, m: number, d: number) =>
  new Intl.DateTimeFormat(navigator.language, { dateStyle: 'medium' }).format(new Date(y, m - 1, d));

describe('“Related to”', () => {
  it('tells two goals of the same name apart, and two that differ in nothing by their place', async () => {
    const db = openDb();
    const account = await household(db);
    const joint = { type: 'joint', id: null };
    await syncedItem(db, account.id, 'goals', 'g|1', {
      name: 'College',
      type: 'education',
      owner: joint,
      target: { value: 100_000, date: '2030-09-01' },
    });
    await syncedItem(db, account.id, 'goals', 'g|2', {
      name: 'College',
      type: 'education',
      owner: joint,
      target: { value: 60_000, date: '2034-09-01' },
    });
    await syncedItem(db, account.id, 'assets', 'a|1', { name: 'Car', type: 'vehicle', owner: joint });
    await syncedItem(db, account.id, 'assets', 'a|2', { name: 'Car', type: 'vehicle', owner: joint });
    await mountWorkspace(db, account.id, { tab: 'financials', section: 'documents' });
    await click(one('add-item'));
    field(dialog(), 'relation')
      .querySelector<HTMLElement>('.p-select')!
      .dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await settle();
    const labels = optionsOpen().map((o) => o.textContent?.trim());
    expect(labels).toContain(`College · $100,000 by ${dateOf(2030, 9, 1)}`);
    expect(labels).toContain(`College · $60,000 by ${dateOf(2034, 9, 1)}`);
    expect(labels).toContain('Car (1)');
    expect(labels).toContain('Car (2)');
  });
});
