// Back on a network after the platform could not be reached, against the sandbox platform: the
// coordinator asks the platform at once, ahead of background work, and says it is reachable as
// soon as it answers; the background's requests, held behind the request budget (here: never
// answered), do not keep the app saying "unreachable".

import { describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import type { Send } from '../../renderer/src/sync/send.ts';
import { loneCoordinator, onSandbox, untilState, type Cleanup } from './coordinator-harness.ts';
import type { SandboxClient } from '../support/sandbox-client.ts';

const cleanup: Cleanup = [];
let advisor: SandboxClient;
let db: AdvisorDb;
onSandbox(4, cleanup, (world) => ({ advisor, db } = world));

/** What a request meets while the platform cannot be reached. */
const silent: ApiResult = {
  ok: false,
  kind: 'network',
  status: null,
  message: 'The platform could not be reached.',
  fields: {},
  retryAfterMs: null,
};

describe('reconnecting', () => {
  it('asks the platform at once at interactive priority, and is online on its answer while background work waits', async () => {
    let reachable = false;
    const sent: ApiRequest[] = [];
    const held: (() => void)[] = [];
    const send: Send = (req) => {
      sent.push(req);
      if (!reachable) return Promise.resolve(silent);
      // Background requests wait behind the budget: never answered during this test.
      if (req.priority === 'background')
        return new Promise<ApiResult>((resolve) => held.push(() => resolve(silent)));
      return advisor.send(req);
    };
    cleanup.push(() => held.forEach((release) => release()));
    const events = new EventTarget();
    const sync = loneCoordinator(db, send, cleanup, { events, online: () => true });
    sync.start();
    await untilState(sync, (s) => s.phase === 'offline', cleanup);

    reachable = true;
    const before = sent.length;
    events.dispatchEvent(new Event('online'));
    const back = await untilState(sync, (s) => s.phase !== 'offline', cleanup);
    expect(back.phase).not.toBe('offline');
    const asked = sent.slice(before).find((r) => r.path === '/user' && r.api === 'v2');
    expect(asked).toMatchObject({ method: 'GET', priority: 'interactive' });
  });

  it('asks nothing extra when the platform was reachable all along', async () => {
    const sent: ApiRequest[] = [];
    const send: Send = (req) => {
      sent.push(req);
      return advisor.send(req);
    };
    const events = new EventTarget();
    const sync = loneCoordinator(db, send, cleanup, { events, online: () => true });
    sync.start();
    await untilState(sync, (s) => s.phase === 'idle', cleanup, 30_000);
    const before = sent.length;
    events.dispatchEvent(new Event('online'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent.slice(before).filter((r) => r.priority === 'interactive')).toEqual([]);
  });
});
