// The pull of the forms' allowed values (`/define/{entity}/{entityId}`, 0.0.1) against the
// sandbox platform over real HTTP, into Dexie over fake-indexeddb: asked once an account is here,
// one request per entity whose form has a list (a select, an amount's frequency) and the member
// details, kept in the config table with its time, not asked again within a day, asked again
// after; an entity that fails keeps what was kept. A value only the platform knows passes through
// the pull and the push unchanged.

import { beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_KEYS, configEntry } from '../../renderer/src/data/queries/index.ts';
import { updateRecord } from '../../renderer/src/data/changes/index.ts';
import { DEFINITIONS_STATE, PullEngine } from '../../renderer/src/sync/pull/index.ts';
import { PushEngine } from '../../renderer/src/sync/push/index.ts';
import type { Send } from '../../renderer/src/sync/send.ts';
import { sandbox } from '../support/sandbox.ts';
import { openDb } from '../support/store.ts';
import { BEYOND_THE_DOCUMENT, CURRENCY_FREQUENCIES, definedCases } from '../contract/v0-helpers.ts';
import { ADVISOR, sandboxUser } from '../support/sandbox-client.ts';

const platform = sandbox({ accounts: 6 });
const advisor = sandboxUser(platform, ADVISOR);
let send: Send;
const paths: string[] = [];

beforeAll(() => {
  send = (req) => {
    paths.push(req.path);
    return advisor.transport.request(req);
  };
});

const HOUR = 60 * 60_000;

/**
 * What the 0.0.1 document lists with choices: the sections' enumerated fields with their values
 * and their Currency fields ("Data sections"), and the full member's gender and marital status.
 */
const WITH_LISTS = definedCases();
/** 15 sections and the member details: 16 requests a day (README, "Allowed values"). */
const ENTITIES_WITH_LISTS = WITH_LISTS.map((c) => c.entity);

/** What the platform allows: the document's values, and what the sandbox allows beyond them. */
const allowed = (entity: string, field: string, documented: readonly string[]): string[] => [
  ...documented,
  ...(BEYOND_THE_DOCUMENT[entity]?.[field] ?? []),
];

/** A plan's types in the platform's order: the health savings account comes before "other". */
const PLAN_TYPES = [
  '401k',
  'roth401k',
  '403b',
  '457b',
  'ira',
  'roth-ira',
  'simple-ira',
  'sep-ira',
  'college',
  'hsa',
  'other',
];

type Held = Record<string, Record<string, string[]>>;

describe('the allowed values of the section forms', () => {
  it('are pulled once an account is here, kept with their time, and refreshed only after a day', async () => {
    const db = openDb();
    await db.open();
    let now = 5_000_000;
    const engine = new PullEngine({ db, send, now: () => now });

    // No account on this computer yet: nothing to ask under, nothing asked.
    paths.length = 0;
    expect(await engine.pullDefinitions()).toMatchObject({ skipped: true, requests: 0 });
    expect(paths).toEqual([]);

    await engine.pullAccountList();
    const first = (await db.accounts.orderBy('serverId').first())!.serverId;
    paths.length = 0;
    const report = await engine.pullDefinitions();
    expect(report.failures).toEqual([]);
    expect(report.requests).toBe(ENTITIES_WITH_LISTS.length);
    expect(report.requests).toBe(16);
    expect([...paths].sort()).toEqual(ENTITIES_WITH_LISTS.map((e) => `/define/${e}/${first}`).sort());

    const held = (await configEntry<Held>(db, CONFIG_KEYS.definitions))!;
    expect(held.pulledAt).toBe(now);
    expect(Object.keys(held.data).sort()).toEqual([...ENTITIES_WITH_LISTS].sort());
    expect(held.data.Plan?.type).toEqual(PLAN_TYPES);
    expect(held.data.FullMember?.marital_status).toEqual([
      'single',
      'married',
      'separated',
      'divorced',
      'widowed',
      'other',
      'partner',
    ]);
    // Every list the document gives, with its values (in the platform's order, compared as sets),
    // and every amount's frequencies (a nested list: `current_value.frequency`), in order.
    for (const c of WITH_LISTS) {
      const ofEntity = held.data[c.entity] ?? {};
      const fields = Object.fromEntries(
        Object.entries(ofEntity)
          .filter(([f]) => !f.includes('.'))
          .map(([f, v]) => [f, [...v].sort()]),
      );
      const expected = Object.fromEntries(
        Object.entries(c.enums).map(([f, v]) => [f, allowed(c.entity, f, v).sort()]),
      );
      expect(fields, c.entity).toEqual(expected);
      for (const f of c.currencies)
        expect(ofEntity[`${f}.frequency`], `${c.entity}.${f}.frequency`).toEqual(CURRENCY_FREQUENCIES);
    }

    // Within the day: nothing asked, the kept values and their time unchanged.
    now += 23 * HOUR;
    paths.length = 0;
    expect(await engine.pullDefinitions()).toMatchObject({ skipped: true, requests: 0 });
    expect(paths).toEqual([]);
    expect((await configEntry<Held>(db, CONFIG_KEYS.definitions))!.pulledAt).toBe(5_000_000);

    // After a day: asked again, kept with the new time.
    now += 2 * HOUR;
    const again = await engine.pullDefinitions();
    expect(again).toMatchObject({ skipped: false, requests: ENTITIES_WITH_LISTS.length, failures: [] });
    expect((await configEntry<Held>(db, CONFIG_KEYS.definitions))!.pulledAt).toBe(now);
  });

  it('keep what was kept of an entity that fails, and are asked again at the next run', async () => {
    const db = openDb();
    await db.open();
    let now = 9_000_000;
    const engine = new PullEngine({ db, send, now: () => now });
    await engine.pullAccountList();
    await engine.pullDefinitions();

    platform.control.setFaults({
      queue: [{ kind: 'server-error', path: '^/api/v0/define/Plan/', count: 20 }],
    });
    try {
      now += 25 * HOUR;
      const failing = await engine.pullDefinitions();
      expect(failing.failures.map((f) => f.path)).toEqual([expect.stringMatching(/^\/define\/Plan\//)]);
      const held = (await configEntry<Held>(db, CONFIG_KEYS.definitions))!;
      expect(held.data.Plan?.type).toEqual(PLAN_TYPES);
      expect(held.data.Asset?.type).toContain('vehicle');
      // Not marked as pulled: the next run, an hour on, asks again.
      expect(((await db.meta.get(DEFINITIONS_STATE))?.value as { pulledAt: number }).pulledAt).toBe(
        now - 25 * HOUR,
      );
    } finally {
      platform.control.setFaults({ queue: [] });
    }
    now += HOUR;
    const recovered = await engine.pullDefinitions();
    expect(recovered).toMatchObject({ skipped: false, failures: [] });
    expect(((await db.meta.get(DEFINITIONS_STATE))?.value as { pulledAt: number }).pulledAt).toBe(now);
  });

  it('a plan of a type only the platform knows comes through the pull as it is, and an edit of it goes back unchanged', async () => {
    const db = openDb();
    await db.open();
    const engine = new PullEngine({ db, send });
    await engine.pullAccountList();
    const account = (await db.accounts.orderBy('serverId').first())!;
    const made = await send({
      api: 'v0',
      method: 'POST',
      path: `/accounts/${account.serverId}/plans`,
      body: { type: 'hsa', name: 'Health savings', owner: { type: 'client' }, current_value: 3200 },
    });
    expect(made.ok, JSON.stringify(made)).toBe(true);

    await engine.pullAccount(account.id);
    const plan = (await db.sectionItems.where({ accountId: account.id }).toArray()).find(
      (i) => i.section === 'plans' && i.fields.name === 'Health savings',
    );
    expect(plan?.fields.type).toBe('hsa');

    await updateRecord(db, 'sectionItems', plan!.id, { name: 'HSA at work' });
    const pushed = await new PushEngine({ db, send }).run();
    expect(pushed).toMatchObject({ synced: 1, rejected: 0 });
    const server = await send({
      api: 'v0',
      method: 'GET',
      path: `/accounts/${account.serverId}/plans/${plan!.serverId}`,
    });
    expect(server.ok && server.data).toMatchObject({ type: 'hsa', name: 'HSA at work' });
  });
});
