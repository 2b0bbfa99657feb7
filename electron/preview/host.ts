// The browser preview's host: serves the renderer build and the Bridge over HTTP, running the same
// main-side services as Electron with Node stand-ins for its ports. It listens on loopback only,
// serves everything under a per-run path, shows its page only to the browser that opened the
// printed address (page-access.ts), and answers bridge calls only from that page (Host, Origin and
// its cookie, bound to that path, all checked). The page itself carries no secret.

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import type { ConnectionProfile } from '@shared/settings.ts';
import { MemorySecretStore } from '../main/auth/memory-secret-store.ts';
import { dispatch, InvalidBridgeCall } from '../main/bridge/handlers.ts';
import { startupFacts } from '../main/diagnostics/diagnostics-log.ts';
import { electronLogFile } from '../main/diagnostics/log-file.ts';
import { privateFolder } from '../main/private-files.ts';
import { uniqueName } from '../main/files/file-names.ts';
import { resolveInside } from '../main/paths.ts';
import { CONTENT_SECURITY_POLICY } from '../main/security.ts';
import { createServices, type MainServices } from '../main/services.ts';
import { describeAddressChange } from '../main/settings/address-change.ts';
import { BYTES_RESULTS, decodeBridgeArgs, encodeBridgeArgs } from '@shared/bridge-wire.ts';
import { JsonFileStore } from './json-file-store.ts';
import { PageAccess } from './page-access.ts';
import { PageQuestions } from './questions.ts';
import { parseJsonWithin, readBody, TooDeep } from './request-body.ts';

export interface PreviewHostOptions {
  /** 0 picks a free port. */
  port?: number;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** Settings, downloads, cached files and the diagnostics log (logs/) of the preview. */
  dataDir: string;
  defaultProfile?: ConnectionProfile;
}

export interface PreviewHost {
  /**
   * The page's address without its final slash (`http://127.0.0.1:<port>/<per-run prefix>`): a
   * browser holding the cookie opens the page at `url` + `/`, the bridge is at `url` + `/__bridge/…`.
   */
  url: string;
  /** A fresh address to open the preview with: its one-time token admits one browser. */
  openUrl(): string;
  services: MainServices;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
  '.json': 'application/json',
  '.map': 'application/json',
};
const MAX_BODY = 32 * 1024 * 1024;
/** Far deeper than any bridge argument nests; what walks the arguments recurses. */
const MAX_JSON_DEPTH = 64;
/** How long the page's wait for a question is held open before it asks again. */
const QUESTION_POLL_MS = 25_000;
/** The version `npm start` and `npm run web` run (the preview has no packaged app to ask). */
const APP_VERSION = process.env.npm_package_version ?? 'development';

export async function startPreviewHost(options: PreviewHostOptions): Promise<PreviewHost> {
  if (!existsSync(join(options.rendererDir, 'preview.html')))
    throw new Error(
      `The browser preview's page is missing from ${options.rendererDir}: run \`npm run build\` first.`,
    );
  const downloads = join(options.dataDir, 'downloads');
  const questions = new PageQuestions();
  // The preview's data (settings, downloads, cached files, the log) is the user's alone.
  privateFolder(options.dataDir);
  const logFile = electronLogFile(join(options.dataDir, 'logs', 'diagnostics.log'));
  const services = createServices({
    settingsStore: new JsonFileStore(join(options.dataDir, 'settings.json')),
    secrets: new MemorySecretStore(
      'The browser preview keeps your sign-in in memory only: it is asked for again when the preview restarts.',
    ),
    // The page opens the sign-in tab itself.
    openExternal: () => Promise.resolve(false),
    // No save dialog in a browser: downloads land in the preview's folder (made on first use by
    // the file service), under a free name, as no dialog asks before replacing a file.
    chooseSavePath: (name) =>
      Promise.resolve(
        join(
          downloads,
          uniqueName(name, (n) => existsSync(join(downloads, n))),
        ),
      ),
    // The installed app asks in a native dialog; the preview asks in the page, in the browser's
    // own confirm dialog (questions.ts), and says in its terminal what it asked.
    confirmAddressChange: async (change) => {
      const question = describeAddressChange(change);
      const agreed = await questions.ask(question);
      console.info(
        `Browser preview: ${question.message} ${agreed ? 'Agreed' : 'Cancelled'}.\n${question.detail}`,
      );
      return agreed;
    },
    cacheDir: join(options.dataDir, 'files'),
    logFile,
    ...(options.defaultProfile ? { defaultProfile: options.defaultProfile } : {}),
  });
  // The preview's own page (renderer/preview.html: the app over the HTTP bridge). index.html is
  // the desktop app's, over IPC, which a browser does not have.
  const previewPage = '/preview.html';
  let origin = '';
  // Made again for the port once it is known (0 asks for a free one).
  let access = new PageAccess(0);

  /** A file of the build, `path` below the run's prefix; the caller checked the cookie. */
  async function serveFile(req: IncomingMessage, res: ServerResponse, path: string) {
    const file = resolveInside(options.rendererDir, path === '/' ? previewPage : path);
    if (!file) return send(res, 404, 'text/plain', 'Not found');
    try {
      let body: Buffer | string = await readFile(file);
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      if (extname(file) === '.html')
        body = body.toString('utf8').replace('</title>', ' (development preview)</title>');
      res.setHeader('cache-control', extname(file) === '.html' ? 'no-store' : 'public, max-age=3600');
      return send(res, 200, type, body);
    } catch {
      return send(res, 404, 'text/plain', `Not found: ${req.url ?? ''}`);
    }
  }

  /** Only the page this host served may call: same origin, and the cookie of this run's path. */
  function fromThePage(req: IncomingMessage, res: ServerResponse): boolean {
    if (access.fromOwnPage(req) && access.admitted(req)) return true;
    sendClosing(res, 403, {
      error: 'Bridge calls are accepted from the Advisor Desk page of this preview only.',
    });
    return false;
  }

  /** The page waits here for a question of the host (an address change to confirm). */
  async function serveQuestion(req: IncomingMessage, res: ServerResponse) {
    if (!fromThePage(req, res)) return;
    const left = new AbortController();
    res.on('close', () => left.abort());
    const question = await questions.next(left.signal, QUESTION_POLL_MS);
    if (left.signal.aborted) return question && questions.undelivered(question.id);
    send(res, 200, 'application/json', JSON.stringify({ question }));
  }

  async function serveAnswer(req: IncomingMessage, res: ServerResponse, id: string) {
    if (!fromThePage(req, res)) return;
    const body = await readBody(req, 1024);
    if (!body.ok)
      return body.reason === 'aborted' ? undefined : sendClosing(res, 413, { error: 'Too large.' });
    let agree: unknown;
    try {
      agree = (parseJsonWithin(body.text, 2) as { agree?: unknown } | null)?.agree;
    } catch {
      return send(res, 400, 'application/json', JSON.stringify({ error: 'The answer is not JSON.' }));
    }
    // Anything but a plain true is a Cancel.
    const known = questions.answer(id, agree === true);
    return send(res, known ? 200 : 404, 'application/json', JSON.stringify({ ok: known }));
  }

  async function serveBridge(req: IncomingMessage, res: ServerResponse, channel: string) {
    if (!fromThePage(req, res)) return;
    const body = await readBody(req, MAX_BODY);
    if (!body.ok) {
      // An aborted upload has no one left to answer.
      if (body.reason === 'aborted') return;
      return sendClosing(res, 413, { error: 'The request is too large.' });
    }
    try {
      const args = decodeBridgeArgs(parseJsonWithin(body.text || '[]', MAX_JSON_DEPTH));
      const value = await dispatch(services.handlers, channel, args);
      const sent = BYTES_RESULTS.has(channel) ? encodeBridgeArgs(value ?? null) : (value ?? null);
      return send(res, 200, 'application/json', JSON.stringify({ value: sent }));
    } catch (error) {
      const status =
        error instanceof InvalidBridgeCall || error instanceof SyntaxError || error instanceof TooDeep
          ? 400
          : 500;
      if (status === 500) console.error(`Bridge call ${channel} failed:`, error);
      return send(
        res,
        status,
        'application/json',
        JSON.stringify({
          error: status === 400 ? (error as Error).message : 'The preview host met an unexpected problem.',
        }),
      );
    }
  }

  const server = createServer((req, res) => {
    res.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    // DNS rebinding: a foreign name that resolves to 127.0.0.1 is not us.
    if (!access.addressedToUs(req)) return send(res, 421, 'text/plain', 'Misdirected request');
    const url = new URL(req.url ?? '/', origin);
    // Outside this run's path nothing is served: whatever a browser sent to another local port
    // (the path it visited there, a cookie of 127.0.0.1) opens nothing here.
    const path = access.within(url.pathname);
    if (path === null) return sendNotAdmitted(res);
    const reading = req.method === 'GET' || req.method === 'HEAD';
    if (path === '' && reading) return redirect(res, `${access.prefix}/${url.search}`);
    if (reading && url.searchParams.has('token')) return admit(req, res, url);
    const served = route(req, res, path, reading);
    // Whatever goes wrong answers this request (when it still can) and never stops the host.
    void Promise.resolve(served).catch((error: unknown) => {
      console.error('The preview host could not answer a request:', error);
      if (!res.headersSent) sendClosing(res, 500, { error: 'The preview host met an unexpected problem.' });
    });
  });

  /** What a request below this run's path asks for: the bridge, a question's wait or answer, a file. */
  function route(req: IncomingMessage, res: ServerResponse, path: string, reading: boolean) {
    if (req.method === 'POST') {
      const bridge = /^\/__bridge\/([a-zA-Z]+\.[a-zA-Z]+)$/.exec(path);
      if (bridge) return serveBridge(req, res, bridge[1] as string);
      if (path === '/__question') return serveQuestion(req, res);
      const answer = /^\/__answer\/([\w-]+)$/.exec(path);
      if (answer) return serveAnswer(req, res, answer[1] as string);
    }
    if (!reading) return send(res, 405, 'text/plain', 'Method not allowed');
    return access.admitted(req) ? serveFile(req, res, path) : sendNotAdmitted(res);
  }

  /** The printed address: trades its token for the cookie, then drops it from the address bar. */
  function admit(req: IncomingMessage, res: ServerResponse, url: URL) {
    const session = access.redeem(url.searchParams.get('token') ?? '');
    if (session === null && !access.admitted(req)) return sendNotAdmitted(res);
    url.searchParams.delete('token');
    if (session !== null) res.setHeader('set-cookie', access.cookieHeader(session));
    redirect(res, `${url.pathname}${url.search}`);
  }
  server.requestTimeout = 0; // finishSignIn waits for the user for minutes
  // Node closes an idle connection after 5 s, as long as its own clients keep one open: a
  // request sent on it as the host closes it is reset ("socket hang up"), seen from the e2e
  // tests' route.fetch under load. Kept open longer, the client is the one that closes it.
  server.keepAliveTimeout = 65_000;
  // A port that is taken rejects (EADDRINUSE), so the caller can take another.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  origin = `http://127.0.0.1:${port}`;
  access = new PageAccess(port);
  const pageUrl = `${origin}${access.prefix}`;
  services.diagnostics.started(
    startupFacts({ appVersion: APP_VERSION, electron: null, chrome: null }, services.settings.profile()),
  );
  return {
    url: pageUrl,
    openUrl: () => `${pageUrl}/?token=${access.issueToken()}`,
    services,
    close: () =>
      new Promise<void>((resolve) => {
        // Requests still under way end after the host: what they report goes nowhere, rather
        // than into a data folder its owner may already be removing.
        logFile.close();
        // An export under way leaves no temporary file in the downloads folder.
        void services.exports.cancelAll();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'cache-control': 'no-store' });
  res.end();
}

/** A JSON answer after which the connection closes: the body of the request may not have been read. */
function sendClosing(res: ServerResponse, status: number, answer: object): void {
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify(answer));
}

/** What a browser (or any other local program) without the cookie gets instead of the page. */
function sendNotAdmitted(res: ServerResponse): void {
  res.setHeader('cache-control', 'no-store');
  send(
    res,
    403,
    'text/html; charset=utf-8',
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Advisor Desk (development preview)</title></head>
<body><h1>Advisor Desk (development preview)</h1>
<p>Open the preview with the address that <code>npm start</code> (or <code>npm run web</code>) printed in its terminal.</p>
<p>That address opens the preview once, in one browser. To open it again elsewhere, stop the preview (Ctrl+C) and start it again: it prints a new address.</p>
</body></html>
`,
  );
}
