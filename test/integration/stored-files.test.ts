// A household's stored files against the sandbox platform over real HTTP, through the real
// transport and the main process's file services, with the local store in fake-indexeddb: prepared
// for a meeting, its member photo and its Documents item are downloaded into the advisor's offline
// cache (with progress while they come); with the network gone they open from there, the same
// bytes the platform holds, and a file of a household never prepared says "Not downloaded yet"
// without a request.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileTransfer } from '@shared/bridge.ts';
import { sandboxProfile } from '@shared/settings.ts';
import { FileService } from '../../electron/main/files/file-service.ts';
import { StoredFiles } from '../../electron/main/files/stored-files.ts';
import { Transport } from '../../electron/main/transport/transport.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { previewAddress } from '../../renderer/src/data/engagement-previews.ts';
import { accountFiles, firmLogoFile } from '../../renderer/src/data/stored-files.ts';
import type { AccountRecord } from '../platform/model.ts';
import type { Platform } from '../platform/server.ts';
import { loneCoordinator, onSandbox, untilState } from './coordinator-harness.ts';
import { ADVISOR, SandboxTokens, type SandboxClient } from '../support/sandbox-client.ts';

let platform: Platform;
let advisor: SandboxClient;
let db: AdvisorDb;
const cleanup: (() => Promise<void> | void)[] = [];

onSandbox(16, cleanup, (world) => ({ platform, advisor, db } = world));

const ALEX = 'a1'.repeat(16);
/** The names Save… dialogs were asked with. */
const chosenNames: string[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The main process's file services over a transport of their own: every address it fetched, and a switch for the network. */
function mainSide() {
  const dir = mkdtempSync(join(tmpdir(), 'stored-files-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const net = { up: true, sent: [] as string[], viewed: [] as string[] };
  const transport = new Transport({
    profile: () => ({ ...sandboxProfile(platform.url), rateLimitPerMinute: 1_000_000 }),
    tokens: new SandboxTokens(platform, ADVISOR),
    // Real HTTP, the file's body handed on a chunk at a time a little apart, so its progress shows.
    fetch: async (input, init) => {
      const url = input instanceof Request ? input.url : input.toString();
      net.sent.push(url);
      if (!net.up)
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('getaddrinfo EAI_AGAIN'), { code: 'EAI_AGAIN' }),
        });
      const res = await globalThis.fetch(input, init);
      if (!res.body) return res;
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const slow = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          await sleep(15);
          controller.enqueue(value);
        },
      });
      return new Response(slow, { status: res.status, headers: res.headers });
    },
  });
  cleanup.push(() => transport.dispose());
  const platformFiles = {
    download: transport.download.bind(transport),
    address: transport.downloadAddress.bind(transport),
  };
  const files = new FileService(
    platformFiles,
    join(dir, 'cache'),
    // Save… is cancelled; the name it was asked with is recorded.
    (name) => (chosenNames.push(name), Promise.resolve(null)),
    () => Promise.resolve(ALEX),
    { kind: 'none', mark: () => Promise.resolve() },
  );
  const stored = new StoredFiles(files, platformFiles, (path) => {
    net.viewed.push(path);
    return Promise.resolve('');
  });
  return { net, stored, files };
}

/** The bytes the platform stores for a file, by its id. */
function platformBytes(fileId: string): Buffer {
  const file = platform.control.dump().files[fileId];
  if (!file) throw new Error(`the platform holds no file ${fileId}`);
  return Buffer.from(file.data, 'base64');
}

function teamAccounts(): AccountRecord[] {
  const state = platform.control.dump();
  const team = state.users.find((u) => u.email === ADVISOR)?.currentTeamId;
  return state.accounts.filter((a) => a.teamId === team && !a.archived);
}

/** A PDF-looking file large enough to arrive in several chunks. */
function statement(): Uint8Array {
  const bytes = new Uint8Array(600_000);
  bytes.set(new TextEncoder().encode('%PDF-1.4\n'));
  for (let i = 9; i < bytes.length; i++) bytes[i] = (i * 31) % 251;
  return bytes;
}

describe('stored files of a household prepared for a meeting', () => {
  it('are kept offline with progress, then open from this computer with the network gone', async () => {
    const { net, stored } = mainSide();
    const household = teamAccounts().find((a) => a.client.photo);
    const other = teamAccounts().find((a) => a !== household && a.client.photo);
    if (!household || !other) throw new Error('The seed has too few households with a member photo.');
    const pdf = statement();
    const added = await advisor.send({
      api: 'v0',
      method: 'POST',
      path: `/accounts/${household.id}/documents`,
      files: [{ field: 'file', name: 'statement 2026.pdf', type: 'application/pdf', bytes: pdf }],
    });
    expect(added.ok).toBe(true);

    const c = loneCoordinator(db, advisor.send, cleanup, {
      pull: { recentAccounts: 0 },
      keepFiles: (files) => stored.keep(files),
    });
    c.start();
    await untilState(c, (s) => s.phase === 'idle' && s.lastSyncedAt !== null, cleanup, 20_000);
    const local = async (serverId: number) => (await db.accounts.where('serverId').equals(serverId).first())!;
    const row = await local(household.id);

    // Progress read as the main process reports it while the files come.
    const seen: FileTransfer[] = [];
    let watching = true;
    const watch = (async () => {
      while (watching) {
        seen.push(...(await stored.underWay()));
        await sleep(5);
      }
    })();
    await c.prepareForMeeting([row.id]);
    watching = false;
    await watch;

    const files = await accountFiles(db, row.id);
    const photo = files.find((f) => f.source === 'member' && f.label === 'Photo' && f.member === 'client');
    const document = files.find((f) => f.source === 'documents');
    expect(photo?.name).toBe(platform.control.dump().files[household.client.photo!]?.name);
    expect(document).toMatchObject({ api: 'v0', name: 'statement 2026.pdf', image: false });
    expect(c.state.households).toEqual([
      expect.objectContaining({
        accountId: row.id,
        state: 'ready',
        files: { done: files.length, total: files.length },
      }),
    ]);

    // The document came in chunks, counted up to the length the platform announced.
    const progress = seen.filter((t) => t.url === document!.url);
    expect(progress.length).toBeGreaterThan(1);
    // Its length is known once the platform answers (null while the request waits its turn).
    expect(new Set(progress.map((t) => t.total).filter((n) => n !== null))).toEqual(new Set([pdf.length]));
    expect(progress.some((t) => t.bytes > 0 && t.bytes < pdf.length)).toBe(true);
    const counted = progress.map((t) => t.bytes);
    expect(counted).toEqual([...counted].sort((a, b) => a - b));

    // Every file of the household is kept.
    const kept = await stored.kept(files.map(({ api, url }) => ({ api, url })));
    expect(kept.every((k) => k.kept)).toBe(true);

    // ---- The network goes: they open from the cache, the platform's bytes, and nothing is sent ----
    net.up = false;
    platform.control.maintenance(true);
    const sentBefore = net.sent.length;
    const documentId = /\/files\/([^/]+)\//.exec(document!.url)?.[1] ?? '';
    for (const [file, bytes] of [
      [photo!, platformBytes(household.client.photo!)],
      [document!, platformBytes(documentId)],
    ] as const) {
      const opened = await stored.open({ api: file.api, url: file.url, name: file.name });
      expect(opened, file.name).toMatchObject({ ok: true, shown: 'viewer', from: 'kept' });
      if (!opened.ok) continue;
      expect(net.viewed.at(-1)).toBe(opened.path);
      // The viewer gets a copy of the kept file, never the kept file itself.
      expect(opened.path, file.name).not.toMatch(/[/\\]\.kept[/\\]/);
      expect(readFileSync(opened.path).equals(bytes), file.name).toBe(true);
    }
    expect(Buffer.from(platformBytes(documentId)).equals(Buffer.from(pdf))).toBe(true);

    // A household never prepared: its photo is not here, and offline nothing is asked for.
    const otherPhoto = (await accountFiles(db, (await local(other.id)).id)).find((f) => f.image);
    const elsewhere = otherPhoto ?? {
      api: 'v0' as const,
      url: `${platform.url}/api/v0/files/${other.client.photo}/x.png`,
      name: 'x.png',
    };
    expect(await stored.open({ ...elsewhere, keptOnly: true })).toMatchObject({
      ok: false,
      notKept: true,
      error: { message: 'Not downloaded yet — available when online.' },
    });
    expect(net.sent.length).toBe(sentBefore);
    platform.control.maintenance(false);
  });

  it('open and save a document under the name the platform gave it, whatever the window calls it', async () => {
    const { stored, net } = mainSide();
    const household = teamAccounts()[0]!;
    // Bytes uploaded as a picture (as a compromised window could), then asked to open as RTF.
    const rtf = new TextEncoder().encode('{\\rtf1 {\\object\\objemb payload}}');
    const added = await advisor.send({
      api: 'v0',
      method: 'POST',
      path: `/accounts/${household.id}/documents`,
      files: [{ field: 'file', name: 'minutes.png', type: 'image/png', bytes: rtf }],
    });
    expect(added.ok).toBe(true);
    const id = Object.values(platform.control.dump().files).find((f) => f.name === 'minutes.png')?.id;
    const url = `${platform.url}/api/v0/files/${id}/minutes.png`;

    const opened = await stored.open({ api: 'v0', url, name: 'minutes.rtf' });
    expect(opened).toMatchObject({ ok: true, shown: 'viewer' });
    expect(net.viewed.map((path) => path.split(/[/\\]/).pop())).toEqual(['minutes.png']);
    const saved = await stored.save({ api: 'v0', url, name: 'minutes.doc' });
    expect(saved).toMatchObject({ ok: false, cancelled: true });
    expect(chosenNames).toEqual(['minutes.png']);
  });

  it('a file the platform fails to send leaves the household not ready, saying so; trying again makes it ready', async () => {
    const { stored } = mainSide();
    const household = teamAccounts().find((a) => a.client.photo)!;
    const c = loneCoordinator(db, advisor.send, cleanup, {
      pull: { recentAccounts: 0 },
      keepFiles: (files) => stored.keep(files),
    });
    c.start();
    await untilState(c, (s) => s.phase === 'idle' && s.lastSyncedAt !== null, cleanup, 20_000);
    const row = (await db.accounts.where('serverId').equals(household.id).first())!;
    platform.control.setFaults({
      queue: [{ kind: 'server-error', path: `/files/${household.client.photo}/`, count: 1 }],
    });

    await c.prepareForMeeting([row.id]);

    const [step] = c.state.households;
    expect(step).toMatchObject({ accountId: row.id, state: 'failed' });
    expect(step?.reason).toMatch(/^A file could not be kept offline: /);
    const photoUrl = (await accountFiles(db, row.id)).find((f) => f.label === 'Photo')!.url;
    expect(await stored.kept([{ api: 'v0', url: photoUrl }])).toEqual([
      { url: photoUrl, kept: false, bytes: null },
    ]);

    await c.retryPreparation(row.id);

    expect(c.state.households).toEqual([
      expect.objectContaining({ accountId: row.id, state: 'ready', reason: null }),
    ]);
    expect((await stored.kept([{ api: 'v0', url: photoUrl }]))[0]?.kept).toBe(true);
  });

  it('keep the firm’s logo beside them, which an export then reads from this computer alone', async () => {
    const { net, stored, files } = mainSide();
    const household = teamAccounts()[0]!;
    const c = loneCoordinator(db, advisor.send, cleanup, {
      pull: { recentAccounts: 0 },
      keepFiles: (kept) => stored.keep(kept),
    });
    c.start();
    await untilState(c, (s) => s.phase === 'idle' && s.lastSyncedAt !== null, cleanup, 20_000);
    // The logo as the configuration pull kept it: the address of the advisor's company_logo.
    const logoId = platform.control.dump().users.find((u) => u.email === ADVISOR)?.company_logo;
    const logo = await firmLogoFile(db);
    expect(logo?.url).toContain(`/files/${logoId}/`);

    // Not kept yet: this computer's copy alone is asked for, and nothing is sent.
    const sent = net.sent.length;
    expect(await files.preview({ api: 'v0', url: logo!.url, keptOnly: true })).toMatchObject({
      ok: false,
      error: { message: 'Not downloaded yet — available when online.' },
    });
    expect(net.sent.length).toBe(sent);

    const row = (await db.accounts.where('serverId').equals(household.id).first())!;
    await c.prepareForMeeting([row.id]);
    expect(c.state.households).toEqual([expect.objectContaining({ accountId: row.id, state: 'ready' })]);

    // Offline, the platform's bytes, from this computer.
    net.up = false;
    platform.control.maintenance(true);
    const offline = net.sent.length;
    const kept = await files.preview({ api: 'v0', url: logo!.url, keptOnly: true });
    expect(kept.ok && Buffer.from(kept.bytes).equals(platformBytes(logoId!))).toBe(true);
    expect(net.sent.length).toBe(offline);
    platform.control.maintenance(false);
  });

  it('keep its completed questionnaires’ previews, which then show offline with no request', async () => {
    const { net, files, stored } = mainSide();
    const state = platform.control.dump();
    const done = state.engagements.filter((e) => e.status === 'COMPLETED');
    const household = teamAccounts().find((a) => done.some((e) => e.account_id === a.id));
    const other = teamAccounts().find((a) => a !== household && done.some((e) => e.account_id === a.id));
    if (!household || !other)
      throw new Error('The seed has too few households with a completed questionnaire.');
    const c = loneCoordinator(db, advisor.send, cleanup, {
      pull: { recentAccounts: 0 },
      keepFiles: (kept) => stored.keep(kept),
    });
    c.start();
    await untilState(c, (s) => s.phase === 'idle' && s.lastSyncedAt !== null, cleanup, 20_000);
    const row = (await db.accounts.where('serverId').equals(household.id).first())!;
    await c.prepareForMeeting([row.id]);
    expect(c.state.households).toEqual([expect.objectContaining({ accountId: row.id, state: 'ready' })]);
    // The other household's list is here too, but it was not prepared.
    const otherRow = (await db.accounts.where('serverId').equals(other.id).first())!;
    await c.pullEngagementsOf(otherRow.id);

    net.up = false;
    platform.control.maintenance(true);
    const offline = net.sent.length;
    for (const e of done.filter((x) => x.account_id === household.id)) {
      const here = (await db.engagements.get(e.id))!;
      const kept = await files.preview({ api: 'v2', url: previewAddress(here.server), keptOnly: true });
      expect(kept.ok, e.id).toBe(true);
      // The platform's page of this questionnaire, as it was when the household was prepared.
      expect(kept.ok && new TextDecoder().decode(kept.bytes)).toContain(`<h1>${e.title}</h1>`);
    }
    const notPrepared = (await db.engagements.get(done.find((e) => e.account_id === other.id)!.id))!;
    expect(
      await files.preview({ api: 'v2', url: previewAddress(notPrepared.server), keptOnly: true }),
    ).toMatchObject({ ok: false, error: { message: 'Not downloaded yet — available when online.' } });
    expect(net.sent.length).toBe(offline);
    platform.control.maintenance(false);
  });
});
