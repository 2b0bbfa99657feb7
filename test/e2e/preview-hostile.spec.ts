// An engagement whose preview is the security reviewer's hostile page (issue 24, point 3), opened
// in the browser preview against the sandbox platform: the advisor reads its text, headings,
// lists, tables and plain links, and no connection leaves for the "outside host", a real local
// server that counts every TCP connection and request it receives (every address of the page
// points at it; Playwright's own view of the network is not asked). A dns-prefetch reaches no
// server, so the frame's DOM is searched for its `<link>` instead.

import { expect, openList, test } from './fixtures.ts';
import {
  DNS_PREFETCH_HOST,
  hostilePage,
  outsideHost,
  readable,
  type OutsideHost,
} from '../support/hostile-page.ts';

// The preview is under test here, not a minute's wait for the budget.
test.use({ requestsPerMinute: 1000 });

let outside: OutsideHost;
test.beforeEach(async () => {
  outside = await outsideHost();
});
test.afterEach(async () => {
  await outside.close();
});

test('a hostile engagement preview shows its text and opens no connection', async ({ page, servers }) => {
  const store = servers.platform.control.store();
  const advisor = store.state.users.find((u) => u.email === 'advisor@sandbox.test')!;
  const teamAccounts = new Set(
    store.state.accounts.filter((a) => a.teamId === advisor.currentTeamId && !a.archived).map((a) => a.id),
  );
  const engagement = store.state.engagements.find((e) => teamAccounts.has(e.account_id));
  if (!engagement) throw new Error('The seed has no engagement in the advisor’s team.');
  const set = await fetch(`${servers.platform.url}/__sandbox/engagements/${engagement.id}/preview`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ html: hostilePage(outside.origin) }),
  });
  expect(set.status).toBe(200);

  await openList(page, servers);
  await page.getByRole('link', { name: 'Engagements' }).first().click();
  await expect(page.getByRole('heading', { name: 'Engagements', level: 1 })).toBeVisible();
  await page.getByTestId('engagement-search').pressSequentially(engagement.name);
  await page.locator(`[data-testid="engagement-row"][data-engagement-id="${engagement.id}"]`).click();
  const detail = page.getByTestId('engagement-detail');
  await detail.getByTestId('engagement-tab-preview').click();

  // ---- Nothing connects -------------------------------------------------------------------------
  const frame = page.frameLocator('[data-testid="engagement-preview-frame"]');
  await expect(frame.locator('h1')).toHaveText('Client intake', { timeout: 30_000 });
  // Hints, images and sheets start as the page is shown; a second and a half is ample under load.
  await page.waitForTimeout(1500);
  expect({ connections: outside.connections(), requests: outside.requests() }).toEqual({
    connections: 0,
    requests: [],
  });

  // ---- What the advisor reads -------------------------------------------------------------------
  const expected = readable(outside.origin);
  await expect(frame.locator('h1, h2, h3')).toHaveText(expected.headings);
  await expect(frame.locator('li')).toHaveText(expected.items);
  await expect(frame.locator('tr').first().locator('th')).toHaveText(expected.cells[0]!);
  await expect(frame.locator('tr').nth(1).locator('td')).toHaveText(expected.cells[1]!);
  for (const link of expected.links)
    await expect(frame.getByRole('link', { name: link.text })).toHaveAttribute('href', link.href);
  const body = frame.locator('body');
  for (const words of expected.text) await expect(body).toContainText(words);

  // ---- Nor anything that could: the frame's own DOM ------------------------------------------------
  const inner = page.frames().find((f) => f.url() === 'about:srcdoc');
  expect(inner, 'the preview is a srcdoc frame').toBeTruthy();
  await expect(frame.locator('link'), 'no link element, the dns-prefetch included').toHaveCount(0);
  await expect(frame.locator('meta')).toHaveCount(0);
  // The app's own base only: every link opens a new window, through the host's https check.
  await expect(frame.locator('base')).toHaveCount(1);
  expect(await frame.locator('base').getAttribute('target')).toBe('_blank');
  expect(await frame.locator('base').getAttribute('href')).toBeNull();
  await expect(frame.locator('iframe, object, embed, svg, form, script, video, audio, source')).toHaveCount(
    0,
  );
  // Only the image carried inside the page itself is left.
  const images = await frame.locator('img').all();
  expect(await Promise.all(images.map((i) => i.getAttribute('src')))).toEqual([
    'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
  ]);
  const html = await inner!.content();
  expect(html).not.toContain(DNS_PREFETCH_HOST);
  expect(html).not.toMatch(/javascript:|\son\w+=/i);
});
