// The redirect listener of one sign-in (RFC 8252 §7.3): http://127.0.0.1:<ephemeral port>/callback,
// accepts exactly one callback carrying the expected state, shows the browser a small page, closes.

import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const HOST = '127.0.0.1';
const CALLBACK_PATH = '/callback';

/** What the browser tab shows at the end of a sign-in, in plain words. */
export interface ResultPage {
  status: number;
  title: string;
  message: string;
}

export interface RedirectListener {
  /** `http://127.0.0.1:<port>/callback`, the redirect_uri of the authorization request. */
  readonly redirectUri: string;
  /**
   * Resolves with the first callback that carries the expected state. Callbacks with another state
   * (or none) are refused with a page and the listener keeps waiting: a stray or forged request
   * must not end the user's sign-in. Never rejects; stays pending if the listener closes first.
   */
  readonly callback: Promise<URL>;
  /** Answers the browser that brought the accepted callback (if it still waits), then closes. */
  finish(page: ResultPage): Promise<void>;
  /** Closes the listener; a browser still waiting gets a short "no longer waiting" page. */
  close(): Promise<void>;
}

const NOT_WAITING: ResultPage = {
  status: 410,
  title: 'Sign-in no longer in progress',
  message: 'Advisor Desk is no longer waiting for this sign-in. Return to Advisor Desk and start it again.',
};

/** Starts listening on 127.0.0.1 with a port chosen by the system. */
export async function listenForRedirect(expectedState: string): Promise<RedirectListener> {
  let accepted = false;
  let closed = false;
  let waiting: ServerResponse | null = null;
  let deliver: (url: URL) => void = () => undefined;
  const callback = new Promise<URL>((resolve) => (deliver = resolve));

  const server = createServer((req, res) => {
    const answer = respond(req, res);
    if (answer) send(res, answer);
  });
  // Requests never carry a body worth waiting for; keep slow or idle clients from holding it open.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
  const origin = `http://${HOST}:${port}`;

  /** The page for a request, or null when the request is the accepted callback (answered later). */
  function respond(req: IncomingMessage, res: ServerResponse): ResultPage | null {
    // Another host name means a page in the browser reached us through DNS rebinding: refuse.
    if (req.headers.host !== `${HOST}:${port}`)
      return { status: 400, title: 'Wrong address', message: 'This address is not served here.' };
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname !== CALLBACK_PATH)
      return { status: 404, title: 'Not found', message: 'There is nothing at this address.' };
    if (req.method !== 'GET') {
      res.setHeader('allow', 'GET');
      return {
        status: 405,
        title: 'Not allowed',
        message: 'This address only answers the sign-in redirect.',
      };
    }
    if (accepted || closed)
      return {
        status: 409,
        title: 'Sign-in already handled',
        message: 'Advisor Desk has already received this sign-in. You can close this tab.',
      };
    if (!sameSecret(url.searchParams.get('state'), expectedState)) {
      return {
        status: 400,
        title: 'Sign-in not recognised',
        message:
          'This address does not belong to the sign-in Advisor Desk is waiting for. Return to Advisor Desk and start the sign-in again if needed.',
      };
    }
    accepted = true;
    waiting = res;
    deliver(url);
    return null;
  }

  async function shutDown(page: ResultPage): Promise<void> {
    if (waiting && !waiting.writableEnded) send(waiting, page);
    waiting = null;
    if (closed) return;
    closed = true;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Browsers keep connections alive; without this close() would wait for them to time out.
      server.closeAllConnections();
    });
  }

  return {
    redirectUri: `${origin}${CALLBACK_PATH}`,
    callback,
    finish: (page) => shutDown(page),
    close: () => shutDown(NOT_WAITING),
  };
}

/** Constant-time comparison, so the state cannot be guessed a character at a time. */
function sameSecret(received: string | null, expected: string): boolean {
  if (received === null) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(received), digest(expected));
}

function send(res: ServerResponse, page: ResultPage): void {
  res.writeHead(page.status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    connection: 'close',
  });
  res.end(html(page));
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function html(page: ResultPage): string {
  const title = escapeHtml(page.title);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · Advisor Desk</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;background:#f3f5f8;color:#1d2433;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;padding:32px 36px;border-radius:10px;box-shadow:0 2px 12px #0002;max-width:420px}h1{font-size:20px;margin:0 0 8px}</style>
</head><body><main><h1>${title}</h1><p>${escapeHtml(page.message)}</p></main></body></html>`;
}
