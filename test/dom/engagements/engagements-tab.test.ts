// @vitest-environment happy-dom
// The workspace's Engagements tab against a real local store (fake-indexeddb): the household's
// questionnaires newest first with their state and progress; offline, "Send a questionnaire…"
// queues the chosen template for the chosen member with the email options as ticked and says it
// will be sent when back online; a member without an email cannot be chosen and says why; close
// is queued offline and shown as waiting; delete is disabled offline with the reason; and without
// `engagements.create` the send is disabled with the platform's reason.

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import type { Bridge } from '@shared/bridge.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { useConnectivityStore } from '../../../renderer/src/common/connectivity.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { INTAKE, engagement, user } from './harness.ts';
import { click, household, mountWorkspace, openDb, settle } from '../workspace/harness.ts';

beforeEach(() => {
  // The tab asks for the household's list; offline nothing is sent.
  useBridge({
    api: { request: () => Promise.reject(new Error('no request is expected offline')) },
  } as unknown as Bridge);
});
unmountAfterEach();

const all = (id: string) => [...document.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];
const one = (id: string) => {
  const found = all(id);
  expect(found, id).toHaveLength(1);
  return found[0]!;
};

async function offlineTab(db: AdvisorDb) {
  const account = await household(db);
  await db.accounts.update(account.id, { meta: { ...account.meta, clientId: 71, coclientId: 72 } });
  await db.engagements.bulkPut([
    engagement('e-old', 7, 71, {
      created_at: '2026-10-01 09:00:00',
      status: 'COMPLETED',
      completed_at: '2026-10-03 09:00:00',
      filled: 100,
      time: 600,
      opened_at: '2026-10-02 09:00:00',
    }),
    engagement('e-new', 7, 72, {
      created_at: '2026-11-20 09:00:00',
      name: 'Bob Tester',
      filled: 40,
      opened_at: '2026-11-21 09:00:00',
    }),
  ]);
  await mountWorkspace(db, account.id, { tab: 'engagements' });
  useConnectivityStore().networkUp = false;
  await settle();
  return account;
}

describe('the workspace’s Engagements tab', () => {
  it('lists the household’s questionnaires newest first, with state and progress', async () => {
    const db = openDb();
    await user(db);
    await offlineTab(db);
    await vi.waitFor(() => expect(all('workspace-engagement')).toHaveLength(2));
    const rows = all('workspace-engagement');
    expect(rows.map((r) => r.dataset.engagementId)).toEqual(['e-new', 'e-old']);
    expect(rows[0]!.textContent).toContain('In progress');
    expect(rows[0]!.textContent).toContain('40% filled');
    expect(rows[1]!.textContent).toContain('Completed');
    expect(rows[1]!.textContent).toContain('100% filled, 10 min');
  });

  it('offline, queues a questionnaire for the chosen member with the email options ticked, and says when it goes', async () => {
    const db = openDb();
    await user(db);
    const account = await offlineTab(db);
    await click(one('workspace-send-engagement'));
    await vi.waitFor(() => expect(all('send-engagement-dialog')).toHaveLength(1));
    expect(one('send-offline-note').textContent).toContain('will be sent when you are back online');
    // Both members have an email: the co-client is chosen.
    const co = one('send-member-coclient').querySelector('input')!;
    expect(co.disabled).toBe(false);
    await click(co);
    // The first template is preselected; the explanation names its type and security.
    expect(one('send-template-explained').textContent).toContain('security high');
    // The reminder emails are turned off.
    await click(document.getElementById('send-email-reminders')!);
    await click(one('send-engagement-confirm'));
    await vi.waitFor(() => expect(all('pending-send')).toHaveLength(1));
    expect(one('pending-send').textContent).toContain('Client intake questionnaire');
    expect(one('pending-send').textContent).toContain('co-client — will be sent when you are back online');
    const ops = await db.outbox.toArray();
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({
      kind: 'sendEngagement',
      recordId: account.id,
      fields: {
        member: 'coclient',
        template_id: INTAKE.id,
        email_new: true,
        email_reminders: false,
        email_completed: true,
      },
    });
  });

  it('does not let a member without an email be chosen, and says why', async () => {
    const db = openDb();
    await user(db);
    const account = await household(db);
    await db.accounts.update(account.id, { fields: { ...account.fields, 'coclient.email': '' } });
    await mountWorkspace(db, account.id, { tab: 'engagements' });
    useConnectivityStore().networkUp = false;
    await settle();
    await click(one('workspace-send-engagement'));
    await vi.waitFor(() => expect(all('send-member-coclient')).toHaveLength(1));
    expect(one('send-member-coclient').querySelector('input')!.disabled).toBe(true);
    expect(one('send-engagement-dialog').textContent).toContain(
      "No email address: add one to the co-client's details first.",
    );
  });

  it('asks before a close, queues it offline and shows it waiting; delete is disabled offline with the reason', async () => {
    const db = openDb();
    await user(db);
    await offlineTab(db);
    await vi.waitFor(() => expect(all('workspace-engagement')).toHaveLength(2));
    const open = all('workspace-engagement').find((r) => r.dataset.engagementId === 'e-new')!;
    const remove = open.querySelector<HTMLButtonElement>('[data-testid="engagement-delete"]')!;
    expect(remove.disabled).toBe(true);
    expect(remove.title).toBe('Deleting needs a connection, because the platform checks your password.');
    // Closing writes the answers into the profile: it is asked first (issue 23), and Cancel queues nothing.
    await click(open.querySelector('[data-testid="engagement-close"]')!);
    await vi.waitFor(() => expect(all('confirm-dialog')).toHaveLength(1));
    expect(one('confirm-message').textContent).toContain(
      'the platform writes them into the household’s profile',
    );
    await click(one('confirm-cancel'));
    await vi.waitFor(() => expect(all('confirm-dialog')).toHaveLength(0));
    expect(await db.outbox.toArray()).toEqual([]);
    await click(open.querySelector('[data-testid="engagement-close"]')!);
    await vi.waitFor(() => expect(all('confirm-accept')).toHaveLength(1));
    await click(one('confirm-accept'));
    await vi.waitFor(async () => expect(await db.outbox.toArray()).toHaveLength(1));
    expect((await db.outbox.toArray())[0]).toMatchObject({
      kind: 'closeEngagement',
      fields: { engagement: 'e-new' },
    });
    await vi.waitFor(() =>
      expect(open.textContent).toContain('Close — will be sent when you are back online'),
    );
  });

  it('without engagements.create, the send is disabled with the platform’s reason', async () => {
    const db = openDb();
    await user(db, ['engagements.create', 'engagements.close']);
    await offlineTab(db);
    await vi.waitFor(() => expect(all('workspace-engagement')).toHaveLength(2));
    expect((one('workspace-send-engagement') as HTMLButtonElement).disabled).toBe(true);
    const close = all('engagement-close')[0] as HTMLButtonElement;
    expect(close.disabled).toBe(true);
    expect(close.title).toBe('Your role on the platform does not let you close or reopen questionnaires.');
  });
});

describe('names from the platform on the Engagements tab', () => {
  it('draws a questionnaire’s title and member isolated, hidden characters marked, here and in the close question', async () => {
    const db = openDb();
    await user(db);
    const account = await household(db);
    await db.accounts.update(account.id, { meta: { ...account.meta, clientId: 71, coclientId: 72 } });
    await db.engagements.put(
      engagement('e-odd', 7, 72, { title: 'Risk\u061C \u202Eweiver', name: 'Bob\u200B Tester' }),
    );
    await mountWorkspace(db, account.id, { tab: 'engagements' });
    useConnectivityStore().networkUp = false;
    await vi.waitFor(() => expect(all('workspace-engagement')).toHaveLength(1));

    const row = one('workspace-engagement');
    expect([...row.querySelectorAll('.open bdi')].map((b) => b.textContent)).toEqual([
      'RiskU+061C U+202Eweiver',
      'BobU+200B Tester',
    ]);
    expect(row.textContent).not.toMatch(/[\u202E\u061C\u200B]/);

    await click(row.querySelector('[data-testid="engagement-close"]')!);
    await vi.waitFor(() => expect(all('confirm-dialog')).toHaveLength(1));
    const message = one('confirm-message');
    expect(message.textContent).not.toMatch(/[\u202E\u061C\u200B]/);
    expect([...message.querySelectorAll('bdi')].map((b) => b.textContent)).toEqual([
      'RiskU+061C U+202Eweiver',
      'BobU+200B Tester',
    ]);
    expect(message.textContent?.replace(/\s+/g, ' ')).toContain(
      'Closing “RiskU+061C U+202Eweiver” ends it for BobU+200B Tester: the answers can no longer be changed',
    );
  });
});
