// electron-updater's feed as the app reads it (signed-feed-provider.ts), over real HTTP from a
// local feed, with electron-builder's Node HTTP executor standing in for Electron's net module:
// the update's metadata is taken when its signature holds for the app's key, and refused, before
// anything is downloaded, when it is signed by another key, altered, or unsigned.

import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeHttpExecutor } from 'builder-util/out/nodeHttpExecutor.js';
import type { AppUpdater } from 'electron-updater';
import type { ProviderRuntimeOptions } from 'electron-updater/out/providers/Provider.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signedFeedProvider } from '../../../electron/main/updates/signed-feed-provider.ts';

const METADATA = `version: 1.4.0
files:
  - url: Advisor-Desk-1.4.0.AppImage
    sha512: 3q2+7w8s0l2bLQ1nWgTQmQ8m3e5cY1v0rGm3bXg3y6qkF1cVt0z8G1Jc0Xk1n2m3o4p5q6r7s8t9u0v1w2x3y4==
    size: 118734592
path: Advisor-Desk-1.4.0.AppImage
sha512: 3q2+7w8s0l2bLQ1nWgTQmQ8m3e5cY1v0rGm3bXg3y6qkF1cVt0z8G1Jc0Xk1n2m3o4p5q6r7s8t9u0v1w2x3y4==
releaseDate: '2026-11-30T10:00:00.000Z'
`;

const keys = () => generateKeyPairSync('ed25519');
const release = keys();
const attacker = keys();
const signed = (text: string, privateKey: KeyObject) =>
  sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64');

/** What the feed serves: the channel file (`latest-linux.yml`, by this machine's arch) and its signature. */
let served: { metadata: string | null; signature: string | null };
let asked: string[];
let server: Server;
let feed: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.split('/').pop() ?? '';
    asked.push(name);
    const body = name.endsWith('.yml.sig')
      ? served.signature
      : name.endsWith('.yml')
        ? served.metadata
        : null;
    if (body === null) res.writeHead(404).end('not found');
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  feed = `http://127.0.0.1:${(server.address() as AddressInfo).port}/advisor-desk/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  asked = [];
  served = { metadata: null, signature: null };
});

/** The provider electron-updater would make for the feed, with the release key built in. */
function provider() {
  const SignedFeed = signedFeedProvider(release.publicKey);
  const runtime = { isUseMultipleRangeRequest: false, platform: 'linux', executor: new NodeHttpExecutor() };
  return new SignedFeed(
    { provider: 'custom', url: feed },
    { channel: null } as unknown as AppUpdater,
    runtime as unknown as ProviderRuntimeOptions,
  );
}

/** Serves the metadata and its signature (null: none, a 404); answers the channel file's name. */
function serve(metadata: string, signature: string | null): string {
  served = { metadata, signature };
  const arch = process.arch === 'x64' ? '' : `-${process.arch}`;
  return `latest-linux${arch}.yml`;
}

describe('the update feed, signed', () => {
  it('takes metadata signed by the release key, and resolves its files below the feed', async () => {
    const file = serve(METADATA, signed(METADATA, release.privateKey));
    const p = provider();
    const info = await p.getLatestVersion();
    expect(info.version).toBe('1.4.0');
    expect(asked).toEqual([file, `${file}.sig`]);
    expect(p.resolveFiles(info).map((f) => f.url.href)).toEqual([`${feed}Advisor-Desk-1.4.0.AppImage`]);
  });

  it('refuses metadata signed by another key', async () => {
    const file = serve(METADATA, signed(METADATA, attacker.privateKey));
    await expect(provider().getLatestVersion()).rejects.toThrow(
      `${file} is not signed with the key of this build: nothing was downloaded or installed`,
    );
  });

  it('refuses metadata altered after it was signed (another installer’s hash)', async () => {
    const altered = METADATA.replaceAll('sha512: 3q2+', 'sha512: 9z9+');
    const file = serve(altered, signed(METADATA, release.privateKey));
    await expect(provider().getLatestVersion()).rejects.toThrow(
      `${file} is not signed with the key of this build`,
    );
  });

  it('refuses metadata without a signature', async () => {
    const file = serve(METADATA, null);
    await expect(provider().getLatestVersion()).rejects.toThrow(`${file} has no signature (${file}.sig)`);
  });
});
