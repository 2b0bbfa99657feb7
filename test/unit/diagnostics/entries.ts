// What the diagnostics tests send down the bridge's `diagnostics.report` channel: a pull entry
// the schema takes, but for the route of its failure, and a channel that keeps what reaches it.

import type { BridgeHandlers } from '../../../electron/main/bridge/handlers.ts';

/** The settings pull (`config`), failed once with a 500 on `route`. */
export const failedConfigPull = (route: string) => ({
  type: 'pull',
  pull: 'config',
  durationMs: 1,
  requests: 1,
  records: 0,
  written: 0,
  removed: 0,
  flagged: 0,
  skipped: false,
  failures: [{ route, kind: 'server', status: 500 }],
});

/** The channel's handler, keeping in `calls` every entry the bridge's check let through. */
export const reportHandlers = (calls: unknown[] = []): BridgeHandlers =>
  ({
    'diagnostics.report': (entry: unknown) => (calls.push(entry), Promise.resolve()),
  }) as unknown as BridgeHandlers;
