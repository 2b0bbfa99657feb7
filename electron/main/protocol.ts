// Serves the built renderer on app://advisor-desk/…, from its folder and nowhere else.

import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { net, type Protocol } from 'electron';
import { APP_SCHEME } from './ipc/sender.ts';
import { resolveInside } from './paths.ts';
import { CONTENT_SECURITY_POLICY } from './security.ts';

export function serveRenderer(protocol: Protocol, root: string, host: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const file = url.host === host ? resolveInside(root, url.pathname) : null;
    if (!file || !extname(file)) return new Response('Not found', { status: 404 });
    const answer = await net.fetch(pathToFileURL(file).toString());
    // The policy travels with every page of the app itself; webRequest does not see custom schemes.
    const headers = new Headers(answer.headers);
    headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(answer.body, { status: answer.status, headers });
  });
}
