// Every bridge call is checked against its schema before any handler runs.

import { describe, expect, it } from 'vitest';
import { dispatch, InvalidBridgeCall, type BridgeHandlers } from '../../../electron/main/bridge/handlers.ts';
import type { ApiFailure } from '@shared/api/request.ts';
import { BRIDGE_CHANNEL_NAMES } from '@shared/bridge-schema.ts';
import { decodeBridgeArgs, encodeBridgeArgs } from '@shared/bridge-wire.ts';

function recordingHandlers() {
  const calls: [string, unknown[]][] = [];
  const handlers = Object.fromEntries(
    BRIDGE_CHANNEL_NAMES.map((channel) => [
      channel,
      (...args: unknown[]) => (calls.push([channel, args]), Promise.resolve('ok')),
    ]),
  ) as unknown as BridgeHandlers;
  return { calls, handlers };
}

describe('dispatch', () => {
  it('runs the handler with the parsed arguments', async () => {
    const { calls, handlers } = recordingHandlers();
    await dispatch(handlers, 'api.request', [{ api: 'v2', method: 'GET', path: '/user' }]);
    expect(calls).toEqual([['api.request', [{ api: 'v2', method: 'GET', path: '/user' }]]]);
  });

  it('refuses unknown channels, prototype keys and bad arguments without running anything', async () => {
    const { calls, handlers } = recordingHandlers();
    const bad: [string, unknown][] = [
      ['api.nothing', []],
      ['__proto__', []],
      ['constructor', []],
      ['auth.beginSignIn', ['everything']],
      ['auth.finishSignIn', [42]],
      ['settings.setPreferences', [{ theme: 'neon' }]],
      ['auth.status', 'not an array'],
    ];
    for (const [channel, args] of bad)
      await expect(dispatch(handlers, channel, args), channel).rejects.toBeInstanceOf(InvalidBridgeCall);
    expect(calls).toEqual([]);
  });

  it('answers a request or download with bad arguments as a typed failure naming them, never an exception', async () => {
    const { calls, handlers } = recordingHandlers();
    const requests: [unknown[], string[]][] = [
      [[{ api: 'v3', method: 'GET', path: '/user' }], ['api']],
      [[{ api: 'v2', method: 'GET', path: 'https://evil.example/steal' }], ['path']],
      [[{ api: 'v2', method: 'PATCH', path: '/user', timeoutMs: -1 }], ['method', 'timeoutMs']],
      [
        [
          {
            api: 'v2',
            method: 'PUT',
            path: '/x',
            files: [{ field: 'file', name: 'a', type: '', bytes: 'AA' }],
          },
        ],
        ['files.0.bytes'],
      ],
      [[null], ['request']],
      [[], ['request']],
    ];
    for (const [args, named] of requests) {
      const answer = (await dispatch(handlers, 'api.request', args)) as ApiFailure;
      expect(answer, JSON.stringify(args)).toMatchObject({
        ok: false,
        kind: 'validation',
        status: null,
        retryAfterMs: null,
      });
      expect(Object.keys(answer.fields)).toEqual(named);
      for (const name of named) expect(answer.message).toContain(`${name} (`);
      expect(answer.message).toMatch(/^The request was not sent: invalid /);
    }
    const download = await dispatch(handlers, 'files.download', [
      { api: 'v0', url: '/x', suggestedName: 'x', target: 'desktop' },
    ]);
    expect(download).toMatchObject({
      ok: false,
      cancelled: false,
      error: { kind: 'validation', fields: { target: [expect.any(String) as unknown] } },
    });
    expect(calls).toEqual([]);
  });

  it('carries upload bytes over the HTTP wire intact', () => {
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 31) % 256);
    const args = [
      {
        api: 'v0',
        method: 'PUT',
        path: '/accounts/1/client/details/photo',
        files: [{ field: 'file', name: 'p.png', type: 'image/png', bytes }],
      },
    ];
    const wire = JSON.parse(JSON.stringify(encodeBridgeArgs(args))) as unknown;
    const back = decodeBridgeArgs(wire) as typeof args;
    expect(back[0]?.files[0]?.bytes).toEqual(bytes);
  });
});
