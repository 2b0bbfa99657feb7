// Deletes with the password when the answer goes missing, against the sandbox platform over real
// HTTP: a dropped connection or a 5xx may come after the platform deleted the record, so the app
// asks whether it is still there before it says anything, and says "may or may not" only when it
// cannot tell.

import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import { createRecord } from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { DeleteRefused, deleteAccountOnline } from '../../renderer/src/sync/online-only.ts';
import { PushEngine } from '../../renderer/src/sync/push/index.ts';
import type { Send } from '../../renderer/src/sync/send.ts';
import { SANDBOX_PASSWORD } from '../platform/seed.ts';
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

const onPlatform = (serverId: unknown) => platform.control.dump().accounts.some((a) => a.id === serverId);

async function pushedAccount() {
  const { id } = await createRecord(db, 'accounts', {
    fields: {
      type: 'CLIENT',
      'client.first_name': 'Del',
      'client.last_name': 'Online',
      'client.email': `online-delete-${crypto.randomUUID()}@example.com`,
    },
  });
  await new PushEngine({ db, send: advisor.send }).run();
  const row = await db.accounts.get(id);
  expect(row?.serverId).toEqual(expect.any(Number));
  advisor.requests.length = 0;
  return row!;
}

/** Sends through the real transport; the DELETE's real answer is replaced by a 500 (after it ran). */
const fiveHundredAfter: Send = async (req: ApiRequest): Promise<ApiResult> => {
  const res = await advisor.send(req);
  if (req.method !== 'DELETE') return res;
  return { ok: false, kind: 'server', status: 500, message: 'Server error.', fields: {}, retryAfterMs: null };
};

describe('an online delete whose answer went missing', () => {
  it('connection dropped after the platform deleted it: checked, found gone, removed here too', async () => {
    const account = await pushedAccount();
    platform.control.setFaults({
      queue: [{ kind: 'drop-after', methods: ['DELETE'], path: '^/api/v2/accounts/' }],
    });
    await deleteAccountOnline(db, advisor.send, account.id, SANDBOX_PASSWORD);
    expect(advisor.requests.map((r) => r.method)).toEqual(['DELETE', 'GET']);
    expect(onPlatform(account.serverId)).toBe(false);
    expect(await db.accounts.get(account.id)).toBeUndefined();
  });

  it('connection dropped before the platform got it: checked, still there, said so without doubt', async () => {
    const account = await pushedAccount();
    platform.control.setFaults({
      queue: [{ kind: 'drop-before', methods: ['DELETE'], path: '^/api/v2/accounts/' }],
    });
    const error = await deleteAccountOnline(db, advisor.send, account.id, SANDBOX_PASSWORD).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DeleteRefused);
    expect((error as Error).message).toMatch(/still there: nothing was deleted/);
    expect(onPlatform(account.serverId)).toBe(true);
    expect(await db.accounts.get(account.id)).toBeDefined();
  });

  it('a 5xx after the platform deleted it: checked, found gone, removed here too', async () => {
    const account = await pushedAccount();
    await deleteAccountOnline(db, fiveHundredAfter, account.id, SANDBOX_PASSWORD);
    expect(onPlatform(account.serverId)).toBe(false);
    expect(await db.accounts.get(account.id)).toBeUndefined();
  });

  it('a 5xx before anything was deleted: checked, still there', async () => {
    const account = await pushedAccount();
    platform.control.setFaults({
      queue: [{ kind: 'server-error', methods: ['DELETE'], path: '^/api/v2/accounts/' }],
    });
    const error = await deleteAccountOnline(db, advisor.send, account.id, SANDBOX_PASSWORD).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'DeleteRefused', reason: 'failed' });
    expect((error as Error).message).toMatch(/still there: nothing was deleted/);
    expect(onPlatform(account.serverId)).toBe(true);
  });

  it('when the check fails too, the words say it may or may not be deleted, never "nothing was deleted"', async () => {
    const account = await pushedAccount();
    platform.control.setFaults({
      queue: [
        { kind: 'drop-after', methods: ['DELETE'], path: '^/api/v2/accounts/' },
        { kind: 'drop-before', methods: ['GET'], path: '^/api/v2/accounts/' },
      ],
    });
    const error = await deleteAccountOnline(db, advisor.send, account.id, SANDBOX_PASSWORD).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'DeleteRefused', reason: 'offline' });
    expect((error as Error).message).toMatch(/may or may not be deleted/);
    expect((error as Error).message).not.toMatch(/nothing was deleted/i);
    expect(onPlatform(account.serverId)).toBe(false);
    // Kept here until a pull sees it gone.
    expect(await db.accounts.get(account.id)).toBeDefined();
  });
});
