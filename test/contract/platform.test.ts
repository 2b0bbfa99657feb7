// Contract tests of the platform itself rather than of an interface: the start options, the
// control endpoints, the seed, the `--data` file across restarts, and the command line.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { State } from '../platform/model.ts';
import type { Platform } from '../platform/server.ts';
import {
  ADVISOR,
  Api,
  sleep,
  start,
  uniqueTag,
  type Account,
  type Engagement,
  type User,
  contractSandbox,
} from './helpers.ts';
import { V0Api, pdf, type FileV0, type Item } from './v0-helpers.ts';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'platform-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const OPTIONS = { seed: 5, accounts: 12 } as const;

function clients(platform: Platform) {
  const token = platform.control.token(ADVISOR).access_token;
  return {
    v2: new Api(`${platform.url}/api/v2`, token),
    v0: new V0Api(`${platform.url}/api/v0`, token),
  };
}

interface Created {
  account: Account;
  engagement: Engagement;
  item: Item;
  document: FileV0;
  bytes: Buffer;
}

/** One of each kind of record whose id the store draws: an account (uuid, PINs), an engagement, a section item, a stored file. */
async function createOneOfEach(platform: Platform): Promise<Created> {
  const { v2, v0 } = clients(platform);
  const tag = uniqueTag('rs');
  const account = await v2.post<Account>('/accounts', {
    type: 'CLIENT',
    client: { first_name: `Ria${tag}`, last_name: 'Stone', email: `ria.${tag}@example.com` },
  });
  expect(account.status, account.text).toBe(200);
  const template = (await v2.get<User>('/user')).body.templates[0]?.id;
  const engagement = await v2.post<Engagement>('/engagements', {
    template_id: template,
    account_id: account.body.id,
    member_id: account.body.client.id,
  });
  expect(engagement.status, engagement.text).toBe(200);
  const item = await v0.post<Item>(`/accounts/${account.body.id}/assets`, {
    type: 'vehicle',
    name: 'Car',
    owner: 'client',
    current_value: 9000,
  });
  expect(item.status, item.text).toBe(201);
  const file = pdf(`statement-${tag}.pdf`, ['Statement', tag]);
  const document = await v0.upload<Item>('POST', `/accounts/${account.body.id}/documents`, file, {
    relation: JSON.stringify({ type: 'client' }),
  });
  expect(document.status, document.text).toBe(201);
  return {
    account: account.body,
    engagement: engagement.body,
    item: item.body,
    document: document.body.file as FileV0,
    bytes: file.bytes,
  };
}

describe('--data across restarts', () => {
  it('continues the id stream: records made after a restart never repeat ids of the earlier run', async () => {
    const dataFile = join(dir, 'restart', 'state.json');
    const first = await start({ ...OPTIONS, dataFile });
    const before = await createOneOfEach(first);
    const uuidBefore = first.control.dump().accounts.find((a) => a.id === before.account.id)?.uuid;
    await first.close();
    expect(existsSync(dataFile)).toBe(true);

    const second = await start({ ...OPTIONS, dataFile });
    try {
      const after = await createOneOfEach(second);
      const state = second.control.dump();
      expect(after.engagement.id).not.toBe(before.engagement.id);
      expect(after.item.id).not.toBe(before.item.id);
      expect(after.document.url).not.toBe(before.document.url);
      expect(state.accounts.find((a) => a.id === after.account.id)?.uuid).not.toBe(uuidBefore);
      // Every id in the state is still unique.
      const unique = (ids: string[]) => expect(new Set(ids).size).toBe(ids.length);
      unique(state.engagements.map((e) => e.id));
      unique(state.accounts.map((a) => a.uuid));
      unique(Object.values(state.files).map((f) => f.id));
      unique(
        state.accounts.flatMap((a) =>
          Object.values(a.sections ?? {}).flatMap((items) => items.map((i) => i.id)),
        ),
      );
      // Both runs' records are there, and the earlier file still holds its own bytes.
      const { v0, v2 } = clients(second);
      expect((await v2.get(`/engagements/${before.engagement.id}`)).status).toBe(200);
      expect((await v2.get(`/engagements/${after.engagement.id}`)).status).toBe(200);
      const earlier = await v0.download(second.url + new URL(before.document.url).pathname);
      expect(earlier.status).toBe(200);
      expect(earlier.bytes.equals(before.bytes)).toBe(true);
      const later = await v0.download(after.document.url);
      expect(later.bytes.equals(after.bytes)).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('still draws fresh ids from a data file written without the stream state', async () => {
    const dataFile = join(dir, 'legacy', 'state.json');
    const first = await start({ ...OPTIONS, dataFile });
    const before = await createOneOfEach(first);
    await first.close();
    // A file of an earlier sandbox: the state alone.
    const { random: _random, ...state } = JSON.parse(readFileSync(dataFile, 'utf8')) as State & {
      random?: unknown;
    };
    writeFileSync(dataFile, JSON.stringify(state));
    const second = await start({ ...OPTIONS, dataFile });
    try {
      const after = await createOneOfEach(second);
      expect(after.engagement.id).not.toBe(before.engagement.id);
      expect(after.document.url).not.toBe(before.document.url);
      const earlier = await clients(second).v0.download(second.url + new URL(before.document.url).pathname);
      expect(earlier.bytes.equals(before.bytes)).toBe(true);
    } finally {
      await second.close();
    }
  });
});

/** A fixed anchor: sample timestamps then do not depend on the day the test runs. */
const ANCHOR = Date.UTC(2025, 0, 15);
const json = (state: unknown) => JSON.parse(JSON.stringify(state)) as unknown;

async function controlRequest(platform: Platform, method: string, path: string, body?: unknown) {
  const res = await fetch(`${platform.url}/__sandbox/${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: await res.json(),
  };
}

describe('control endpoints over HTTP', () => {
  const platform = contractSandbox({ ...OPTIONS, anchor: ANCHOR });

  it('GET /__sandbox/state answers the whole state as JSON, sections included', async () => {
    const r = await controlRequest(platform, 'GET', 'state');
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^application\/json/);
    const state = r.body as State;
    expect(state.accounts).toHaveLength(OPTIONS.accounts);
    expect(state.accounts.every((a) => a.sections !== undefined && a.singles !== undefined)).toBe(true);
    expect(state.users.map((u) => u.email)).toContain(ADVISOR);
    expect(state).toEqual(json(platform.control.dump()));
  });

  it('GET /__sandbox/stats counts interface requests by interface and status; POST stats/reset zeroes them', async () => {
    expect((await controlRequest(platform, 'POST', 'stats/reset', {})).status).toBe(200);
    const { v2, v0 } = clients(platform);
    await v2.get('/user');
    await v2.get('/accounts/999999');
    await v0.get('/user');
    await fetch(`${platform.url}/.well-known/oauth-authorization-server`).then((r) => r.text());
    const r = await controlRequest(platform, 'GET', 'stats');
    expect(r.status).toBe(200);
    // Control requests (the token, the stats themselves) are not counted.
    // Arrived: the interfaces' three (the sign-in server's metadata is not an interface request).
    expect(r.body).toEqual({
      total: 4,
      received: 3,
      byInterface: { v2: 2, v0: 1, oauth: 1 },
      byStatus: { '200': 3, '404': 1 },
    });
    expect((await controlRequest(platform, 'POST', 'stats/reset', {})).status).toBe(200);
    expect((await controlRequest(platform, 'GET', 'stats')).body).toEqual({
      total: 0,
      received: 0,
      byInterface: {},
      byStatus: {},
    });
  });

  it('POST /__sandbox/reset goes back to the seeded data, or to another seed and size', async () => {
    const seeded = json(platform.control.dump());
    const { v2 } = clients(platform);
    const account = (await v2.get<{ items: Account[] }>('/accounts', { limit: 1 })).body.items[0] as Account;
    expect((await v2.post(`/accounts/${account.id}`, { favorited: !account.favorited })).status).toBe(200);
    await createOneOfEach(platform);
    expect(json(platform.control.dump())).not.toEqual(seeded);

    expect((await controlRequest(platform, 'POST', 'reset', {})).body).toEqual({ ok: true });
    expect(json(platform.control.dump())).toEqual(seeded);
    // Tokens outlive a reset: the same client reads the seeded account.
    expect((await v2.get<Account>(`/accounts/${account.id}`)).body.favorited).toBe(account.favorited);

    expect((await controlRequest(platform, 'POST', 'reset', { seed: 6, accounts: 3 })).status).toBe(200);
    const other = platform.control.dump();
    expect(other.seed).toBe(6);
    expect(other.accounts).toHaveLength(3);
    for (const body of [{ seed: 'six' }, { accounts: -1 }, { accounts: 1e9 }, { seed: 1.5 }]) {
      const r = await controlRequest(platform, 'POST', 'reset', body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.type).toMatch(/^application\/json/);
    }
    expect(platform.control.dump().accounts).toHaveLength(3);
    await controlRequest(platform, 'POST', 'reset', { seed: OPTIONS.seed, accounts: OPTIONS.accounts });
    expect(json(platform.control.dump())).toEqual(seeded);
  });
});

describe('seed', () => {
  it('the same seed gives the same state; another seed another', async () => {
    const dumps: unknown[] = [];
    for (const seed of [OPTIONS.seed, OPTIONS.seed, OPTIONS.seed + 1]) {
      const platform = await start({ ...OPTIONS, seed, anchor: ANCHOR });
      dumps.push(json(platform.control.dump()));
      await platform.close();
    }
    expect(dumps[1]).toEqual(dumps[0]);
    expect(dumps[2]).not.toEqual(dumps[0]);
  });
});

describe('--data round trip', () => {
  it('a restart on the same file serves the state as it was, changes included', async () => {
    const dataFile = join(dir, 'round-trip.json');
    const first = await start({ ...OPTIONS, anchor: ANCHOR, dataFile });
    const made = await createOneOfEach(first);
    const { v2 } = clients(first);
    expect((await v2.post(`/accounts/${made.account.id}`, { favorited: true })).status).toBe(200);
    const before = json(first.control.dump());
    await first.close();
    // Another seed on the command line does not matter: the file is the state.
    const second = await start({ ...OPTIONS, seed: OPTIONS.seed + 9, dataFile });
    try {
      expect(json(second.control.dump())).toEqual(before);
      const again = clients(second);
      expect((await again.v2.get<Account>(`/accounts/${made.account.id}`)).body.favorited).toBe(true);
      expect((await again.v0.get<Item[]>(`/accounts/${made.account.id}/assets`)).body).toEqual([made.item]);
    } finally {
      await second.close();
    }
  });
});

describe('start options', () => {
  it('--latency delays every interface request, not OAuth or control', async () => {
    const platform = await start({ ...OPTIONS, latency: 300 });
    try {
      const { v2, v0 } = clients(platform);
      for (const request of [() => v2.get('/user'), () => v0.get('/user')]) {
        const t0 = Date.now();
        expect((await request()).status).toBe(200);
        expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
      }
      const t1 = Date.now();
      await fetch(`${platform.url}/.well-known/oauth-authorization-server`).then((r) => r.text());
      await controlRequest(platform, 'GET', 'faults');
      expect(Date.now() - t1).toBeLessThan(280);
    } finally {
      await platform.close();
    }
  });

  it('--faults sets the probability of a random fault per interface request', async () => {
    const always = await start({ ...OPTIONS, faults: 1 });
    try {
      expect(
        ((await controlRequest(always, 'GET', 'faults')).body as { probability: number }).probability,
      ).toBe(1);
      // Every kind stays possible; keep the one that answers at once.
      await controlRequest(always, 'POST', 'faults', { kinds: ['server-error'] });
      const { v2 } = clients(always);
      for (let i = 0; i < 5; i++) expect((await v2.get('/config/icons')).status).toBe(500);
      // OAuth and control are never faulted.
      expect((await fetch(`${always.url}/.well-known/oauth-authorization-server`)).status).toBe(200);
    } finally {
      await always.close();
    }
    const half = await start({ ...OPTIONS, faults: 0.5 });
    try {
      await controlRequest(half, 'POST', 'faults', { kinds: ['server-error'] });
      const { v2 } = clients(half);
      const statuses: number[] = [];
      for (let i = 0; i < 60; i++) statuses.push((await v2.get('/config/icons')).status);
      const failed = statuses.filter((s) => s === 500).length;
      expect(failed).toBeGreaterThan(10);
      expect(failed).toBeLessThan(50);
      expect(statuses.filter((s) => s !== 500).every((s) => s === 200)).toBe(true);
    } finally {
      await half.close();
    }
  });

  it('answers an upload over 10 MB with 413 JSON, in the interface shape', async () => {
    const platform = await start({ ...OPTIONS });
    try {
      const { v0 } = clients(platform);
      const accountId = platform.control.dump().accounts.find((a) => a.teamId === 1)?.id;
      const big = {
        bytes: Buffer.alloc(10 * 1024 * 1024 + 1, 0x41),
        name: 'huge.pdf',
        type: 'application/pdf',
      };
      const files = Object.keys(platform.control.dump().files).length;
      for (const path of [
        `/accounts/${accountId}/documents`,
        `/accounts/${accountId}/client/details/drivers_license/document`,
      ]) {
        const r = await v0.upload(path.endsWith('documents') ? 'POST' : 'PUT', path, big, {
          relation: '"client"',
        });
        expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(413);
        expect(r.headers.get('content-type')).toMatch(/^application\/json/);
        expect(r.body).toMatchObject({ code: 413 });
      }
      expect(Object.keys(platform.control.dump().files)).toHaveLength(files);
      // The server goes on serving.
      expect((await v0.get('/user')).status).toBe(200);
    } finally {
      await platform.close();
    }
  });
});

describe('command line', () => {
  const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
  const main = join(process.cwd(), 'test', 'platform', 'main.ts');

  /** Runs `npm run platform -- …` the way npm does (tsx on main.ts) and collects its output. */
  function run(args: string[]) {
    // Its own process group, so that a failed test can end tsx and the platform it started together.
    const child = spawn(tsx, [main, ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out = { stdout: '', stderr: '' };
    child.stdout.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    return { child, out, exited };
  }

  // Generous time: each run starts tsx, which compiles the platform first.
  it(
    'prints the listening line once it accepts requests, serves, and exits cleanly on SIGINT and SIGTERM',
    { timeout: 120_000 },
    async () => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        const { child, out, exited } = run(['--port', '0', '--accounts', '5', '--rate-limit', '0']);
        try {
          const line = /^Sandbox platform listening on (http:\/\/127\.0\.0\.1:(\d+))$/m;
          for (let i = 0; i < 1800 && !line.test(out.stdout) && child.exitCode === null; i++) await sleep(50);
          const url = line.exec(out.stdout)?.[1];
          expect(url, `stdout: ${out.stdout}\nstderr: ${out.stderr}`).toBeDefined();
          expect(Number(line.exec(out.stdout)?.[2])).toBeGreaterThan(0);
          const metadata = await fetch(`${url}/.well-known/oauth-authorization-server`);
          expect(metadata.status).toBe(200);
          await metadata.text();
          const state = (await (await fetch(`${url}/__sandbox/state`)).json()) as State;
          expect(state.accounts).toHaveLength(5);
          child.kill(signal);
          const { code } = await exited;
          expect(code, `${signal}; stderr: ${out.stderr}`).toBe(0);
          expect(out.stderr).toBe('');
          await expect(fetch(`${url}/__sandbox/faults`)).rejects.toThrow();
        } finally {
          if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
        }
      }
    },
  );

  it('prints the usage for --help (exit 0) and for a bad option (exit 2)', { timeout: 120_000 }, async () => {
    const help = run(['--help']);
    const bad = [
      ['--faults', '2'],
      ['--colour', 'blue'],
    ].map((args) => ({ args, ...run(args) }));
    expect((await help.exited).code).toBe(0);
    expect(help.out.stdout).toContain('Usage: npm run platform -- [options]');
    for (const { args, out, exited } of bad) {
      expect((await exited).code, args.join(' ')).toBe(2);
      expect(out.stderr, args.join(' ')).toContain('Usage: npm run platform -- [options]');
    }
  });
});
