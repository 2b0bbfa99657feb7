// Home and Activity against the sandbox: the app opens on Home, whose charts show the sandbox's
// statistics (counted here from its state: accounts made and forms sent and closed per day);
// the feed filtered by `form.sent` lists the sandbox's form.sent entries, and an entry opens the
// account it names. Screenshots of both screens, light and dark. A household prepared for a
// meeting from Home is still listed there, ready offline, after the page is loaded again (the
// preparation is kept in the store); opening Home again within minutes asks the platform nothing
// more for its figures, and Refresh does.

import { ADVISOR, activeAccounts, bothThemes, expect, signIn, test, type Servers } from './fixtures.ts';

// The screens are under test here, not a minute's wait for the budget (prepare-meeting.spec.ts
// and delete-account.spec.ts run at the platform's 60 a minute).
test.use({ requestsPerMinute: 1000 });

const pad = (n: number) => String(n).padStart(2, '0');
const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The sandbox's own counts over [start, end] (days of the records' timestamps), for the advisor's team. */
function expectedStats(servers: Servers, start: string, end: string) {
  const state = servers.platform.control.store().state;
  const advisor = state.users.find((u) => u.email === ADVISOR)!;
  const accounts = state.accounts.filter((a) => a.teamId === advisor.currentTeamId);
  const ids = new Set(accounts.map((a) => a.id));
  const forms = state.forms.filter((f) => ids.has(f.account_id));
  const within = (ts: string | null) => ts !== null && ts.slice(0, 10) >= start && ts.slice(0, 10) <= end;
  return {
    prospects: accounts.filter((a) => a.type === 'PROSPECT' && within(a.created_at)).length,
    clients: accounts.filter((a) => a.type === 'CLIENT' && within(a.created_at)).length,
    sent_forms: forms.filter((f) => within(f.created_at)).length,
    closed_forms: forms.filter((f) => within(f.closed_at)).length,
  };
}

test('Home shows the sandbox’s statistics; the feed filtered by form.sent opens the account of an entry', async ({
  page,
  servers,
}) => {
  // A household prepared at the platform's 60 requests a minute takes about half a minute.
  test.setTimeout(240_000);
  await page.goto(servers.host.url);
  await signIn(page, ADVISOR, 'sandbox', '/');
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();

  // The default range, the last 30 days, as the sandbox counts them.
  const today = new Date();
  const monthAgo = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 29);
  const month = expectedStats(servers, localDay(monthAgo), localDay(today));
  const stats = page.getByTestId('home-stats');
  await expect(stats.getByTestId('stats-as-of')).toContainText('as of', { timeout: 30_000 });
  for (const [measure, total] of Object.entries(month))
    await expect(stats.getByTestId(`stats-${measure}`).getByTestId('stats-total')).toHaveText(String(total));
  // A bar per day, each day's figure in the chart's table.
  await expect(stats.getByTestId('stats-sent_forms').locator('tbody tr')).toHaveCount(30);
  // The sandbox has made some of each in a month, or this test would prove little.
  expect(month.sent_forms + month.prospects + month.clients).toBeGreaterThan(0);

  // This year: from the same download, no new request needed.
  await page.getByTestId('stats-range').getByText('This year').click();
  const year = expectedStats(servers, `${today.getFullYear()}-01-01`, localDay(today));
  for (const [measure, total] of Object.entries(year))
    await expect(stats.getByTestId(`stats-${measure}`).getByTestId('stats-total')).toHaveText(String(total));
  await page.getByTestId('stats-range').getByText('Last 30 days').click();
  await expect(page.getByTestId('home-activity').getByTestId('activity-entry').first()).toBeVisible();
  await bothThemes(page, 'home', 400);
  // Nothing waits here; the link to the sync panel opens it.
  await expect(page.getByTestId('home-pending')).toHaveText('Nothing waiting to be sent');
  await page.getByTestId('home-changes').getByRole('button', { name: 'Open the sync panel' }).click();
  await expect(page.getByTestId('sync-panel')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('sync-panel')).toBeHidden();

  // Activity: the feed, then only the forms sent.
  await page.getByRole('navigation').getByRole('link', { name: 'Activity' }).click();
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  const state = servers.platform.control.store().state;
  const advisor = state.users.find((u) => u.email === ADVISOR)!;
  const feed = state.userActivities.filter((a) => a.teamId === advisor.currentTeamId);
  await expect(page.getByTestId('activity-count')).toHaveText(`${feed.length} entries`, { timeout: 30_000 });
  await expect(page.getByTestId('activity-entry').first()).toBeVisible();
  await bothThemes(page, 'activity');

  await page.getByTestId('activity-type-filter').click();
  await page.getByRole('option', { name: 'Form sent', exact: true }).click();
  const sent = feed
    .filter((a) => a.type === 'form.sent')
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id));
  await expect(page.getByTestId('activity-count')).toHaveText(`${sent.length} entries of this type`);
  await expect(page).toHaveURL(/type=form\.sent/);
  const entries = page.getByTestId('activity-entry');
  await expect(entries.first()).toHaveAttribute('data-type', 'form.sent');
  const types = await Promise.all((await entries.all()).map((e) => e.getAttribute('data-type')));
  expect(new Set(types)).toEqual(new Set(['form.sent']));
  await expect(entries.first()).toContainText('Form sent');

  // The newest form sent: the sandbox's form made at that moment names its account.
  const newest = sent[0]!;
  const form = state.forms.find((f) => f.created_at === newest.created_at)!;
  const account = state.accounts.find((a) => a.id === form.account_id)!;
  const name = `${account.client.first_name} ${account.client.last_name}`;
  await expect(entries.first()).toContainText(name);
  await entries.first().getByTestId('activity-account-link').click();
  await expect(page.getByTestId('workspace-title')).toContainText(name);
  // An entry about a form opens the household's Forms tab: the feed names no form.
  await expect(page.getByRole('tab', { name: 'Forms' })).toHaveAttribute('aria-selected', 'true');

  // ---- Prepared for a meeting from Home, still listed after a reload ----------------------------
  const household = activeAccounts(servers).find((a) => !a.coclient && !a.favorited)!;
  await page.getByRole('navigation').getByRole('link', { name: 'Home' }).click();
  const meeting = page.getByTestId('home-meeting');
  await expect(meeting.getByTestId('home-prepared-none')).toContainText('until you clear the list');
  await meeting.getByRole('button', { name: 'Prepare…' }).click();
  const dialog = page.getByTestId('prepare-dialog');
  await dialog.getByTestId('prepare-search').fill(household.client.email);
  await dialog.getByTestId('prepare-result').filter({ hasText: household.client.last_name }).click();
  await dialog.getByTestId('prepare-start').click();
  await expect(dialog.locator('[data-testid="household-step"][data-state="ready"]')).toHaveCount(1, {
    timeout: 120_000,
  });
  await dialog.getByTestId('prepare-close').click();
  const listed = meeting.getByTestId('household-step');
  await expect(listed).toHaveCount(1);
  await expect(listed.first()).toContainText(household.client.last_name);
  await expect(listed.first()).toHaveAttribute('data-state', 'ready');
  // "Ready offline", with its files kept when it has some.
  const readyWords = (await listed.first().getByTestId('household-state').textContent())?.trim() ?? '';
  expect(readyWords).toMatch(/^Ready offline(, with \d+ files?)?$/);

  // Loaded again: still listed, ready from what the store holds; and Home, opened again within
  // minutes of its last pull, asks nothing of /user/stats or the feed, until Refresh.
  const figures: string[] = [];
  // The preview's bridge carries each platform request in its body (common/bridge/http.ts).
  page.on('request', (r) => {
    const body = r.postData() ?? '';
    if (r.url().includes('/__bridge/') && /\/user\/(stats|activities)/.test(body)) figures.push(body);
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await expect(listed).toHaveCount(1, { timeout: 30_000 });
  await expect(listed.first()).toContainText(household.client.last_name);
  await expect(listed.first()).toHaveAttribute('data-state', 'ready');
  await expect(listed.first().getByTestId('household-state')).toHaveText(readyWords);
  await expect(listed.first().getByTestId('household-detail')).toContainText('Prepared');
  await expect(page.getByTestId('stats-as-of')).toContainText('as of');
  expect(figures).toEqual([]);
  await page.getByTestId('home-refresh').click();
  await expect.poll(() => figures.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);

  // Cleared: the preparation ends, and stays ended after a reload.
  await meeting.getByTestId('home-prepared-clear').click();
  await expect(meeting.getByTestId('home-prepared-none')).toBeVisible();
  await page.reload();
  await expect(meeting.getByTestId('home-prepared-none')).toBeVisible({ timeout: 30_000 });
  await expect(listed).toHaveCount(0);
});
