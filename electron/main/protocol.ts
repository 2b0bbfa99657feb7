// Serves the built renderer on app://advisor-desk/…, from its folder and nowhere else.

import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { net, type Protocol } from 'electron';
import { APP_SCHEME } from './ipc/sender.ts';
import { resolveInside } from './paths.ts';

export function serveRenderer(protocol: Protocol, root: string, host: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const file = url.host === host ? resolveInside(root, url.pathname) : null;
    if (!file || !extname(file)) return new Response('Not found', { status: 404 });
    return net.fetch(pathToFileURL(file).toString());
  });
}
