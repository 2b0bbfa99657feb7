// A questionnaire end to end in the browser preview against the sandbox platform (issue 15): at a
// meeting, offline, the advisor sends the onboarding questionnaire (Client intake) to the
// co-client from the household's workspace; it waits, saying it will be sent when back online.
// Online again it is sent once (the platform holds exactly one, and one email went out). The
// member completes it on the platform (the sandbox's control endpoint); the advisor sees it
// completed, reads the answers grouped by the template's panels, sees the signature, opens a
// document and the signature (saved in the preview's downloads folder, the platform's bytes), and
// the preview shows the platform's page with its script not run. Reopened, filled in again by the
// member and closed, the household's workspace says which of its parts the answers changed. Screenshots light
// and dark of the area and of the completed questionnaire go to test-results/screenshots/engagements-*.png.

import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import {
  activeAccounts,
  bothThemes,
  expect,
  findInList,
  goOffline,
  goOnline,
  localId,
  openAccount,
  openList,
  outboxStates,
  test,
} from './fixtures.ts';

// The screens are under test here, not a minute's wait for the budget.
test.use({ requestsPerMinute: 1000 });

const ONBOARDING = 'Client intake questionnaire';

/** The screenshots show the screen, not the toasts of what was done before. */
async function shots(page: Page, name: string): Promise<void> {
  // One at a time, the first each time: a toast may also close itself meanwhile (its life ends),
  // and a list of them taken up front would then wait for one that is gone.
  const close = page.locator('.p-toast-close-button');
  while ((await close.count()) > 0)
    await close
      .first()
      .click({ timeout: 5_000 })
      .catch(() => undefined);
  await expect(page.locator('.p-toast-message')).toHaveCount(0);
  await bothThemes(page, name);
}

/**
 * At 900 px wide (a review found the top bar cutting the advisor's name off and "Send a
 * questionnaire…" wrapping under the title): the area's title and its actions keep one line, the
 * button reads "Send…" and is still named in full; the top bar shows the team, the advisor's
 * initials with the full name on hovering, and Sign out, all inside the window.
 */
async function narrowWindow(page: Page): Promise<void> {
  await page.setViewportSize({ width: 900, height: 860 });
  const send = page.getByRole('button', { name: 'Send a questionnaire…' });
  await expect(send).toHaveText('Send…', { useInnerText: true });
  const title = (await page.getByRole('heading', { name: 'Engagements', level: 1 }).boundingBox())!;
  const button = (await send.boundingBox())!;
  const middle = title.y + title.height / 2;
  expect(middle).toBeGreaterThan(button.y);
  expect(middle).toBeLessThan(button.y + button.height);
  expect(button.x + button.width).toBeLessThanOrEqual(900);

  const user = page.getByTestId('user');
  await expect(user).toHaveAttribute('title', /^Alex Morgan · advisor@sandbox\.test/);
  await expect(user.locator('.p-avatar')).toHaveText('AM');
  const signOut = (await page.getByRole('button', { name: 'Sign out' }).boundingBox())!;
  expect(signOut.x + signOut.width).toBeLessThanOrEqual(900);
  await expect(page.locator('.topbar')).toContainText('Main Street Advisors');
}

test('offline at a meeting, a questionnaire to the co-client is sent once, completed, and read', async ({
  page,
  context,
  servers,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const store = servers.platform.control.store();
  const household = activeAccounts(servers).find((a) => a.coclient?.email && a.coclient.id);
  if (!household?.coclient) throw new Error('The seed has no household with a co-client who has an email.');
  const coclient = household.coclient;
  const template = store.state.templates.find((t) => t.title === ONBOARDING);
  if (!template) throw new Error(`The sandbox has no template “${ONBOARDING}”.`);
  const engagementsOf = () =>
    store.state.engagements.filter(
      (e) => e.account_id === household.id && e.member_id === coclient.id && e.template_id === template.id,
    );
  const before = engagementsOf().length;

  await openList(page, servers);

  // ---- At the meeting: prepared, then offline ---------------------------------------------------
  await findInList(page, household);
  await page.getByTestId('prepare-account').click();
  const step = page.getByTestId('prepare-dialog').getByTestId('household-step');
  await expect(step).toHaveAttribute('data-state', 'ready', { timeout: 120_000 });
  await page.getByTestId('prepare-close').click();
  const id = await localId(page, household.id);
  await goOffline(context, servers);

  await openAccount(page, id, '?tab=engagements');
  const tab = page.getByTestId('engagements-tab');
  await expect(tab).toBeVisible();
  await tab.getByTestId('workspace-send-engagement').click();
  const dialog = page.getByTestId('send-engagement-dialog');
  await expect(dialog.getByTestId('send-offline-note')).toContainText(
    'will be sent when you are back online',
  );
  await dialog.getByTestId('send-member-coclient').click();
  await expect(dialog).toContainText(coclient.email);
  await dialog.getByTestId('send-template').click();
  await page.getByRole('option', { name: new RegExp(ONBOARDING) }).click();
  await expect(dialog.getByTestId('send-template-explained')).toContainText('security high');
  await dialog.getByTestId('send-engagement-confirm').click();
  await expect(dialog).toBeHidden();
  const waiting = tab.getByTestId('pending-send');
  await expect(waiting).toHaveCount(1);
  await expect(waiting).toContainText(ONBOARDING);
  await expect(waiting).toContainText('co-client — will be sent when you are back online');
  expect(engagementsOf()).toHaveLength(before);

  // ---- Back online: sent once -------------------------------------------------------------------
  await goOnline(context, servers);
  await expect.poll(() => outboxStates(page), { timeout: 60_000 }).toEqual([]);
  await expect(waiting).toHaveCount(0);
  expect(engagementsOf()).toHaveLength(before + 1);
  const sent = engagementsOf().at(-1)!;
  const emails = (await (await fetch(`${servers.platform.url}/__sandbox/emails`)).json()) as {
    engagement_id: string;
    kind: string;
    to: string;
  }[];
  expect(emails.filter((m) => m.engagement_id === sent.id)).toEqual([
    expect.objectContaining({ kind: 'new', to: coclient.email }),
  ]);
  const row = tab.locator(`[data-engagement-id="${sent.id}"]`);
  await expect(row.getByTestId('workspace-engagement-state')).toHaveText('Not opened yet', {
    timeout: 30_000,
  });

  // ---- The co-client completes it on the platform -------------------------------------------------
  const done = await fetch(`${servers.platform.url}/__sandbox/engagements/${sent.id}/member`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'complete', seed: 3 }),
  });
  expect(done.status).toBe(200);
  const completed = store.state.engagements.find((e) => e.id === sent.id)!;
  expect(completed.status).toBe('COMPLETED');

  // The tab asks for the household's list when it opens.
  await openAccount(page, id, '?tab=overview');
  await openAccount(page, id, '?tab=engagements');
  await expect(row.getByTestId('workspace-engagement-state')).toHaveText('Completed', { timeout: 30_000 });

  // ---- The area lists it -------------------------------------------------------------------------
  await page.getByRole('link', { name: 'Engagements' }).first().click();
  await expect(page.getByRole('heading', { name: 'Engagements', level: 1 })).toBeVisible();
  await page.getByTestId('engagement-search').pressSequentially(coclient.first_name);
  const listed = page.locator(`[data-testid="engagement-row"][data-engagement-id="${sent.id}"]`);
  await expect(listed).toBeVisible();
  await expect(listed.getByTestId('engagement-state-label')).toHaveText('Completed');
  await expect(listed).toContainText('100% filled');
  await page.getByTestId('engagement-search').fill('');
  await expect(page.getByTestId('engagement-row').first()).toBeVisible();
  await shots(page, 'engagements-list');
  await narrowWindow(page);
  await page.setViewportSize({ width: 1440, height: 900 });

  // ---- The completed questionnaire: answers by panel, member, signature, a document ---------------
  await page.getByTestId('engagement-search').pressSequentially(coclient.first_name);
  await listed.click();
  const detail = page.getByTestId('engagement-detail');
  await expect(detail.getByTestId('engagement-status')).toHaveText('Completed');
  const answers = detail.getByTestId('engagement-answers');
  await expect(answers).toBeVisible({ timeout: 30_000 });
  // Panels in the template's order, each with the answers the member gave under it.
  const structure = template.structure;
  const panelTitles = [...structure.panels].sort((a, b) => a.position - b.position).map((p) => p.title);
  const shown = await answers.getByTestId('answer-panel').locator('h2').allTextContents();
  expect(shown.length).toBeGreaterThan(0);
  const known = shown.filter((t) => panelTitles.includes(t));
  expect(known, 'panels named as the template names them').toEqual(
    panelTitles.filter((t) => known.includes(t)),
  );
  const coclientName = `Co-client: ${coclient.first_name} ${coclient.last_name}`;
  await expect(answers.getByTestId('answer').filter({ hasText: coclientName }).first()).toBeVisible();
  await shots(page, 'engagements-answers');

  await detail.getByTestId('engagement-tab-files').click();
  if (completed.signatures.length)
    await expect(detail.getByTestId('signature-image').first()).toBeVisible({ timeout: 30_000 });
  const documents = detail.getByTestId('engagement-document');
  await expect(documents).toHaveCount(completed.documents.reduce((n, d) => n + d.files.length, 0));
  if (completed.documents.length) {
    await documents.first().getByTestId('file-open').click();
    await expect(documents.first()).toContainText('The browser preview cannot start a viewer', {
      timeout: 30_000,
    });
  }
  await shots(page, 'engagements-files');

  // A signature opens too: the preview saves it in its downloads folder, the platform's very bytes.
  const signatureFile = store.state.files[completed.signatures[0]?.file ?? ''];
  expect(signatureFile, 'the completed questionnaire has a signature').toBeTruthy();
  const signature = detail.getByTestId('engagement-signature').first();
  await signature.getByTestId('file-open').click();
  const opened = signature.getByTestId('file-outcome');
  await expect(opened).toContainText('The browser preview cannot start a viewer: the file was saved in ', {
    timeout: 30_000,
  });
  const savedAt = /saved in (.+)\.$/.exec((await opened.textContent()) ?? '')?.[1]?.trim() ?? '';
  expect(savedAt).toMatch(/[/\\]downloads[/\\]signature[^/\\]*\.png$/);
  expect(readFileSync(savedAt).equals(Buffer.from(signatureFile!.data, 'base64'))).toBe(true);

  // ---- The preview: the platform's page, its script not run -------------------------------------
  await detail.getByTestId('engagement-tab-preview').click();
  const frame = page.frameLocator('[data-testid="engagement-preview-frame"]');
  await expect(frame.locator('h1')).toHaveText(completed.title, { timeout: 30_000 });
  const inner = page.frames().find((f) => f.url() === 'about:srcdoc');
  expect(inner).toBeTruthy();
  expect(
    await inner!.evaluate(
      () =>
        (globalThis as unknown as { __engagementPreviewScriptRan?: boolean }).__engagementPreviewScriptRan,
    ),
  ).toBeUndefined();
  // One long sheet down to the window's bottom, not a short box scrolling above empty space (issue 23).
  const sheet = (await page.getByTestId('engagement-preview-frame').boundingBox())!;
  expect(sheet.y + sheet.height).toBeGreaterThan(900 - 80);
  expect(sheet.y + sheet.height).toBeLessThanOrEqual(900);
  await shots(page, 'engagements-preview');

  // ---- Reopened, filled in again by the member, closed: the workspace says what changed -----------
  await detail.getByTestId('engagement-reopen').click();
  // On the platform once sent (the outbox may still be empty the moment after the click).
  await expect
    .poll(() => store.state.engagements.find((e) => e.id === sent.id)?.status, { timeout: 60_000 })
    .toBe('NEW');
  await expect.poll(() => outboxStates(page), { timeout: 60_000 }).toEqual([]);
  const refill = await fetch(`${servers.platform.url}/__sandbox/engagements/${sent.id}/member`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'fill', seed: 11 }),
  });
  expect(refill.status).toBe(200);
  const theirs = () => store.state.accounts.find((a) => a.id === household.id)!;
  const sectionsBefore = JSON.stringify([theirs().sections ?? {}, theirs().singles ?? {}]);
  const profileBefore = JSON.stringify(theirs().profile);
  await detail.getByTestId('engagement-close').click();
  // Closing writes the answers into the profile, so it is asked first (issue 23).
  const asked = page.getByTestId('confirm-dialog');
  await expect(asked.getByTestId('confirm-message')).toContainText(
    'writes them into the household’s profile',
  );
  await asked.getByTestId('confirm-accept').click();
  await expect.poll(() => outboxStates(page), { timeout: 60_000 }).toEqual([]);
  expect(store.state.engagements.find((e) => e.id === sent.id)?.status).toBe('COMPLETED');
  // The platform wrote the answers into the profile (fields connected to it) and no section.
  expect(JSON.stringify(theirs().profile)).not.toBe(profileBefore);
  expect(JSON.stringify([theirs().sections ?? {}, theirs().singles ?? {}])).toBe(sectionsBefore);

  await openAccount(page, id, '?tab=engagements');
  const notice = page.getByTestId('closed-answers');
  await expect(notice).toContainText(`Answers from “${completed.title}” changed: Profile.`, {
    timeout: 60_000,
  });
  await expect(notice.getByTestId('closed-answers-part')).toHaveText(['Profile']);
  await notice.getByTestId('closed-answers-part').click();
  await expect(page.getByTestId('profile')).toBeVisible();
  await expect(notice).toBeVisible();
});
