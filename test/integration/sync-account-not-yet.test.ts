// An account created here whose create has not reached the platform yet has nothing there to pull:
// its extras, its activity (newest pages and an older page) and its questionnaires are skipped
// without a request (an older page says nothing older is left), against the sandbox platform over
// real HTTP into Dexie over fake-indexeddb. Once the platform has it (the pull of the account list
// after its create went), the same pulls ask for it. An id this computer does not hold is an error.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecord } from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { PullEngine } from '../../renderer/src/sync/pull/index.ts';
import { sandbox } from '../support/sandbox.ts';
import { openDb } from '../support/store.ts';
import { ADVISOR, sandboxUser } from '../support/sandbox-client.ts';

const platform = sandbox({ accounts: 5 });
const advisor = sandboxUser(platform, ADVISOR);
let db: AdvisorDb;
let engine: PullEngine;

beforeAll(async () => {
  db = openDb();
  await db.open();
  engine = new PullEngine({ db, send: advisor.send });
  await engine.pullAccountList();
});

afterAll(async () => {
  await db.delete();
});

describe('an account the platform does not have yet', () => {
  it('is skipped by each pull of its parts, without a request', async () => {
    const { id } = await createRecord(db, 'accounts', {
      fields: {
        type: 'PROSPECT',
        'client.first_name': 'Nora',
        'client.last_name': 'Notyet',
        'client.email': `nora-${Date.now()}@example.com`,
      },
    });
    expect((await db.accounts.get(id))?.serverId).toBeNull();

    const skipped = { skipped: true, requests: 0, written: 0, failures: [] };
    expect(await engine.pullAccountExtras(id)).toMatchObject(skipped);
    expect(await engine.pullAccountActivity(id)).toMatchObject(skipped);
    expect(await engine.pullEngagements({ accountId: id })).toMatchObject(skipped);
    // "Load older" has nothing more to offer for it.
    expect(await engine.pullOlderAccountActivity(id)).toMatchObject({ ...skipped, olderEnd: true });
  });

  it('is pulled once the platform has it', async () => {
    const onServer = (await db.accounts.toArray()).find((a) => typeof a.serverId === 'number')!;
    const extras = await engine.pullAccountExtras(onServer.id);
    expect(extras.skipped).toBe(false);
    // Each member's security, the profile and a page of activity.
    expect(extras.requests).toBeGreaterThanOrEqual(3);
    const older = await engine.pullOlderAccountActivity(onServer.id);
    expect(older.skipped).toBe(false);
    expect(older.requests).toBeGreaterThan(0);
  });

  it('is an error when this computer holds no account of that id', async () => {
    const report = engine.pullAccountActivity('no-such-account');
    await expect(report).rejects.toThrow('There is no local account no-such-account to pull.');
  });
});
