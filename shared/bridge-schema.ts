// Schemas of the arguments of every bridge call. The main process checks each call against them
// before anything runs, whichever host carried it (IPC in Electron, HTTP in the browser preview).

import { z } from 'zod';
import { preferencesSchema } from './settings.ts';
import { API_ERROR_KINDS, PRIORITIES } from './api/request.ts';
import { isRoute } from './api/route.ts';
import { EXPORT_EXTENSIONS } from './export/file-name.ts';

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

export const previewRequestSchema = z.object({
  api: apiName,
  url: z.string().min(1).max(4000),
  priority: priority.optional(),
  keptOnly: z.boolean().optional(),
});

export const storedFileRequestSchema = z.object({
  api: apiName,
  url: z.string().min(1).max(4000),
  name: z.string().max(1000),
  priority: priority.optional(),
  keptOnly: z.boolean().optional(),
});

/**
 * A profile to save, its shape only: the settings service checks every field and answers each
 * refusal under its field's name (an empty name, an address that is not one), which a refusal
 * here would turn into one error the form cannot place.
 */
const shortText = z.string().max(2000);
const endpointShape = z.object({ baseUrl: shortText, authUrl: shortText }).passthrough();
export const profileShapeSchema = z
  .object({
    name: shortText,
    v2: endpointShape,
    v0: endpointShape,
    clientId: shortText,
    scope: shortText.optional(),
    // Emptied in the form, the number arrives as null; the service names the field.
    rateLimitPerMinute: z.number().nullable(),
    clientSecret: z.string().max(500).optional(),
  })
  .passthrough();

/** Files kept in one call: more than an account holds, and a bound on what one call may ask. */
export const MAX_FILES_PER_CALL = 500;

const flowId = z.string().min(1).max(100);

/** The largest chunk of an export in one call: the preview's HTTP body carries it in base64 (32 MiB bound). */
export const EXPORT_CHUNK_BYTES = 8 * 1024 * 1024;
const exportId = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'an export id is what exports.begin returned');
const exportName = z
  .string()
  .min(1)
  .max(1000)
  .regex(
    new RegExp(`\\.(${EXPORT_EXTENSIONS.join('|')})$`, 'i'),
    `an export is a ${EXPORT_EXTENSIONS.map((e) => `.${e}`).join(', ')} file`,
  );
const exportChunk = z
  .instanceof(Uint8Array, { message: 'a chunk is bytes (Uint8Array)' })
  .refine((bytes) => bytes.length <= EXPORT_CHUNK_BYTES, `a chunk is at most ${EXPORT_CHUNK_BYTES} bytes`);

/** A store identity (shared/auth.ts): a user key of 32 hex characters and a team id. */
export const storeIdentitySchema = z.strictObject({
  user: z.string().regex(/^[0-9a-f]{32}$/, 'a user key is 32 hex characters'),
  team: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

// ---- Diagnostics: what the renderer may put into the log ----
// Strict objects of ids, counts, kinds, statuses and durations: no field takes free text, so no
// name, email, amount, note or token of a client can reach the log through this channel.

/** A local id (a UUID, or `<account>:<section key>` of a single section): lowercase, no spaces, no `@` or `.`. */
const recordId = z.string().regex(/^[a-z0-9][a-z0-9:_/-]{0,159}$/);
const count = z.number().int().min(0).max(1_000_000_000);
const durationMs = z
  .number()
  .min(0)
  .max(7 * 86_400_000);
const httpStatus = z.number().int().min(100).max(599).nullable();
const failureOf = z.strictObject({
  kind: z.enum([...API_ERROR_KINDS, 'unreadable']),
  status: httpStatus,
});

/** One pull of the sync engine, as the coordinator ran it. */
export const pullReportEntrySchema = z.strictObject({
  type: z.literal('pull'),
  pull: z.enum([
    'config',
    'definitions',
    'account-list',
    'offline-accounts',
    'account',
    'engagements',
    'engagement',
    'feed',
    'stats',
    'forms',
    'reports',
  ]),
  /** The account of an account pull, or of a household's engagements (its local id). */
  accountId: recordId.optional(),
  durationMs,
  requests: count,
  records: count,
  written: count,
  removed: count,
  flagged: count,
  skipped: z.boolean(),
  failures: z
    .array(failureOf.extend({ route: z.string().max(300).refine(isRoute, 'a route of the interfaces') }))
    .max(50),
});

/** One pass of the push engine. */
export const pushPassEntrySchema = z.strictObject({
  type: z.literal('push'),
  requests: count,
  synced: count,
  adopted: count,
  retried: count,
  rejected: count,
  conflicts: count,
  remaining: count,
  needsSignIn: z.boolean(),
});

/** What became of one queued change. */
export const pushOutcomeEntrySchema = z.strictObject({
  type: z.literal('change'),
  outcome: z.enum(['synced', 'adopted', 'retry', 'rejected', 'conflict', 'deleted-on-server']),
  table: z.enum(['accounts', 'sectionItems', 'singles']),
  opId: recordId,
  recordId,
  failure: failureOf.optional(),
});

export const diagnosticsEntrySchema = z.discriminatedUnion('type', [
  pullReportEntrySchema,
  pushPassEntrySchema,
  pushOutcomeEntrySchema,
]);
export type DiagnosticsEntry = z.infer<typeof diagnosticsEntrySchema>;

/** Channel → the tuple of its arguments. Channel names are `<group>.<method>` of the Bridge. */
export const BRIDGE_CHANNELS = {
  'auth.status': z.tuple([]),
  'auth.beginSignIn': z.tuple([z.enum(['v2', 'v0', 'both'])]),
  'auth.finishSignIn': z.tuple([flowId]),
  'auth.cancelSignIn': z.tuple([flowId]),
  'auth.signOut': z.tuple([]),
  'auth.bindIdentity': z.tuple([storeIdentitySchema]),
  'api.request': z.tuple([apiRequestSchema]),
  'files.download': z.tuple([downloadRequestSchema]),
  'files.preview': z.tuple([previewRequestSchema]),
  'files.forgetUser': z.tuple([storeIdentitySchema.shape.user]),
  'files.open': z.tuple([storedFileRequestSchema]),
  'files.save': z.tuple([storedFileRequestSchema]),
  'files.openSaved': z.tuple([z.string().min(1).max(4000)]),
  'files.keep': z.tuple([z.array(storedFileRequestSchema).max(MAX_FILES_PER_CALL)]),
  'files.kept': z.tuple([
    z.array(storedFileRequestSchema.pick({ api: true, url: true })).max(MAX_FILES_PER_CALL),
  ]),
  'files.transfers': z.tuple([]),
  'exports.begin': z.tuple([exportName]),
  'exports.write': z.tuple([exportId, exportChunk]),
  'exports.finish': z.tuple([exportId]),
  'exports.cancel': z.tuple([exportId]),
  'settings.get': z.tuple([]),
  'settings.saveProfile': z.tuple([profileShapeSchema]),
  'settings.setPreferences': z.tuple([preferencesSchema]),
  'updates.status': z.tuple([]),
  // The address itself is checked by the settings service, which names the field in its answer.
  'updates.setFeed': z.tuple([z.string().max(2000)]),
  'diagnostics.report': z.tuple([diagnosticsEntrySchema]),
  'diagnostics.save': z.tuple([]),
} as const;

export type BridgeChannel = keyof typeof BRIDGE_CHANNELS;
export const BRIDGE_CHANNEL_NAMES = Object.keys(BRIDGE_CHANNELS) as BridgeChannel[];
