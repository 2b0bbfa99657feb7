// The Bridge as the main process serves it: one function per channel over the main-side services.
// Electron's IPC and the browser preview's HTTP host both dispatch through `dispatch`, so the two
// hosts cannot drift apart.

import type { z } from 'zod';
import type { ApiFailure } from '../../../shared/api/request.ts';
import { BRIDGE_CHANNELS, type BridgeChannel } from '../../../shared/bridge-schema.ts';
import type { Bridge } from '../../../shared/bridge.ts';

type Args<C extends BridgeChannel> = z.infer<(typeof BRIDGE_CHANNELS)[C]>;
type Method<C extends BridgeChannel> = C extends `${infer G}.${infer M}`
  ? G extends keyof Bridge
    ? M extends keyof Bridge[G]
      ? Bridge[G][M]
      : never
    : never
  : never;

/** The implementation of every channel, typed by the Bridge it serves. */
export type BridgeHandlers = { [C in BridgeChannel]: (...args: Args<C>) => ReturnType<Method<C>> };

export class InvalidBridgeCall extends Error {}

/** Checks the arguments against the channel's schema, then runs the handler. */
export async function dispatch(handlers: BridgeHandlers, channel: string, args: unknown): Promise<unknown> {
  if (!Object.hasOwn(BRIDGE_CHANNELS, channel))
    throw new InvalidBridgeCall(`Unknown bridge channel ${channel}.`);
  const schema = BRIDGE_CHANNELS[channel as BridgeChannel];
  const parsed = schema.safeParse(args);
  if (!parsed.success) {
    const where = parsed.error.issues
      .map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`)
      .join('; ');
    throw new InvalidBridgeCall(`Invalid arguments for ${channel}: ${where}`);
  }
  const handler = handlers[channel as BridgeChannel] as (...a: unknown[]) => Promise<unknown>;
  return handler(...(parsed.data as unknown[]));
}

/** A failure in the result type, for calls that went wrong before reaching the platform. */
export function localFailure(message: string): ApiFailure {
  return { ok: false, kind: 'network', status: null, message, fields: {}, retryAfterMs: null };
}
