// What the sync panel tells an advisor when nothing gets through, and that the connection
// indicator says the same: offline when the system says so or the last failure found no network
// (the computer's network has no way out, whatever navigator.onLine says); unreachable when the
// network is up and the platform does not answer. The failures are the transport's own
// (electron/main/transport/failures.ts), the coordinator and the store the app's.

import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectionOf } from '@shared/api/connection.ts';
import type { ApiResult } from '@shared/api/request.ts';
import { networkFailure, timeoutFailure } from '../../../electron/main/transport/failures.ts';
import { useConnectivityStore } from '../../../renderer/src/common/connectivity.ts';
import { SyncCoordinator, type SyncState } from '../../../renderer/src/sync/coordinator/index.ts';
import { openDb } from '../../support/store.ts';

const OFFLINE =
  'You are offline. Your changes are saved on this computer and will be sent when the connection is back.';
const UNREACHABLE =
  'The platform cannot be reached. Your changes are saved on this computer and will be sent when it answers again.';

/** The error Node's fetch throws: a TypeError whose cause carries the system's code. */
const fetchFailed = (code: string) =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
const NO_ROUTE = networkFailure(fetchFailed('ENETUNREACH'));
const NO_NAME_SERVER = networkFailure(fetchFailed('EAI_AGAIN'));
const REFUSED = networkFailure(fetchFailed('ECONNREFUSED'));
const UNKNOWN_HOST = networkFailure(fetchFailed('ENOTFOUND'));
const NO_ANSWER_IN_TIME = timeoutFailure(30_000);

const stops: (() => Promise<void>)[] = [];
beforeEach(() => setActivePinia(createPinia()));
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** A window's sync and connection indicator, every request failing as `result` says. */
function windowWhere(systemOnline: boolean, result: ApiResult) {
  const connectivity = useConnectivityStore();
  connectivity.networkUp = systemOnline;
  let up = systemOnline;
  const events = new EventTarget();
  // The window's `online` and `offline` reach both, as in the app.
  connectivity.listen(events as unknown as Window);
  const sync = new SyncCoordinator({
    db: openDb(),
    send: () => Promise.resolve(result),
    locks: null,
    channel: null,
    events,
    online: () => up,
    observe: (answer) => connectivity.observe(answer),
    backgroundIntervalMs: 60 * 60_000,
  });
  stops.push(() => sync.stop());
  sync.start();
  const systemFindsNetwork = () => {
    up = true;
    events.dispatchEvent(new Event('online'));
  };
  return { sync, connectivity, systemFindsNetwork };
}

/** The first state that passes `test` (the current one included). */
function until(c: SyncCoordinator, test: (s: SyncState) => boolean): Promise<SyncState> {
  return new Promise((resolve) => {
    const off = c.subscribe((s) => {
      if (!test(s)) return;
      queueMicrotask(() => off());
      resolve(s);
    });
  });
}

const nothingGetsThrough = (s: SyncState) => s.phase === 'offline';

describe('offline or unreachable, as the sync panel says it', () => {
  it('the system says offline: "You are offline", whatever the last failure', async () => {
    const { sync, connectivity } = windowWhere(false, REFUSED);
    expect((await until(sync, nothingGetsThrough)).message).toBe(OFFLINE);
    expect(connectivity.state).toBe('offline');
  });

  it('the system says online but the computer has no way out (no route, no name server): "You are offline"', async () => {
    for (const failure of [NO_ROUTE, NO_NAME_SERVER]) {
      const { sync, connectivity } = windowWhere(true, failure);
      expect((await until(sync, nothingGetsThrough)).message).toBe(OFFLINE);
      expect(connectivity.state).toBe('offline');
    }
  });

  it('the network is up and the platform does not answer: "The platform cannot be reached"', async () => {
    for (const failure of [REFUSED, UNKNOWN_HOST, NO_ANSWER_IN_TIME]) {
      const { sync, connectivity } = windowWhere(true, failure);
      expect((await until(sync, nothingGetsThrough)).message).toBe(UNREACHABLE);
      expect(connectivity.state).toBe('unreachable');
    }
  });

  it('the system finds a network again: the platform is not reached yet until it answers', async () => {
    const { sync, connectivity, systemFindsNetwork } = windowWhere(true, NO_ROUTE);
    expect((await until(sync, nothingGetsThrough)).message).toBe(OFFLINE);
    systemFindsNetwork();
    expect(sync.state.message).toBe(UNREACHABLE);
    expect(connectivity.state).toBe('unreachable');
  });
});

describe('the rule both follow', () => {
  it('offline when the system says so or the last failure found no network; unreachable when only the platform is silent', () => {
    const words = (systemOnline: boolean, noWayOut: boolean, platformSilent: boolean) =>
      connectionOf({ systemOnline, noWayOut, platformSilent });
    expect(words(false, false, false)).toBe('offline');
    expect(words(false, false, true)).toBe('offline');
    expect(words(true, true, true)).toBe('offline');
    expect(words(true, false, true)).toBe('unreachable');
    expect(words(true, false, false)).toBe('online');
  });
});
