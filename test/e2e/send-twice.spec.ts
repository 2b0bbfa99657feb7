// The same questionnaire or form sent twice to the same member (issue 23: "Annual review" to Ella,
// then again 9 s later, made two open engagements and two emails without a word). Online, in the
// browser preview against the sandbox: sent once, then asked for again, the dialog says it is
// already open for that member, when it was sent, and what a second send does; Cancel sends
// nothing; "Send again" sends exactly one more. The same for a form of the 0.0.1 interface.

import type { Page } from '@playwright/test';
import {
  activeAccounts,
  expect,
  localId,
  openAccount,
  openList,
  outboxStates,
  shoot,
  test,
} from './fixtures.ts';

test.use({ requestsPerMinute: 1000 });

const TEMPLATE = 'Annual review';

async function emailsTo(base: string, to: string): Promise<{ engagement_id: string; kind: string }[]> {
  const all = (await (await fetch(`${base}/__sandbox/emails`)).json()) as {
    engagement_id: string;
    kind: string;
    to: string;
  }[];
  return all.filter((m) => m.to === to);
}

async function chooseTemplate(page: Page): Promise<void> {
  const dialog = page.getByTestId('send-engagement-dialog');
  await dialog.getByTestId('send-member-client').click();
  await dialog.getByTestId('send-template').click();
  await page.getByRole('option', { name: new RegExp(TEMPLATE) }).click();
}

test('a questionnaire already open for the member is asked about before it is sent again', async ({
  page,
  servers,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const store = servers.platform.control.store();
  const template = store.state.templates.find((t) => t.title === TEMPLATE)!;
  const openOf = (accountId: number, memberId: number) =>
    store.state.engagements.filter(
      (e) =>
        e.account_id === accountId &&
        e.member_id === memberId &&
        e.template_id === template.id &&
        e.status !== 'COMPLETED',
    );
  // A client with an email and no "Annual review" open yet: the first send asks nothing.
  const household = activeAccounts(servers).find(
    (a) => a.client.email && a.client.id && openOf(a.id, a.client.id).length === 0,
  )!;
  const client = household.client;
  const sentTo = () =>
    store.state.engagements.filter(
      (e) => e.account_id === household.id && e.member_id === client.id && e.template_id === template.id,
    );
  const before = sentTo().length;
  const emailsBefore = (await emailsTo(servers.platform.url, client.email)).length;
  await openList(page, servers);
  const id = await localId(page, household.id);
  await openAccount(page, id, '?tab=engagements');
  const tab = page.getByTestId('engagements-tab');
  const dialog = page.getByTestId('send-engagement-dialog');

  // ---- The first send goes without a question ----------------------------------------------------
  await tab.getByTestId('workspace-send-engagement').click();
  await chooseTemplate(page);
  await dialog.getByTestId('send-engagement-confirm').click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => outboxStates(page), { timeout: 60_000 }).toEqual([]);
  expect(sentTo()).toHaveLength(before + 1);
  const first = sentTo().at(-1)!;
  await expect(tab.locator(`[data-engagement-id="${first.id}"]`)).toBeVisible({ timeout: 30_000 });

  // ---- Again, moments later: asked, and Cancel sends nothing -------------------------------------
  await tab.getByTestId('workspace-send-engagement').click();
  await chooseTemplate(page);
  await dialog.getByTestId('send-engagement-confirm').click();
  const question = dialog.getByTestId('send-duplicate');
  await expect(question).toContainText(
    `“${TEMPLATE}” is already open for ${client.first_name} ${client.last_name}: sent `,
  );
  await expect(question).toContainText('not completed yet');
  await expect(question).toContainText('Sending it again makes another questionnaire');
  await expect(dialog.getByTestId('send-engagement-confirm')).toHaveText('Send again');
  await shoot(page, 'engagements-send-again');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(await outboxStates(page)).toEqual([]);
  expect(sentTo()).toHaveLength(before + 1);

  // ---- Asked again and answered "Send again": exactly one more -----------------------------------
  await tab.getByTestId('workspace-send-engagement').click();
  await chooseTemplate(page);
  await dialog.getByTestId('send-engagement-confirm').click();
  await expect(question).toBeVisible();
  await dialog.getByTestId('send-engagement-confirm').click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => outboxStates(page), { timeout: 60_000 }).toEqual([]);
  expect(sentTo()).toHaveLength(before + 2);
  const emails = await emailsTo(servers.platform.url, client.email);
  expect(emails.slice(emailsBefore).filter((m) => m.kind === 'new')).toHaveLength(2);
});

test('a form already open for the member is asked about before it is sent again', async ({
  page,
  servers,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const store = servers.platform.control.store();
  const advisor = store.state.users.find((u) => u.email === 'advisor@sandbox.test')!;
  const template = store.templatesOf(advisor)[1]!;
  const formsOf = (accountId: number) =>
    store.state.forms.filter((f) => f.account_id === accountId && f.template_id === template.id);
  // A client with an email and no form of this template open to them yet.
  const household = activeAccounts(servers).find(
    (a) =>
      a.client.email &&
      formsOf(a.id).every((f) => f.status === 'CLOSED' || !f.recipients.some((r) => r.role === 'client')),
  )!;
  const before = formsOf(household.id).length;
  await openList(page, servers);
  const id = await localId(page, household.id);
  await openAccount(page, id, '?tab=forms');
  const tab = page.getByTestId('forms-tab');
  const dialog = page.getByTestId('send-form-dialog');

  await tab.getByTestId('send-form').click();
  await dialog.getByTestId(`template-${template.key}`).click();
  await dialog.getByTestId('send-form-confirm').click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => outboxStates(page), { timeout: 60_000 }).toEqual([]);
  expect(formsOf(household.id)).toHaveLength(before + 1);

  // Again: asked, naming the form and the member; Cancel sends nothing.
  await tab.getByTestId('send-form').click();
  await dialog.getByTestId(`template-${template.key}`).click();
  await dialog.getByTestId('send-form-confirm').click();
  const question = dialog.getByTestId('send-form-duplicate');
  await expect(question).toContainText(`“${template.title}” is already open for `);
  await expect(question).toContainText(household.client.first_name);
  await expect(question).toContainText('not closed yet');
  await expect(dialog.getByTestId('send-form-confirm')).toHaveText('Send again');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(await outboxStates(page)).toEqual([]);
  expect(formsOf(household.id)).toHaveLength(before + 1);

  // "Send again": exactly one more.
  await tab.getByTestId('send-form').click();
  await dialog.getByTestId(`template-${template.key}`).click();
  await dialog.getByTestId('send-form-confirm').click();
  await expect(question).toBeVisible();
  await dialog.getByTestId('send-form-confirm').click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => outboxStates(page), { timeout: 60_000 }).toEqual([]);
  expect(formsOf(household.id)).toHaveLength(before + 2);
});
