// Schemas of the arguments of every bridge call. The main process checks each call against them
// before anything runs, whichever host carried it (IPC in Electron, HTTP in the browser preview).

import { z } from 'zod';
import { preferencesSchema, profileInputSchema } from './settings.ts';
import { PRIORITIES } from './api/request.ts';

const apiName = z.enum(['v2', 'v0']);
const priority = z.enum(PRIORITIES);
const scalar = z.union([z.string(), z.number(), z.boolean(), z.undefined()]);

export const apiRequestSchema = z.object({
  api: apiName,
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE']),
  path: z.string().min(1).max(2000).startsWith('/'),
  query: z.record(z.string(), scalar).optional(),
  body: z.unknown().optional(),
  files: z
    .array(
      z.object({
        field: z.string().min(1).max(100),
        name: z.string().max(500),
        type: z.string().max(200),
        bytes: z.instanceof(Uint8Array),
      }),
    )
    .max(10)
    .optional(),
  priority: priority.optional(),
  timeoutMs: z.number().int().min(100).max(600_000).optional(),
});

export const downloadRequestSchema = z.object({
  api: apiName,
  url: z.string().min(1).max(4000),
  suggestedName: z.string().max(1000),
  target: z.enum(['cache', 'save']),
  priority: priority.optional(),
});

const flowId = z.string().min(1).max(100);

/** Channel → the tuple of its arguments. Channel names are `<group>.<method>` of the Bridge. */
export const BRIDGE_CHANNELS = {
  'auth.status': z.tuple([]),
  'auth.beginSignIn': z.tuple([z.enum(['v2', 'v0', 'both'])]),
  'auth.finishSignIn': z.tuple([flowId]),
  'auth.cancelSignIn': z.tuple([flowId]),
  'auth.signOut': z.tuple([]),
  'api.request': z.tuple([apiRequestSchema]),
  'files.download': z.tuple([downloadRequestSchema]),
  'settings.get': z.tuple([]),
  'settings.saveProfile': z.tuple([profileInputSchema.passthrough()]),
  'settings.setPreferences': z.tuple([preferencesSchema]),
} as const;

export type BridgeChannel = keyof typeof BRIDGE_CHANNELS;
export const BRIDGE_CHANNEL_NAMES = Object.keys(BRIDGE_CHANNELS) as BridgeChannel[];
