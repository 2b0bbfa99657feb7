// The browser preview's bridge keeps a browser's six connections from being held by a pull's
// waiting calls: at most two for uploads and background, three with interactive reads, and the
// fourth always free for the user's immediate request.

import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiRequest } from '@shared/api/request.ts';
import { BridgeLanes } from '../../../renderer/src/common/bridge/lanes.ts';
import { createHttpBridge } from '../../../renderer/src/common/bridge/http.ts';

/** A call that ends when the test says, and the order calls started in. */
function calls() {
  const started: string[] = [];
  const finish = new Map<string, (ok: boolean) => void>();
  const make = (label: string) => () => {
    started.push(label);
    return new Promise<string>((resolve, reject) =>
      finish.set(label, (ok) => (ok ? resolve(label) : reject(new Error(label)))),
    );
  };
  return { started, make, end: (label: string, ok = true) => finish.get(label)?.(ok) };
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('BridgeLanes', () => {
  it("a pull's calls take two lanes, reads a third, the user's delete the fourth at once", async () => {
    const lanes = new BridgeLanes();
    const { started, make, end } = calls();
    for (let i = 1; i <= 20; i++) void lanes.run('background', make(`pull ${i}`));
    void lanes.run('interactive', make('read 1'));
    void lanes.run('interactive', make('read 2'));
    void lanes.run('immediate', make('delete'));
    void lanes.run('immediate', make('switch team'));
    await settle();
    expect(started).toEqual(['pull 1', 'pull 2', 'read 1', 'delete']);
    expect(lanes.counts).toEqual({ open: 4, waiting: 20 });

    // A lane frees: the most urgent waiting call takes it, first come first served within each.
    end('pull 1');
    await settle();
    expect(started.slice(4)).toEqual(['switch team']);
    end('delete');
    end('switch team');
    await settle();
    expect(started.slice(5)).toEqual(['read 2']);
    end('read 1');
    end('read 2');
    await settle();
    // Back to two: the pull goes on in order.
    expect(started.slice(6)).toEqual(['pull 3']);
    expect(lanes.counts).toEqual({ open: 2, waiting: 17 });
  });

  it('a call that fails gives its lane back and its caller the error; no priority or an unknown one', async () => {
    const lanes = new BridgeLanes();
    const { started, make, end } = calls();
    const failing = lanes.run('upload', make('upload'));
    void lanes.run('background', make('pull 1'));
    void lanes.run('surely-first', make('odd'));
    void lanes.run(undefined, make('unnamed'));
    await settle();
    // No priority reads as interactive; an unknown one as background, behind the rest.
    expect(started).toEqual(['upload', 'pull 1', 'unnamed']);
    end('upload', false);
    await expect(failing).rejects.toThrow('upload');
    expect(lanes.counts).toEqual({ open: 2, waiting: 1 });
    end('unnamed');
    await settle();
    expect(started).toEqual(['upload', 'pull 1', 'unnamed', 'odd']);
  });
});

describe('the HTTP bridge', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the delete at once while twenty background requests wait in the host, never more than four open', async () => {
    const open: string[] = [];
    let most = 0;
    const answers = new Map<string, () => void>();
    vi.stubGlobal('fetch', (_url: string, init: { body: string }) => {
      const [req] = JSON.parse(init.body) as [ApiRequest];
      const label = `${req.method} ${req.path}`;
      open.push(label);
      most = Math.max(most, open.length);
      return new Promise((resolve) =>
        answers.set(label, () => {
          open.splice(open.indexOf(label), 1);
          resolve(new Response(JSON.stringify({ value: { ok: true, status: 200, data: null } })));
        }),
      );
    });
    const bridge = createHttpBridge('http://127.0.0.1:1/');
    const pulls = Array.from({ length: 20 }, (_, i) =>
      bridge.api.request({ api: 'v0', method: 'GET', path: `/accounts/1/part-${i}`, priority: 'background' }),
    );
    const remove = bridge.api.request({
      api: 'v2',
      method: 'DELETE',
      path: '/accounts/1',
      body: { password: 'x' },
      priority: 'immediate',
    });
    await settle();
    expect(open).toEqual(['GET /accounts/1/part-0', 'GET /accounts/1/part-1', 'DELETE /accounts/1']);
    answers.get('DELETE /accounts/1')?.();
    expect(await remove).toMatchObject({ ok: true });
    for (let i = 0; i < 20; i++) {
      await settle();
      answers.get(`GET /accounts/1/part-${i}`)?.();
    }
    await Promise.all(pulls);
    expect(most).toBeLessThanOrEqual(4);
    expect(open).toEqual([]);
  });

  it('on sign-out the requests still waiting for a lane answer as cancelled and never reach the host', async () => {
    const sent: string[] = [];
    const answers: (() => void)[] = [];
    vi.stubGlobal('fetch', (url: string, init: { body: string }) => {
      const [req] = JSON.parse(init.body) as [ApiRequest | undefined];
      sent.push(req?.path ?? url);
      return new Promise((resolve) =>
        answers.push(() =>
          resolve(new Response(JSON.stringify({ value: { ok: true, status: 200, data: null } }))),
        ),
      );
    });
    const bridge = createHttpBridge('http://127.0.0.1:1/');
    const pulls = Array.from({ length: 6 }, (_, i) =>
      bridge.api.request({ api: 'v0', method: 'GET', path: `/accounts/1/part-${i}`, priority: 'background' }),
    );
    const download = bridge.files.download({
      api: 'v0',
      url: '/files/1',
      suggestedName: 'a.pdf',
      target: 'cache',
      priority: 'background',
    });
    await settle();
    expect(sent).toEqual(['/accounts/1/part-0', '/accounts/1/part-1']);
    void bridge.auth.signOut();
    // The four waiting requests and the download answer at once, without an answer from the host.
    const waiting = await Promise.all([...pulls.slice(2), download]);
    expect(waiting.slice(0, 4).map((r) => r.ok)).toEqual([false, false, false, false]);
    expect(waiting[0]).toMatchObject({ ok: false, kind: 'network', status: null });
    expect((waiting[0] as { message: string }).message).toContain('signed out');
    expect(waiting[4]).toEqual({ ok: false, cancelled: true });
    for (const answer of answers.splice(0)) answer();
    await Promise.all(pulls.slice(0, 2));
    await settle();
    // Only the two already open and the sign-out itself ever reached the host.
    expect(sent).toEqual([
      '/accounts/1/part-0',
      '/accounts/1/part-1',
      'http://127.0.0.1:1/__bridge/auth.signOut',
    ]);
  });
});
