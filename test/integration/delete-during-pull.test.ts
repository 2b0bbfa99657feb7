// A delete with a wrong password while the background update pulls the kept-offline accounts, as
// the browser preview sends it: each platform call takes a lane by priority (BridgeLanes) into the
// real transport at the platform's budget of 60 a minute, against the sandbox over HTTP, where
// every GET is slowed so that the pull holds its lanes. The delete is one request the user waits
// on: it starts before any background request still waiting and is answered first. Order, not
// time, is asserted.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import { sandboxProfile } from '@shared/settings.ts';
import { Transport } from '../../electron/main/transport/transport.ts';
import { BridgeLanes } from '../../renderer/src/common/bridge/lanes.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { DeleteRefused, deleteAccountOnline } from '../../renderer/src/sync/online-only.ts';
import { PullEngine } from '../../renderer/src/sync/pull/index.ts';
import { sandbox } from '../support/sandbox.ts';
import { storePerTest } from '../support/store.ts';
import { ADVISOR, SandboxTokens } from '../support/sandbox-client.ts';

const platform = sandbox({ seed: 11, accounts: 12, rateLimit: 60 }, { perTest: true });
let transport: Transport;
let db: AdvisorDb;

storePerTest((fresh) => (db = fresh));
beforeEach(() => {
  transport = new Transport({
    profile: () => ({ ...sandboxProfile(platform.url), rateLimitPerMinute: 60 }),
    tokens: new SandboxTokens(platform, ADVISOR),
  });
});
afterEach(() => {
  transport.dispose();
});

/** What the lanes started and what came back, in order: `start DELETE /accounts/3`, `answer …`. */
function lanedSend(events: string[]) {
  const lanes = new BridgeLanes();
  const send = (req: ApiRequest): Promise<ApiResult> =>
    lanes.run(req.priority, async () => {
      const name = `${req.method} ${req.path} ${req.priority ?? ''}`.trim();
      events.push(`start ${name}`);
      const result = await transport.request(req);
      events.push(`answer ${name}`);
      return result;
    });
  return { lanes, send };
}

describe('a delete during the background update', () => {
  it('goes ahead of the pull’s waiting requests and is answered first', async () => {
    const events: string[] = [];
    const { lanes, send } = lanedSend(events);
    const engine = new PullEngine({ db, send });
    await engine.pullAccountList({ priority: 'background' });
    // Every account kept offline: the background update has many to pull.
    const rows = await db.accounts.toArray();
    await db.accounts.bulkPut(rows.map((r) => ({ ...r, availableOffline: 1 as const })));
    const doomed = rows.find((r) => typeof r.serverId === 'number')!;

    platform.control.setFaults({ probability: 1, kinds: ['latency'], methods: ['GET'], latencyMs: 1500 });
    const update = engine.pullOfflineAccounts();
    // The pull holds its lanes, and more of its requests wait behind them.
    await vi.waitFor(() => expect(lanes.counts.waiting).toBeGreaterThan(0), { timeout: 20_000 });

    const asked = events.length;
    const refused = await deleteAccountOnline(db, send, doomed.id, 'Wr0ng-walnut-9038').catch(
      (e: unknown) => e,
    );
    const after = events.slice(asked);

    expect(refused).toBeInstanceOf(DeleteRefused);
    expect((refused as DeleteRefused).reason).toBe('password');
    expect((refused as DeleteRefused).fields.password).toEqual(['The password is incorrect.']);
    const del = `/accounts/${doomed.serverId} immediate`;
    // Started before any waiting background request, and answered before any of the pull's.
    expect(after.find((e) => e.startsWith('start '))).toBe(`start DELETE ${del}`);
    expect(after.find((e) => e.startsWith('answer '))).toBe(`answer DELETE ${del}`);
    // The account is still there, on the platform and here.
    expect(platform.control.store().state.accounts.some((a) => a.id === doomed.serverId)).toBe(true);
    expect(await db.accounts.get(doomed.id)).toBeDefined();

    platform.control.setFaults({ probability: 0 });
    transport.dispose();
    await update.catch(() => undefined);
  }, 60_000);
});
