// @vitest-environment happy-dom
// The "Meeting summary…" dialog's default span is the meeting (issue 23, point 7): after a session
// of changes, with the workspace opened again since (as a reload or a return to the household
// does), it opens on those changes, not on "since it was opened" with none; and a span without a
// change says so and offers nothing to save. Real changes through the change module on a
// fake-indexeddb store; the dialog mounted with PrimeVue as the frame mounts it.

import { mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { meetingSummaryAccount } from '../../../renderer/src/commands/meeting-summary.ts';
import { createRecord, updateRecord } from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { useLocalDb } from '../../../renderer/src/data/identity/current-store.ts';
import MeetingSummaryDialog from '../../../renderer/src/meeting-summary/MeetingSummaryDialog.vue';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { openDb, syncedAccount, syncedItem } from '../../support/store.ts';

let db: AdvisorDb;
beforeEach(() => {
  db = openDb();
  useLocalDb(db);
  mount(MeetingSummaryDialog, {
    attachTo: document.body,
    global: { plugins: [createPinia(), [PrimeVue, { theme: 'none' }], ToastService] },
  });
});
afterEach(async () => {
  meetingSummaryAccount.value = null;
  await db.delete();
});
unmountAfterEach();

const el = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const text = (id: string) => el(id)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

describe('the meeting summary dialog', () => {
  it('opens on the meeting’s changes after the workspace was opened again', async () => {
    const account = await syncedAccount(db, 21);
    const car = await syncedItem(db, account.id, 'assets', 'a1', { name: 'Car', type: 'vehicle' });
    // The meeting: three changes, then the household opened again (a reload, a return to it).
    await updateRecord(db, 'sectionItems', car.id, { name: 'Family car' });
    await createRecord(db, 'sectionItems', {
      accountId: account.id,
      section: 'cash',
      fields: { name: 'Rainy day', type: 'savings' },
    });
    await updateRecord(db, 'accounts', account.id, { favorited: true });
    await db.accounts.update(account.id, { openedAt: Date.now() + 1 });

    meetingSummaryAccount.value = account.id;
    await vi.waitFor(() => expect(text('meeting-summary-count')).toBe('3 changes'));
    expect(text('meeting-summary-span')).toMatch(/^This meeting \(since \d/);
    expect(text('meeting-summary-span-note')).toBe('From the first change made to this household today.');
    expect(el('meeting-summary-start')?.hasAttribute('disabled')).toBe(false);
  });

  it('says a span without a change, and offers no Save', async () => {
    const account = await syncedAccount(db, 22);
    meetingSummaryAccount.value = account.id;
    await vi.waitFor(() =>
      expect(text('meeting-summary-count')).toBe(
        'No change was made to this household on this computer in this span: there is nothing to save.',
      ),
    );
    expect(text('meeting-summary-span')).toBe('Today');
    expect(el('meeting-summary-start')?.hasAttribute('disabled')).toBe(true);
  });
});
