// Contract tests of the platform itself rather than of an interface: the start options, the
// control endpoints, the seed, the `--data` file across restarts, and the command line.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { State } from '../platform/model.ts';
import type { Platform } from '../platform/server.ts';
import { ADVISOR, Api, start, uniqueTag, type Account, type Engagement, type User } from './helpers.ts';
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
