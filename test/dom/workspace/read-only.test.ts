// @vitest-environment happy-dom
// The workspace for a user whose role does not allow everything, as the platform's permissions
// say (the user resource kept by the last pull): what is hidden or disabled, and the reason given
// in the advisor's words. First the sandbox's assistant (may change accounts, may not delete them
// or convert a prospect); then a role that may only look at prospects (everything read-only).

import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { CONVERT_PERMISSION } from '@shared/account-rules.ts';
import { userConfig } from '../accounts/harness-data.ts';
import { clientFields } from '../../support/store.ts';
import {
  byTestId,
  click,
  mountWorkspace,
  one,
  openDb,
  pulledInFull,
  settle,
  syncedAccount,
  syncedItem,
  type Mounted,
} from './harness.ts';

/** What the sandbox's assistant@sandbox.test may not do (test/platform/seed.ts). */
const ASSISTANT_LACKS = ['accounts.prospects.delete', 'accounts.clients.delete', CONVERT_PERMISSION];

let mounted: Mounted | null = null;
unmountAfterEach();

async function prospect() {
  const db = openDb();
  const account = await pulledInFull(
    db,
    await syncedAccount(db, 11, { ...clientFields('Ann'), type: 'PROSPECT' }),
  );
  await syncedItem(db, account.id, 'assets', 'a|1', {
    type: 'secondary-residence',
    name: 'Lake cabin',
    owner: { type: 'client', id: null },
    current_value: { value: 420000, frequency: 'one-time' },
  });
  return { db, account };
}

const accountForm = () => one('account-form');
const button = (id: string) => one(id) as HTMLButtonElement;
const readOnlyNotes = () =>
  [...document.querySelectorAll('.p-message')].map((m) => m.textContent?.trim() ?? '');

describe('the workspace for the assistant (no delete, no convert)', () => {
  it('disables Delete and says why, keeps editing, and disables converting with its reason', async () => {
    const { db, account } = await prospect();
    await userConfig(db, ASSISTANT_LACKS);
    mounted = await mountWorkspace(db, account.id);
    await settle();

    const del = button('delete-account-open');
    expect(del.disabled).toBe(true);
    expect(del.getAttribute('aria-describedby')).toBe('delete-reason');
    expect(document.getElementById('delete-reason')?.textContent).toBe(
      'Your role on the platform does not let you delete prospects.',
    );
    expect(del.parentElement?.getAttribute('title')).toBe(
      'Your role on the platform does not let you delete prospects.',
    );
    await click(del);
    expect(document.querySelector('[data-testid="delete-account"]')).toBeNull();

    // Changing the account is allowed: no read-only note, an Edit button, forms that save.
    expect(button('edit-account').textContent).toContain('Edit');
    expect(readOnlyNotes().some((t) => t.includes('does not let you change'))).toBe(false);

    await click(button('edit-account'));
    await vi.waitFor(() => expect(accountForm()).toBeTruthy());
    const convert = accountForm().querySelector<HTMLButtonElement>('[data-testid="convert"]')!;
    expect(convert.disabled).toBe(true);
    expect(accountForm().textContent).toContain(
      'Your role on the platform does not let you convert a prospect to a client.',
    );
    expect(accountForm().querySelector('[data-testid="account-form-readonly"]')).toBeNull();
  });

  it('with every permission, nothing is disabled (the same screens, for contrast)', async () => {
    const { db, account } = await prospect();
    await userConfig(db);
    mounted = await mountWorkspace(db, account.id);
    await settle();
    expect(button('delete-account-open').disabled).toBe(false);
    expect(document.getElementById('delete-reason')).toBeNull();
    await click(button('edit-account'));
    await vi.waitFor(() => expect(accountForm()).toBeTruthy());
    expect(accountForm().querySelector<HTMLButtonElement>('[data-testid="convert"]')!.disabled).toBe(false);
    expect(byTestId('account-save')).toHaveLength(1);
  });
});

describe('the workspace for a role that may not change prospects', () => {
  it('is read-only throughout, and says why once at the top and in each form', async () => {
    const { db, account } = await prospect();
    await userConfig(db, ['accounts.prospects.update', 'accounts.prospects.delete']);
    mounted = await mountWorkspace(db, account.id, { tab: 'financials', section: 'assets' });
    await settle();
    const reason = 'Your role on the platform does not let you change prospects.';

    expect(readOnlyNotes()).toContain(reason);
    // Edit becomes "View details"; Delete is disabled with its own reason.
    expect(button('edit-account').textContent).toContain('View details');
    expect(button('delete-account-open').disabled).toBe(true);

    // A section: the items are listed, but cannot be added to.
    expect(one('section-table').textContent).toContain('Lake cabin');
    expect(button('add-item').disabled).toBe(true);
    expect(one('section-table').textContent).not.toContain('“Add');

    // A member's details: the reason beside the form, every field and Save disabled.
    await mounted.router.replace({ query: { tab: 'members', member: 'client' } });
    await settle();
    const details = one('single-details:client');
    expect(details.textContent).toContain(reason);
    const inputs = [...details.querySelectorAll<HTMLInputElement>('input:not([type="file"])')];
    expect(inputs.length).toBeGreaterThan(5);
    expect(inputs.filter((i) => !i.disabled).map((i) => i.id)).toEqual([]);
    expect(button('single-save').disabled).toBe(true);

    // The account form opens to look at, read-only, with the reason; no convert offered.
    await click(button('edit-account'));
    await vi.waitFor(() => expect(accountForm()).toBeTruthy());
    expect(accountForm().querySelector('[data-testid="account-form-readonly"]')?.textContent).toContain(
      reason,
    );
    expect(accountForm().querySelector('[data-testid="convert"]')).toBeNull();
    // Nothing to save: the form has no Save button at all.
    expect(byTestId('account-save')).toEqual([]);
  });
});
