// Issue 24, point 6: in the browser preview, a save that moves a base address to `/` of the same
// server (which keeps the sign-in) is asked first, as Electron asks in its native dialog, and
// nothing is saved until the advisor agrees. The test is the page: it waits for the host's
// question (…/__question) and answers it (…/__answer/<id>), as renderer/src/common/bridge/http.ts
// does behind the browser's confirm dialog.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreviewHost, type PreviewHost } from '../../electron/preview/host.ts';
import { sandboxProfile, type ConnectionProfile } from '@shared/settings.ts';
import { sandbox } from '../support/sandbox.ts';
import { openPrintedAddress, signInOnThePage } from './preview-client.ts';

const platform = sandbox({ accounts: 3 });
let host: PreviewHost;
let dir: string;
let headers: Record<string, string>;

interface Question {
  id: string;
  title: string;
  message: string;
  detail: string;
  agree: string;
}

const post = (path: string, body: unknown) =>
  fetch(`${host.url}/${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

async function call<T>(channel: string, ...args: unknown[]): Promise<T> {
  const res = await post(`__bridge/${channel}`, args);
  expect(res.status, channel).toBe(200);
  return ((await res.json()) as { value: T }).value;
}

/** What the page's wait for a question receives. */
async function nextQuestion(): Promise<Question | null> {
  const res = await post('__question', null);
  expect(res.status).toBe(200);
  return ((await res.json()) as { question: Question | null }).question;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'preview-address-'));
  mkdirSync(join(dir, 'renderer'));
  writeFileSync(join(dir, 'renderer', 'preview.html'), '<!doctype html><title>t</title>');
  host = await startPreviewHost({
    port: 0,
    rendererDir: join(dir, 'renderer'),
    dataDir: join(dir, 'data'),
    defaultProfile: sandboxProfile(platform.url),
  });
  const { cookie } = await openPrintedAddress(host.openUrl());
  headers = { cookie, origin: new URL(host.url).origin, 'content-type': 'application/json' };
  const begun = await call<{ ok: boolean; flowId: string; url: string }>('auth.beginSignIn', 'both');
  await signInOnThePage(begun.url);
  expect(await call<{ ok: boolean }>('auth.finishSignIn', begun.flowId)).toMatchObject({ ok: true });
});

afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a base address moved to / of the same server, in the preview', () => {
  it('is asked first, naming both addresses and that the sign-in is kept; Cancel saves nothing', async () => {
    const before = (await call<{ profile: ConnectionProfile }>('settings.get')).profile;
    const moved = { ...before, v2: { ...before.v2, baseUrl: `${platform.url}/` } };
    const saving = call<{ ok: boolean; cancelled?: boolean }>('settings.saveProfile', moved);
    const question = await nextQuestion();
    expect(question).toMatchObject({
      title: 'Connection profile',
      message: 'Change the platform addresses?',
      agree: 'Change addresses',
    });
    expect(question?.detail).toContain(
      `Version 2 address\n    from ${platform.url}/api/v2\n    to   ${platform.url}`,
    );
    expect(question?.detail).toContain('a sign-in saved for it is kept (same server)');
    // Nothing is saved while the question waits.
    expect((await call<{ profile: ConnectionProfile }>('settings.get')).profile).toEqual(before);

    expect(await (await post(`__answer/${question?.id}`, { agree: false })).json()).toEqual({ ok: true });
    expect(await saving).toEqual({ ok: false, cancelled: true });
    expect((await call<{ profile: ConnectionProfile }>('settings.get')).profile).toEqual(before);
    // An answered question is gone: answering it again changes nothing.
    expect((await post(`__answer/${question?.id}`, { agree: true })).status).toBe(404);
  });

  it('is saved once the advisor agrees, and the sign-in is kept', async () => {
    const before = (await call<{ profile: ConnectionProfile }>('settings.get')).profile;
    const moved = { ...before, v2: { ...before.v2, baseUrl: `${platform.url}/` } };
    const saving = call<{ ok: boolean }>('settings.saveProfile', moved);
    const question = await nextQuestion();
    await post(`__answer/${question?.id}`, { agree: true });
    expect(await saving).toMatchObject({ ok: true });
    const after = (await call<{ profile: ConnectionProfile }>('settings.get')).profile;
    expect(after.v2.baseUrl).toBe(platform.url);
    const status = await call<{ v2: { signedIn: boolean } }>('auth.status');
    expect(status.v2.signedIn).toBe(true);

    // The sign-in kept, the bearer still never goes to the sign-in server's own paths.
    const stats = () => platform.control.stats().total;
    const sent = stats();
    for (const path of ['/oauth/token', '/oauth/authorize', '/.well-known/openid-configuration']) {
      const refused = await call<{ ok: boolean; kind: string; message: string }>('api.request', {
        api: 'v2',
        method: 'GET',
        path,
      });
      expect(refused, path).toMatchObject({ ok: false, kind: 'validation' });
      expect(refused.message, path).toMatch(/is the sign-in server's .*nothing was sent/);
    }
    expect(stats()).toBe(sent);
  });

  it('only the page may wait for or answer a question', async () => {
    const stranger = { ...headers, origin: 'http://evil.example' };
    for (const path of ['__question', '__answer/x'])
      expect(
        (await fetch(`${host.url}/${path}`, { method: 'POST', headers: stranger, body: '{}' })).status,
        path,
      ).toBe(403);
    expect(
      (await fetch(`${host.url}/__question`, { method: 'POST', headers: { ...headers, cookie: '' } })).status,
    ).toBe(403);
  });
});
