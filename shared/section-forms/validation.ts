// A section edit form's fields checked as the server checks them, and the server's messages moved
// onto the fields they name: either way a message lands on the right input, in the server's words.

import type { FormField, SectionForm } from './form.ts';

/** A value the server counts as not given. */
export const isBlank = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Whether a composite value carries what the interface requires of it. */
function present(field: FormField, v: unknown): boolean {
  if (isBlank(v)) return false;
  const o = v as Record<string, unknown>;
  switch (field.input) {
    case 'relation':
      return typeof o === 'string' || !isBlank(o.type);
    case 'currency':
      return typeof o === 'number' || (typeof o === 'object' && typeof o.value === 'number');
    case 'file':
      return typeof o === 'object';
    default:
      return true;
  }
}

/**
 * The messages the server would give for these fields, by field name, in its wording
 * (`current-value is required.`), checked as the user types. A goal's target needs both parts.
 */
export function validateSection(
  form: SectionForm,
  fields: Readonly<Record<string, unknown>>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const field of form.fields) {
    if (!field.required) continue;
    const v = fields[field.name];
    if (!present(field, v)) out[field.name] = [`${field.messageName} is required.`];
    else if (field.input === 'target') {
      const t = v as { value?: unknown; date?: unknown };
      const missing = [
        typeof t.value === 'number' ? null : `${field.messageName}.value is required.`,
        isBlank(t.date) ? `${field.messageName}.date is required.` : null,
      ].filter((m): m is string => m !== null);
      if (missing.length) out[field.name] = missing;
    }
  }
  return out;
}

/**
 * The server's field messages (keyed as the messages name fields: `current-value`,
 * `target.value`) moved onto the form's field names; messages naming no field of the form are
 * kept under `''` so that the form can still show them.
 */
export function messagesByField(
  form: SectionForm,
  messages: Readonly<Record<string, readonly string[]>>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, list] of Object.entries(messages)) {
    const root = key.split('.')[0] ?? key;
    const field = form.fields.find((f) => f.messageName === root || f.name === root);
    const name = field?.name ?? '';
    (out[name] ??= []).push(...list);
  }
  return out;
}
