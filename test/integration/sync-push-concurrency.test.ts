// The push engine sending several records at once, against the sandbox platform over real HTTP:
// independent records' requests overlap in time, and two identical uncertain creates reconciled
// in the same pass never adopt the same server record.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import { createRecord } from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import type { Fields } from '../../renderer/src/data/model.ts';
import { PushEngine } from '../../renderer/src/sync/push/index.ts';
import type { Send } from '../../renderer/src/sync/send.ts';
import { sandbox } from '../support/sandbox.ts';
import { storePerTest } from '../support/store.ts';
import { ADVISOR, sandboxUser } from '../support/sandbox-client.ts';

const platform = sandbox({ accounts: 5 });
const advisor = sandboxUser(platform, ADVISOR, { perTest: true });
let db: AdvisorDb;

storePerTest((fresh) => (db = fresh));
beforeEach(() => {
  platform.control.setFaults({ probability: 0, queue: [] });
});
afterEach(() => {
  platform.control.setFaults({ probability: 0, queue: [] });
});

const client = (n: number): Fields => ({
  type: 'CLIENT',
  'client.first_name': `Para${n}`,
  'client.last_name': 'Llel',
  'client.email': `parallel-${n}-${crypto.randomUUID()}@example.com`,
});

const byEmail = (email: unknown) => platform.control.dump().accounts.filter((a) => a.client.email === email);

describe('independent records in parallel', () => {
  it("two records' requests overlap in time when the platform is slow; each lands once", async () => {
    const fields = [client(1), client(2), client(3)];
    for (const f of fields) await createRecord(db, 'accounts', { fields: f });
    // Every request of the platform takes 300 ms.
    platform.control.setFaults({ probability: 1, kinds: ['latency'], latencyMs: 300 });
    const spans: { start: number; end: number }[] = [];
    const timed: Send = async (req) => {
      // Not a record's request: the platform's team, confirmed before new accounts go (issue 12).
      if (req.path === '/user') return advisor.send(req);
      const start = performance.now();
      const res = await advisor.send(req);
      spans.push({ start, end: performance.now() });
      return res;
    };
    const report = await new PushEngine({ db, send: timed, concurrency: 3 }).run();
    expect(report).toMatchObject({ synced: 3, remaining: 0 });
    expect(spans).toHaveLength(3);
    const overlapping = spans.some((a, i) =>
      spans.some((b, j) => i !== j && a.start < b.end && b.start < a.end),
    );
    expect(overlapping).toBe(true);
    for (const f of fields) expect(byEmail(f['client.email'])).toHaveLength(1);
  });

  it('one at a time when concurrency is 1: no overlap (the measure above can tell)', async () => {
    for (const n of [4, 5]) await createRecord(db, 'accounts', { fields: client(n) });
    platform.control.setFaults({ probability: 1, kinds: ['latency'], latencyMs: 100 });
    const spans: { start: number; end: number }[] = [];
    const timed: Send = async (req) => {
      // Not a record's request: the platform's team, confirmed before new accounts go (issue 12).
      if (req.path === '/user') return advisor.send(req);
      const start = performance.now();
      const res = await advisor.send(req);
      spans.push({ start, end: performance.now() });
      return res;
    };
    await new PushEngine({ db, send: timed, concurrency: 1 }).run();
    expect(spans).toHaveLength(2);
    const [a, b] = spans as [{ start: number; end: number }, { start: number; end: number }];
    expect(b.start).toBeGreaterThanOrEqual(a.end);
  });
});

describe('identical uncertain creates in one pass', () => {
  it('adopt different server items: one adopts the item that landed, the other is sent', async () => {
    const { id: account } = await createRecord(db, 'accounts', { fields: client(6) });
    await new PushEngine({ db, send: advisor.send }).run();
    const serverId = (await db.accounts.get(account))?.serverId;
    const asset = { name: 'Twin', type: 'vehicle', owner: { type: 'client', id: null }, current_value: 5 };
    const first = await createRecord(db, 'sectionItems', {
      accountId: account,
      section: 'assets',
      fields: asset,
    });
    const second = await createRecord(db, 'sectionItems', {
      accountId: account,
      section: 'assets',
      fields: asset,
    });
    // One of the two creates landed before the app died; both were left in flight.
    const landed = await advisor.send({
      api: 'v0',
      method: 'POST',
      path: `/accounts/${serverId}/assets`,
      body: { ...asset, current_value: { value: 5, frequency: 'one-time' } },
    });
    expect(landed.ok).toBe(true);
    await db.outbox.where('state').equals('queued').modify({ state: 'inflight' });

    // Both lookups read the collection before either settles.
    let reads = 0;
    let bothRead: () => void = () => undefined;
    const together = new Promise<void>((resolve) => (bothRead = resolve));
    const send: Send = async (req: ApiRequest): Promise<ApiResult> => {
      const res = await advisor.send(req);
      if (req.method === 'GET' && req.path.endsWith('/assets') && ++reads === 1) {
        // The pass shares one read of the collection: let both lookups hold it first.
        setTimeout(bothRead, 50);
        await together;
      }
      return res;
    };
    const report = await new PushEngine({ db, send, concurrency: 3 }).run();
    expect(report).toMatchObject({ adopted: 1, remaining: 0 });

    const items = await db.sectionItems.bulkGet([first.id, second.id]);
    const ids = items.map((i) => i?.serverId);
    expect(ids[0]).toBeTruthy();
    expect(ids[1]).toBeTruthy();
    expect(ids[0]).not.toBe(ids[1]);
    const stored =
      byEmail((await db.accounts.get(account))?.fields['client.email'])[0]?.sections?.assets ?? [];
    expect(stored).toHaveLength(2);
    expect(stored.map((i) => i.id).sort()).toEqual([...ids].sort());
  });
});
