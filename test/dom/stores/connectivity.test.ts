// @vitest-environment happy-dom
// How the app decides between Online, Offline and Platform unreachable: the system's word
// (navigator.onLine and its events) and what each answer or failure of the platform showed. A
// failure for want of a network means Offline even when the system says online (a network with no
// way out; a page a browser's offline emulation did not reach after a reload); a platform that
// refuses or drops the connection on a working network is unreachable.

import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiFailure, ApiResult } from '@shared/api/request.ts';
import { useConnectivityStore } from '../../../renderer/src/common/connectivity.ts';

const failure = (kind: ApiFailure['kind'], more: Partial<ApiFailure> = {}): ApiFailure => ({
  ok: false,
  kind,
  status: null,
  message: 'The platform could not be reached.',
  fields: {},
  retryAfterMs: 5000,
  ...more,
});
const NO_WAY_OUT = failure('network', { network: 'down' });
const REFUSED = failure('network', { network: 'up' });
const NO_ANSWER = failure('network');
const ANSWER: ApiResult = { ok: true, status: 200, data: {} };

beforeEach(() => setActivePinia(createPinia()));

describe('the connection the app shows', () => {
  it('with the system saying online: each answer or failure decides', () => {
    const connectivity = useConnectivityStore();
    connectivity.networkUp = true;
    expect(connectivity.state).toBe('online');
    connectivity.observe(NO_WAY_OUT);
    expect(connectivity.state).toBe('offline');
    connectivity.observe(REFUSED);
    expect(connectivity.state).toBe('unreachable');
    connectivity.observe(NO_ANSWER);
    expect(connectivity.state).toBe('unreachable');
    connectivity.observe(failure('timeout'));
    expect(connectivity.state).toBe('unreachable');
    connectivity.observe(NO_WAY_OUT);
    connectivity.observe(ANSWER);
    expect(connectivity.state).toBe('online');
    // Any answer, a refusal too, shows the platform is there.
    connectivity.observe(NO_WAY_OUT);
    connectivity.observe(failure('validation', { status: 422 }));
    expect(connectivity.state).toBe('online');
  });

  it('with the system saying offline: offline, whatever the last answer', () => {
    const connectivity = useConnectivityStore();
    connectivity.networkUp = false;
    for (const result of [ANSWER, REFUSED, NO_ANSWER, NO_WAY_OUT]) {
      connectivity.observe(result);
      expect(connectivity.state).toBe('offline');
    }
  });

  it("the system's events: offline at once; online again forgets that the last failure found no way out", () => {
    const connectivity = useConnectivityStore();
    connectivity.listen(window);
    connectivity.networkUp = true;
    window.dispatchEvent(new Event('offline'));
    expect(connectivity.state).toBe('offline');
    window.dispatchEvent(new Event('online'));
    expect(connectivity.state).toBe('online');

    connectivity.observe(NO_WAY_OUT);
    expect(connectivity.state).toBe('offline');
    window.dispatchEvent(new Event('online'));
    // The network is back; the platform has not answered yet.
    expect(connectivity.state).toBe('unreachable');
    connectivity.observe(ANSWER);
    expect(connectivity.state).toBe('online');
  });
});
