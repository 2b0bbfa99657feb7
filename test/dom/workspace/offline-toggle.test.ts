// @vitest-environment happy-dom
// "Available offline" says what this computer does: a favorite is kept offline by the background
// pulls (sync/pull/offline-accounts.ts) whether or not it was marked, so its toggle shows on and
// says why, and does not offer a switch that would not stop it; an account opened recently, which
// the background keeps for a while once its data is here, says so and until when beside the
// advisor's own switch, which keeps it for good; an account neither marked, a favorite nor opened
// recently shows off and can be marked.

import { afterEach, describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { useSyncStore } from '../../../renderer/src/common/sync.ts';
import { clientFields } from '../../support/store.ts';
import {
  click,
  household,
  mountWorkspace,
  one,
  openDb,
  settle,
  syncedAccount,
  type Mounted,
} from './harness.ts';

let mounted: Mounted | null = null;
unmountAfterEach();
afterEach(async () => {
  await useSyncStore().stop();
});

const toggle = () => document.getElementById('available-offline') as HTMLInputElement;

describe('the Available offline toggle', () => {
  it('is on for a favorite, kept offline as one, and says how to stop it', async () => {
    const db = openDb();
    const account = await household(db);
    await db.accounts.update(account.id, { favorited: 1 });
    mounted = await mountWorkspace(db, account.id);

    expect(toggle().checked).toBe(true);
    expect(one('offline').textContent).toContain('Kept offline as a favorite');
    // Turning it off would not stop a favorite being kept: not offered (read-only, shown on).
    expect(toggle().readOnly).toBe(true);
    expect(toggle().getAttribute('aria-readonly')).toBe('true');
    toggle().click();
    await settle();
    expect(toggle().checked).toBe(true);
    expect((await mounted.db.accounts.get(account.id))?.availableOffline).toBe(0);
    const note = document.getElementById(toggle().getAttribute('aria-describedby') ?? '');
    expect(note?.textContent).toContain('remove it from the favorites');
  });

  // A review found nothing said for an account the background keeps because it was opened recently.
  it('says an account opened recently is kept for now and until when, and its switch keeps it for good', async () => {
    const db = openDb();
    const account = await household(db);
    await db.accounts.update(account.id, { openedAt: Date.now() - 60_000, pulledAt: Date.now() - 60_000 });
    // Two households opened after it: the background keeps the ten opened last.
    for (const [i, name] of ['Cleo', 'Dan'].entries()) {
      const other = await syncedAccount(db, 20 + i, clientFields(name));
      await db.accounts.update(other.id, { openedAt: Date.now() - 30_000 + i });
    }
    mounted = await mountWorkspace(db, account.id);
    await settle();

    // The switch is the advisor's mark: off, and offered.
    expect(toggle().checked).toBe(false);
    expect(toggle().readOnly).toBe(false);
    const note = document.getElementById(toggle().getAttribute('aria-describedby') ?? '');
    expect(note?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'Kept offline for now, as opened recently, until you open 8 other households; turn this on to keep it for good.',
    );

    // Kept for good: marked, and the note goes.
    await click(toggle());
    await settle();
    expect((await db.accounts.get(account.id))?.availableOffline).toBe(1);
    expect(toggle().checked).toBe(true);
    expect(one('offline').textContent).not.toContain('opened recently');
  });

  it('says nothing of recent keeping for one opened before its data was ever here (offline)', async () => {
    const db = openDb();
    const account = await household(db);
    await db.accounts.update(account.id, { openedAt: Date.now() - 60_000, pulledAt: null });
    mounted = await mountWorkspace(db, account.id);
    await settle();
    expect(toggle().checked).toBe(false);
    expect(one('offline').textContent).not.toContain('opened recently');
  });

  it('is off and can be turned on for an account neither marked nor a favorite', async () => {
    const db = openDb();
    const account = await household(db);
    mounted = await mountWorkspace(db, account.id);

    expect(toggle().checked).toBe(false);
    expect(toggle().disabled).toBe(false);
    expect(toggle().readOnly).toBe(false);
    expect(one('offline').textContent).not.toContain('favorite');
    expect(one('offline').textContent).not.toContain('opened recently');
  });
});
