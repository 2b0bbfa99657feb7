// @vitest-environment happy-dom
// "Available offline" says what this computer does: a favorite is kept offline by the background
// pulls (sync/pull/offline-accounts.ts) whether or not it was marked, so its toggle shows on and
// says why, and does not offer a switch that would not stop it; an account neither marked nor a
// favorite shows off and can be marked.

import { afterEach, describe, expect, it } from 'vitest';
import { household, mountWorkspace, one, openDb, settle, type Mounted } from './harness.ts';

let mounted: Mounted | null = null;
afterEach(() => {
  mounted?.wrapper.unmount();
  mounted = null;
  document.body.innerHTML = '';
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

  it('is off and can be turned on for an account neither marked nor a favorite', async () => {
    const db = openDb();
    const account = await household(db);
    mounted = await mountWorkspace(db, account.id);

    expect(toggle().checked).toBe(false);
    expect(toggle().disabled).toBe(false);
    expect(toggle().readOnly).toBe(false);
    expect(one('offline').textContent).not.toContain('favorite');
  });
});
