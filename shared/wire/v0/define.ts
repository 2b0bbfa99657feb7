// Property definitions (`/define/{entity}/{entityId}`): a map from property name to its
// definition, or, for composite properties (owner, current_value …), to a map of the same kind.

import { z } from 'zod';
import { oneOf, soft, wireObject } from '../parse.ts';
import { text } from '../values.ts';

/** Unknown keys of a definition are of no use to anyone: left out (`strip`). */
export const PropertyDefinition = wireObject('PropertyDefinition', {
  type: text,
  read: z.boolean(),
  write: soft(z.boolean(), false),
  required: z.boolean(),
  /** Allowed values as comma-separated text, or null. */
  values: soft(z.string().nullable(), null),
}).strip();
export type PropertyDefinition = z.infer<typeof PropertyDefinition>;

export type Definition = PropertyDefinition | { [sub: string]: Definition };

/** A definition map: each entry a property definition or a nested map. */
export const Definitions: z.ZodType<Record<string, Definition>> = z.lazy(() =>
  z.record(z.string(), oneOf([PropertyDefinition, Definitions])),
);
