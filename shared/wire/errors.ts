// The error bodies of both interfaces. Version 2 does not show its shape; a Laravel-style body
// `{message, errors: {field: [..]}}` is plausible (PLATFORM-FACTS). The 0.0.1 document shows
// `{status, code, messages}`, messages a text for 500 and a list for 422. Both are read
// leniently: anything else in an error answer still gives a failure of the right kind.

import { z } from 'zod';
import { soft, wireObject } from './parse.ts';

/** Version 2 (Laravel style): `message`, and per-field messages in `errors`. */
export const ErrorBodyV2 = wireObject('ErrorV2', {
  message: z.string(),
  errors: soft(z.record(z.string(), z.array(z.string())).optional(), undefined),
});
export type ErrorBodyV2 = z.infer<typeof ErrorBodyV2>;

/** A version 2 validation refusal (422): the field messages are there. */
export const ValidationBodyV2 = wireObject('ValidationV2', {
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())),
});
export type ValidationBodyV2 = z.infer<typeof ValidationBodyV2>;

/** Version 0.0.1: `status` text, `code` equal to the HTTP status, `messages` one text or a list. */
export const ErrorBodyV0 = wireObject('ErrorV0', {
  status: z.string(),
  code: z.int(),
  messages: z.union([z.string(), z.array(z.string())]),
});
export type ErrorBodyV0 = z.infer<typeof ErrorBodyV0>;

/**
 * Any error body, read as far as it goes: the keys of both documented shapes and those other
 * servers (proxies, OAuth) put their message in, each as it came (the reader checks each value;
 * `errors` stays the object received, so that a field named `__proto__` stays a field).
 */
export const AnyErrorBody = z.looseObject({
  message: z.unknown().optional(),
  messages: z.unknown().optional(),
  errors: z.unknown().optional(),
  error: z.unknown().optional(),
  error_description: z.unknown().optional(),
  detail: z.unknown().optional(),
  title: z.unknown().optional(),
});
export type AnyErrorBody = z.infer<typeof AnyErrorBody>;
