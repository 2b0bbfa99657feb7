// The values a select of a section form offers: the platform's definition (`/define`) when this
// computer holds one, else the built-in table (forms.ts, from the document). A value the platform
// allows that the app does not know is offered under its raw value; a stored value in neither
// list is offered too, so that it is shown and kept rather than blanked.

import { Definitions, type Definition, type PropertyDefinition } from './wire/v0/define.ts';
import { readWire } from './wire/parse.ts';
import type { FormField, Option, SectionForm } from './forms.ts';

/** Allowed values by field, as one entity's definition gives them (top-level enumerated properties). */
export type AllowedValues = Readonly<Record<string, readonly string[]>>;

/** What this computer keeps of `/define`: the allowed values by entity (`Plan`), then by field. */
export type AllowedByEntity = Readonly<Record<string, AllowedValues>>;

const isProperty = (d: Definition): d is PropertyDefinition =>
  typeof (d as PropertyDefinition).read === 'boolean' && typeof (d as PropertyDefinition).type === 'string';

/**
 * The allowed values of an entity's definition, by field: each property whose `values` lists
 * some (comma-separated, trimmed, empty parts and repeats left out). Null when the answer is not a
 * definition map.
 */
export function allowedValuesOf(answer: unknown): Record<string, string[]> | null {
  const definition = readWire(Definitions, answer);
  if (!definition) return null;
  const out: Record<string, string[]> = {};
  for (const [field, d] of Object.entries(definition)) {
    if (!isProperty(d) || d.values === null) continue;
    const values = [...new Set(d.values.split(',').map((v) => v.trim()))].filter((v) => v !== '');
    if (values.length) out[field] = values;
  }
  return out;
}

/**
 * A field's options: the platform's values in its order when it gives some (each labelled as the
 * built-in table labels it, or by its raw value when the app does not know it), else the field's
 * own options.
 */
export function definedOptions(field: FormField, allowed: readonly string[] | undefined): readonly Option[] {
  const builtIn = field.options ?? [];
  if (!allowed?.length) return builtIn;
  return allowed.map((value) => builtIn.find((o) => o.value === value) ?? { value, label: value });
}

/** The options with a stored value they lack added at the end, under its raw value. */
export function withStoredValue(options: readonly Option[], stored: unknown): readonly Option[] {
  if (typeof stored !== 'string' || stored === '' || options.some((o) => o.value === stored)) return options;
  return [...options, { value: stored, label: stored }];
}

/** The form's fields with their options as the platform defines them (`allowed`: its entity's). */
export function definedFields(form: SectionForm, allowed: AllowedValues | undefined): readonly FormField[] {
  if (!allowed) return form.fields;
  return form.fields.map((f) =>
    f.options && allowed[f.name]?.length ? { ...f, options: definedOptions(f, allowed[f.name]) } : f,
  );
}

/** The entities whose forms offer a choice from a list: the only ones `/define` is asked about. */
export function entitiesWithChoices(forms: readonly SectionForm[]): string[] {
  return [...new Set(forms.filter((f) => f.fields.some((x) => x.options)).map((f) => f.entity))];
}
