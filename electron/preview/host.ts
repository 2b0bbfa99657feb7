// The browser preview's host: serves the renderer build and the Bridge over HTTP, running the same
// main-side services as Electron with Node stand-ins for its ports. It listens on loopback only and
// answers bridge calls only from its own page (Host, Origin and a per-run key all checked).

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import type { ConnectionProfile } from '@shared/settings.ts';
import { MemorySecretStore } from '../main/auth/memory-secret-store.ts';
import { dispatch, InvalidBridgeCall } from '../main/bridge/handlers.ts';
import { startupFacts } from '../main/diagnostics/diagnostics-log.ts';
import { electronLogFile } from '../main/diagnostics/log-file.ts';
import { uniqueName } from '../main/files/file-names.ts';
import { resolveInside } from '../main/paths.ts';
import { CONTENT_SECURITY_POLICY } from '../main/security.ts';
import { createServices, type MainServices } from '../main/services.ts';
import { decodeBridgeArgs } from '@shared/bridge-wire.ts';
import { JsonFileStore } from './json-file-store.ts';

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
  url: string;
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
/** The version `npm start` and `npm run web` run (the preview has no packaged app to ask). */
const APP_VERSION = process.env.npm_package_version ?? 'development';

export async function startPreviewHost(options: PreviewHostOptions): Promise<PreviewHost> {
  const key = randomBytes(24).toString('base64url');
  const downloads = join(options.dataDir, 'downloads');
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
    cacheDir: join(options.dataDir, 'files'),
    logFile,
    ...(options.defaultProfile ? { defaultProfile: options.defaultProfile } : {}),
  });
  let origin = '';

  const sameKey = (given: string | undefined) => {
    const a = Buffer.from(given ?? '');
    const b = Buffer.from(key);
    return a.length === b.length && timingSafeEqual(a, b);
  };

  async function serveFile(req: IncomingMessage, res: ServerResponse, path: string) {
    const file = resolveInside(options.rendererDir, path === '/' ? '/index.html' : path);
    if (!file) return send(res, 404, 'text/plain', 'Not found');
    try {
      let body: Buffer | string = await readFile(file);
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      if (extname(file) === '.html')
        body = body
          .toString('utf8')
          .replace('<head>', `<head><meta name="advisor-preview-key" content="${key}">`);
      res.setHeader('cache-control', extname(file) === '.html' ? 'no-store' : 'public, max-age=3600');
      return send(res, 200, type, body);
    } catch {
      return send(res, 404, 'text/plain', `Not found: ${req.url ?? ''}`);
    }
  }

  async function serveBridge(req: IncomingMessage, res: ServerResponse, channel: string) {
    // Only the page this host served may call: same origin, and the key it put in that page.
    if (req.headers.origin !== origin || !sameKey(req.headers['x-advisor-key'] as string | undefined)) {
      return send(
        res,
        403,
        'application/json',
        JSON.stringify({
          error: 'Bridge calls are accepted from the Advisor Desk page of this preview only.',
        }),
      );
    }
    const raw = await readBody(req);
    if (raw === null)
      return send(res, 413, 'application/json', JSON.stringify({ error: 'The request is too large.' }));
    try {
      const args = decodeBridgeArgs(JSON.parse(raw || '[]'));
      const value = await dispatch(services.handlers, channel, args);
      return send(res, 200, 'application/json', JSON.stringify({ value: value ?? null }));
    } catch (error) {
      const status = error instanceof InvalidBridgeCall || error instanceof SyntaxError ? 400 : 500;
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
    if (
      req.headers.host !== new URL(origin).host &&
      req.headers.host !== `localhost:${new URL(origin).port}`
    ) {
      return send(res, 421, 'text/plain', 'Misdirected request');
    }
    const url = new URL(req.url ?? '/', origin);
    const bridge = /^\/__bridge\/([a-zA-Z]+\.[a-zA-Z]+)$/.exec(url.pathname);
    if (bridge && req.method === 'POST') return void serveBridge(req, res, bridge[1] as string);
    if (req.method === 'GET' || req.method === 'HEAD') return void serveFile(req, res, url.pathname);
    return send(res, 405, 'text/plain', 'Method not allowed');
  });
  server.requestTimeout = 0; // finishSignIn waits for the user for minutes
  // A port that is taken rejects (EADDRINUSE), so the caller can take another.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  services.diagnostics.started(
    startupFacts({ appVersion: APP_VERSION, electron: null, chrome: null }, services.settings.profile()),
  );
  return {
    url: origin,
    services,
    close: () =>
      new Promise<void>((resolve) => {
        // Requests still under way end after the host: what they report goes nowhere, rather
        // than into a data folder its owner may already be removing.
        logFile.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        resolve(null);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
