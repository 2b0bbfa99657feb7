// Issue 24, point 2: what the browser sends to another local program must not open the preview.
// A browser sends the cookies of 127.0.0.1 to every port of it, so a local server the advisor's
// browser visits (the sandbox's sign-in page is one) receives whatever cookie the preview set for
// that path. Here a second local server plays that program: it records every request Chromium
// sends it, then tries, with all it received and forged Origin and Host headers, to read the
// preview's page and to call its bridge (settings.get). It reaches neither. The same probe with
// the browser's real cookie and the page's real path does reach them, so the probe is sound.

import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures.ts';

interface OtherProgram {
  url: string;
  received: { path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** Another program on this computer: a web server on its own port, keeping what it is sent. */
async function otherProgram(): Promise<OtherProgram> {
  const received: OtherProgram['received'] = [];
  const server = createServer((req, res) => {
    received.push({ path: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Sign in</title><a id="back" href="/">back</a>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One raw request, as a program sends it: any Host and Origin it likes (fetch would not let it). */
function send(
  port: string,
  path: string,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '[]' : undefined);
  });
}

/** Every way the program tries the page and settings.get with `cookie` below each of `folders`. */
async function probe(port: string, cookie: string, folders: Iterable<string>) {
  const answers: { what: string; status: number; text: string }[] = [];
  for (const name of [`127.0.0.1:${port}`, `localhost:${port}`])
    for (const folder of folders) {
      const headers = { host: name, origin: `http://${name}`, cookie, 'content-type': 'application/json' };
      for (const page of [folder, `${folder}preview.html`, `${folder}index.html`])
        answers.push({ what: `GET ${name}${page}`, ...(await send(port, page, 'GET', headers)) });
      const bridge = `${folder}__bridge/settings.get`;
      answers.push({ what: `POST ${name}${bridge}`, ...(await send(port, bridge, 'POST', headers)) });
    }
  return answers;
}

const reached = (answers: { what: string; status: number; text: string }[]) =>
  answers.filter((a) => a.status === 200 || /"profile"|id="app"/.test(a.text));

test('another local program gets neither the page nor the bridge from what the browser sends it', async ({
  page,
  context,
  servers,
}) => {
  const other = await otherProgram();
  try {
    // The admitted browser shows the app (it read the settings through the bridge itself).
    await page.goto(servers.host.url);
    await expect(page.getByTestId('profile-name')).toHaveText('Sandbox');

    // It visits the other program: a tab the page opens (as the sign-in tab is), a link followed
    // there, and the page's own tab sent there.
    const popup = page.waitForEvent('popup');
    await page.evaluate(
      (url) => void (globalThis as unknown as { open(u: string): unknown }).open(url),
      `${other.url}/oauth/authorize?client_id=advisor-desk`,
    );
    const tab = await popup;
    await tab.locator('#back').click();
    await page.goto(`${other.url}/callback`);
    await expect.poll(() => other.received.length).toBeGreaterThanOrEqual(3);

    // What it received: no cookie of the preview and no address of its page.
    const { port } = new URL(servers.host.url);
    const cookies = new Set(other.received.map((r) => r.headers.cookie ?? ''));
    const folders = new Set(['/']);
    for (const { headers } of other.received)
      if (headers.referer) folders.add(new URL('.', headers.referer).pathname);
    for (const cookie of cookies) {
      const answers = await probe(port, cookie, folders);
      expect(reached(answers).map((a) => a.what)).toEqual([]);
    }

    // The same probe with what the browser keeps for the preview alone reaches both.
    const [own] = await context.cookies(servers.host.url);
    if (!own) throw new Error('the browser holds no cookie of the preview');
    const page2 = new URL(`${servers.host.url}/`).pathname;
    const real = await probe(port, `${own.name}=${own.value}`, [page2]);
    expect(real.filter((a) => a.status === 200).map((a) => a.what)).toEqual([
      `GET 127.0.0.1:${port}${page2}`,
      `GET 127.0.0.1:${port}${page2}preview.html`,
      `GET 127.0.0.1:${port}${page2}index.html`,
      `POST 127.0.0.1:${port}${page2}__bridge/settings.get`,
      `GET localhost:${port}${page2}`,
      `GET localhost:${port}${page2}preview.html`,
      `GET localhost:${port}${page2}index.html`,
      `POST localhost:${port}${page2}__bridge/settings.get`,
    ]);
    // The page itself holds no secret a program could read from it.
    expect(real[0]?.text).not.toMatch(/advisor-preview-key|content="[\w-]{20,}"/);
  } finally {
    await other.close();
  }
});
