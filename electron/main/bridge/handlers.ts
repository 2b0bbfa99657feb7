// The Bridge as the main process serves it: one function per channel over the main-side services.
// Electron's IPC and the browser preview's HTTP host both dispatch through `dispatch`, so the two
// hosts cannot drift apart.

import type { z } from 'zod';
import type { ApiFailure } from '@shared/api/request.ts';
import { BRIDGE_CHANNELS, type BridgeChannel } from '@shared/bridge-schema.ts';
import type { Bridge } from '@shared/bridge.ts';

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

/**
 * Channels whose result already carries a typed failure answer invalid arguments with one (a
 * `validation` failure naming each bad argument) instead of an exception, so the renderer reads
 * them like any refused request. Other channels are only called by the app's own code with
 * fixed arguments: a bad call there is a bug, refused with an exception.
 */
const TYPED_REFUSALS: Partial<Record<BridgeChannel, (failure: ApiFailure) => unknown>> = {
  'api.request': (failure) => failure,
  'files.download': (failure) => ({ ok: false, cancelled: false, error: failure }),
  'files.preview': (failure) => ({ ok: false, error: failure }),
  'files.open': (failure) => ({ ok: false, notKept: false, error: failure }),
  'files.save': (failure) => ({ ok: false, cancelled: false, error: failure }),
  'files.openSaved': (failure) => ({ ok: false, error: failure }),
  'exports.begin': (failure) => ({ ok: false, cancelled: false, error: failure }),
  'exports.write': (failure) => ({ ok: false, error: failure }),
  'exports.finish': (failure) => ({ ok: false, error: failure }),
};

/** Channels of several arguments: a refusal names the argument, not its position in the list. */
const ARGUMENT_NAMES: Partial<Record<BridgeChannel, readonly string[]>> = {
  'exports.begin': ['suggestedName'],
  'exports.write': ['exportId', 'chunk'],
  'exports.finish': ['exportId'],
};

/** Checks the arguments against the channel's schema, then runs the handler. */
export async function dispatch(handlers: BridgeHandlers, channel: string, args: unknown): Promise<unknown> {
  if (!Object.hasOwn(BRIDGE_CHANNELS, channel))
    throw new InvalidBridgeCall(`Unknown bridge channel ${channel}.`);
  const schema = BRIDGE_CHANNELS[channel as BridgeChannel];
  const parsed = schema.safeParse(args);
  if (!parsed.success) {
    const refuse = TYPED_REFUSALS[channel as BridgeChannel];
    if (refuse)
      return refuse(invalidArguments(parsed.error.issues, ARGUMENT_NAMES[channel as BridgeChannel]));
    const where = parsed.error.issues
      .map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`)
      .join('; ');
    throw new InvalidBridgeCall(`Invalid arguments for ${channel}: ${where}`);
  }
  const handler = handlers[channel as BridgeChannel] as (...a: unknown[]) => Promise<unknown>;
  return handler(...(parsed.data as unknown[]));
}

/**
 * The refusal of a request whose arguments do not pass the schema: nothing was sent. Each issue
 * is filed under the argument it is about (`path`, `files.0.bytes`), the message names them all.
 */
function invalidArguments(
  issues: readonly z.core.$ZodIssue[],
  argumentNames?: readonly string[],
): ApiFailure {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    // The first path element is the position in the argument list: the request itself, or the
    // argument of that name.
    const [position, ...inside] = issue.path;
    const argument = argumentNames?.[Number(position)];
    const name = (argument ? [argument, ...inside] : inside).map(String).join('.') || 'request';
    (fields[name] ??= []).push(issue.message);
  }
  const named = Object.entries(fields).map(([name, messages]) => `${name} (${messages.join('; ')})`);
  return {
    ok: false,
    kind: 'validation',
    status: null,
    message: `The request was not sent: invalid ${named.join(', ')}.`,
    fields,
    retryAfterMs: null,
  };
}
