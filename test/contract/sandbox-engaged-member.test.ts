// Contract tests of what the sandbox adds for the engaged member (issue 15, part 7): the control
// endpoint with which the member opens, partly fills and completes an engagement, and the emails
// the platform would send, recorded as the create's and the engagement's email flags ask. What the
// member gave is read back through the version 2 endpoints the app uses. Also the endpoint that
// gives an engagement's preview a page of a test's own (issue 24: the hostile page).

import { beforeAll, describe, expect, it } from 'vitest';
import type { EmailRecord } from '../platform/model.ts';
import {
  TIMESTAMP,
  control,
  v2Client,
  type Account,
  type Api,
  type DataItem,
  type Engagement,
  type List,
  type Signature,
  type User,
  contractSandbox,
} from './helpers.ts';

const platform = contractSandbox();
let api: Api;
let user: User;
let account: Account;

/** The intake questionnaire: high security, with a consent signature and documents to upload. */
const intake = () => user.templates.find((t) => t.title === 'Client intake questionnaire')!;

async function send(flags: Record<string, boolean> = {}): Promise<Engagement> {
  const r = await api.post<Engagement>('/engagements', {
    template_id: intake().id,
    account_id: account.id,
    member_id: account.client.id,
    ...flags,
  });
  expect(r.status, r.text).toBe(200);
  return r.body;
}

async function member(id: string, body: unknown): Promise<Response> {
  return fetch(`${platform.url}/__sandbox/engagements/${id}/member`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const emailsOf = async (id: string) =>
  (await control<EmailRecord[]>(platform, 'emails')).filter((m) => m.engagement_id === id);

beforeAll(async () => {
  api = await v2Client(platform);
  user = (await api.get<User>('/user')).body;
  const accounts = (await api.get<List<Account>>('/accounts', { limit: 50 })).body.items;
  account = accounts.find((a) => a.client.email !== '')!;
});

describe('POST /__sandbox/engagements/{id}/member', () => {
  it('open sets opened_at; the engagement stays NEW with nothing filled', async () => {
    const e = await send();
    expect(e.opened_at).toBeNull();
    expect((await member(e.id, { action: 'open' })).status).toBe(200);
    const read = (await api.get<Engagement>(`/engagements/${e.id}`)).body;
    expect(read.opened_at).toMatch(TIMESTAMP);
    expect(read).toMatchObject({ status: 'NEW', filled: 0, completed_at: null });
  });

  it('fill answers part of it: progress and time move, the data is still refused (422)', async () => {
    const e = await send();
    expect((await member(e.id, { action: 'fill', seed: 3 })).status).toBe(200);
    const read = (await api.get<Engagement>(`/engagements/${e.id}`)).body;
    expect(read.status).toBe('NEW');
    expect(read.filled).toBeGreaterThan(0);
    expect(read.filled).toBeLessThan(100);
    expect(read.time).toBeGreaterThan(0);
    expect((await api.get(`/engagements/${e.id}/data`)).status).toBe(422);
  });

  it('complete gives answers, documents and a signature, as the version 2 endpoints list them', async () => {
    const e = await send();
    expect((await member(e.id, { action: 'complete', seed: 5 })).status).toBe(200);
    const read = (await api.get<Engagement>(`/engagements/${e.id}`)).body;
    expect(read).toMatchObject({ status: 'COMPLETED', filled: 100 });
    expect(read.completed_at).toMatch(TIMESTAMP);
    const data = (await api.get<DataItem[]>(`/engagements/${e.id}/data`)).body;
    expect(data.length).toBeGreaterThan(0);
    for (const item of data) {
      expect(item.member_id).toBe(account.client.id);
      expect(item.path).toHaveLength(3);
    }
    const documents = (await api.get<List<{ files: { url: string }[] }>>(`/engagements/${e.id}/documents`))
      .body;
    expect(documents.items.length).toBeGreaterThan(0);
    const file = await api.bytes(documents.items[0]!.files[0]!.url);
    expect(file.status).toBe(200);
    const signatures = (await api.get<List<Signature>>(`/engagements/${e.id}/signatures`)).body;
    expect(signatures.items).toHaveLength(1);
    expect(signatures.items[0]).toMatchObject({ name: read.name, email: read.email });
    const history = (await api.get<List<{ author: string }>>(`/engagements/${e.id}/history`)).body;
    expect(history.items.map((h) => h.author)).toEqual([read.name]);
  });

  it('the same engagement and seed give the same answers, completed again after a reopen', async () => {
    const e = await send();
    const answers = async () => {
      await member(e.id, { action: 'complete', seed: 11 });
      const data = (await api.get<DataItem[]>(`/engagements/${e.id}/data`)).body;
      await api.post(`/engagements/${e.id}/reopen`, {});
      return data.map((d) => [d.path.join(' / '), d.value]);
    };
    const first = await answers();
    expect(first.length).toBeGreaterThan(0);
    expect(await answers()).toEqual(first);
  });

  it('a completed engagement cannot be opened by the member until the advisor reopens it', async () => {
    const e = await send();
    await member(e.id, { action: 'complete', seed: 1 });
    expect((await member(e.id, { action: 'open' })).status).toBe(409);
    await api.post(`/engagements/${e.id}/reopen`, {});
    expect((await member(e.id, { action: 'fill', seed: 1 })).status).toBe(200);
  });

  it('refuses an unknown engagement (404) and an unknown action or field (422, named)', async () => {
    expect((await member('00000000-0000-4000-8000-000000000000', { action: 'open' })).status).toBe(404);
    const e = await send();
    const bad = await member(e.id, { action: 'sign' });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { message: string }).message).toMatch(/action must be one of open, fill/);
    const extra = await member(e.id, { action: 'open', answers: [] });
    expect(((await extra.json()) as { message: string }).message).toMatch(/no field answers/);
  });
});

describe('the preview of each version (history url)', () => {
  it('shows the answers of that version; an unknown version is 404', async () => {
    const e = await send();
    const versionAnswers: string[][] = [];
    for (const seed of [21, 22, 23]) {
      await member(e.id, { action: 'complete', seed });
      const data = (await api.get<DataItem[]>(`/engagements/${e.id}/data`)).body;
      versionAnswers.push(data.filter((d) => d.type !== 'FILE' && d.type !== 'IMAGE').map((d) => d.value));
      await api.post(`/engagements/${e.id}/reopen`, {});
    }
    const history = (
      await api.get<List<{ url: string; completed_at: string }>>(`/engagements/${e.id}/history`, {
        sort: 'created_at',
      })
    ).body.items;
    expect(history).toHaveLength(3);
    // Oldest first: the version of each seed, in turn.
    const sorted = [...history].sort((a, b) => (a.completed_at < b.completed_at ? -1 : 1));
    const pages = await Promise.all(sorted.map(async (h) => (await api.bytes(h.url)).bytes.toString('utf8')));
    const html = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    pages.forEach((page, i) => {
      expect(page).toContain(`Version completed ${sorted[i]!.completed_at}`);
      for (const value of versionAnswers[i]!) expect(page, `version ${i + 1}`).toContain(html(value));
    });
    expect(
      new Set(versionAnswers.map((v) => v.join('|'))).size,
      'the seeds gave different answers',
    ).toBeGreaterThan(1);
    const unknown = await api.bytes(
      `/engagements/${e.id}/preview?version=00000000-0000-4000-8000-000000000000`,
    );
    expect(unknown.status).toBe(404);
  });
});

describe('an engagement’s preview HTML (POST /__sandbox/engagements/{id}/preview)', () => {
  const setPreview = (id: string, body: unknown) =>
    fetch(`${platform.url}/__sandbox/engagements/${id}/preview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const previewOf = async (e: Engagement) => (await api.bytes(e.url)).bytes.toString('utf8');

  it('answers the HTML given, as given, until null brings back the page of the answers', async () => {
    const e = await send();
    const made = await previewOf(e);
    expect(made).toContain(`<h1>${e.title}</h1>`);
    const page =
      '<!doctype html><html><body><h1>Set by a test</h1><link rel="preconnect" href="http://127.0.0.1:9"></body></html>';
    expect((await setPreview(e.id, { html: page })).status).toBe(200);
    expect(await previewOf(e)).toBe(page);
    // The engagement's own fields show nothing of it.
    const shown = (await api.get<Record<string, unknown>>(`/engagements/${e.id}`)).body;
    expect(Object.keys(shown)).not.toContain('preview_html');
    expect((await setPreview(e.id, { html: null })).status).toBe(200);
    expect(await previewOf(e)).toBe(made);
  });

  it('refuses an unknown engagement (404) and html that is not a string or null (422, named)', async () => {
    const missing = await setPreview('00000000-0000-4000-8000-000000000000', { html: '<p>x</p>' });
    expect(missing.status).toBe(404);
    const e = await send();
    const bad = await setPreview(e.id, { html: 42 });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { message: string }).message).toMatch(/^html must be the page as a string/);
    const extra = await setPreview(e.id, { html: '<p>x</p>', css: '' });
    expect(((await extra.json()) as { message: string }).message).toMatch(/no field css/);
  });
});

describe('emails of an engagement (GET /__sandbox/emails)', () => {
  it('email_new sends the new-engagement email to the engaged contact; without it none', async () => {
    const withEmail = await send({ email_new: true });
    const sent = await emailsOf(withEmail.id);
    expect(sent.map(({ kind, to }) => ({ kind, to }))).toEqual([{ kind: 'new', to: account.client.email }]);
    expect(sent[0]?.at).toMatch(TIMESTAMP);
    const without = await send({ email_new: false });
    expect(await emailsOf(without.id)).toEqual([]);
  });

  it('email_reminders and email_completed decide the reminder and the thank-you email', async () => {
    const on = await send({ email_reminders: true, email_completed: true });
    await member(on.id, { action: 'remind' });
    await member(on.id, { action: 'complete', seed: 2 });
    expect((await emailsOf(on.id)).map((m) => m.kind)).toEqual(['reminder', 'completed']);
    expect((await api.get<Engagement>(`/engagements/${on.id}`)).body.reminded_at).toMatch(TIMESTAMP);
    const off = await send({ email_reminders: false, email_completed: false });
    await member(off.id, { action: 'remind' });
    await member(off.id, { action: 'complete', seed: 2 });
    expect(await emailsOf(off.id)).toEqual([]);
  });
});
