// The values a list of a form offers (a select, an amount's frequency): the platform's definition
// (`/define`) when this computer holds one, else the built-in table (section-forms/, from the document).
// A value the platform allows that the app does not know is offered under its raw value; a stored
// value in neither list is offered too, so that it is shown and kept rather than blanked.

import { Definitions, type Definition, type PropertyDefinition } from './wire/v0/define.ts';
import { readWire } from './wire/parse.ts';
import type { FormField, Option, SectionForm } from './section-forms/form.ts';
import { FREQUENCY_OPTIONS } from './section-forms/labels.ts';

/**
 * Allowed values by field, as one entity's definition gives them: each enumerated property, a
 * nested one by its dotted path (`current_value.frequency`, `owner.type`), as the member form
 * names its fields (`citizenship.country`).
 */
export type AllowedValues = Readonly<Record<string, readonly string[]>>;

/** What this computer keeps of `/define`: the allowed values by entity (`Plan`), then by field. */
export type AllowedByEntity = Readonly<Record<string, AllowedValues>>;

const isProperty = (d: Definition): d is PropertyDefinition =>
  typeof (d as PropertyDefinition).read === 'boolean' && typeof (d as PropertyDefinition).type === 'string';

/**
 * The allowed values of an entity's definition, by field: each property whose `values` lists
 * some (comma-separated, trimmed, empty parts and repeats left out), those of a composite property
 * (the document: "a nested map of the same kind per sub-field") under `field.sub`. Null when the
 * answer is not a definition map.
 */
export function allowedValuesOf(answer: unknown): Record<string, string[]> | null {
  const definition = readWire(Definitions, answer);
  if (!definition) return null;
  const out: Record<string, string[]> = {};
  const collect = (map: Readonly<Record<string, Definition>>, prefix: string) => {
    for (const [name, d] of Object.entries(map)) {
      if (!isProperty(d)) {
        collect(d, `${prefix}${name}.`);
        continue;
      }
      if (d.values === null) continue;
      const values = [...new Set(d.values.split(',').map((v) => v.trim()))].filter((v) => v !== '');
      if (values.length) out[`${prefix}${name}`] = values;
    }
  };
  collect(definition, '');
  return out;
}

/**
 * Options as the platform defines them: its values in its order when it gives some (each labelled
 * as the built-in table labels it, or by its raw value when the app does not know it), else the
 * built-in table.
 */
export function labelledOptions(
  builtIn: readonly Option[],
  allowed: readonly string[] | undefined,
): readonly Option[] {
  if (!allowed?.length) return builtIn;
  return allowed.map((value) => builtIn.find((o) => o.value === value) ?? { value, label: value });
}

/** A select's options: `labelledOptions` of the field's own. */
export function definedOptions(field: FormField, allowed: readonly string[] | undefined): readonly Option[] {
  return labelledOptions(field.options ?? [], allowed);
}

/** The options with a stored value they lack added at the end, under its raw value. */
export function withStoredValue(options: readonly Option[], stored: unknown): readonly Option[] {
  if (typeof stored !== 'string' || stored === '' || options.some((o) => o.value === stored)) return options;
  return [...options, { value: stored, label: stored }];
}

/** The path of an amount's frequency in a definition (`current_value.frequency`). */
const frequencyPath = (field: FormField) => `${field.name}.frequency`;

/**
 * Fields with their lists as the platform defines them (`allowed`: their entity's): a select's
 * options, an amount's frequencies. A field the definition gives no values for keeps its own.
 */
export function definedFieldList(
  fields: readonly FormField[],
  allowed: AllowedValues | undefined,
): readonly FormField[] {
  if (!allowed) return fields;
  return fields.map((f) => {
    if (f.options && allowed[f.name]?.length) return { ...f, options: definedOptions(f, allowed[f.name]) };
    const frequencies = f.input === 'currency' ? allowed[frequencyPath(f)] : undefined;
    if (frequencies?.length) return { ...f, frequencies: labelledOptions(FREQUENCY_OPTIONS, frequencies) };
    return f;
  });
}

/** The form's fields with their lists as the platform defines them (`allowed`: its entity's). */
export function definedFields(form: SectionForm, allowed: AllowedValues | undefined): readonly FormField[] {
  return definedFieldList(form.fields, allowed);
}

/** Whether a field offers a choice from a list: a select, or an amount's frequency. */
const hasChoice = (f: FormField) => Boolean(f.options) || f.input === 'currency';

/**
 * The entities whose forms offer a choice from a list (a select, or an amount and how often it
 * comes): the only sections `/define` is asked about.
 */
export function entitiesWithChoices(forms: readonly SectionForm[]): string[] {
  return [...new Set(forms.filter((f) => f.fields.some(hasChoice)).map((f) => f.entity))];
}
