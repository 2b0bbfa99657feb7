// The local view of a record: the server's snapshot with every pending change re-applied on top,
// so that a pull never overwrites what the user changed here.

import type { Fields, Operation } from './model.ts';

/** Pending operations of one record, in their order (`seq`). Rejected and conflicted ones still count: the user's values stay visible. */
export function localView(server: Fields | null, pending: readonly Operation[]): Fields | null {
  let view: Fields | null = server ? { ...server } : null;
  for (const op of [...pending].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))) {
    if (op.kind === 'delete') return null;
    if (op.kind === 'create') view = { ...op.fields };
    else if (op.kind === 'update' || op.kind === 'upload' || op.kind === 'removeFile')
      view = { ...(view ?? {}), ...op.fields };
  }
  return view;
}

/** Flattens nested objects into dotted paths (`{client: {phone: {code}}}` → `client.phone.code`). Arrays and null stay values. */
export function flatten(value: Record<string, unknown>, prefix = '', out: Fields = {}): Fields {
  for (const [key, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date))
      flatten(v as Record<string, unknown>, path, out);
    else out[path] = v;
  }
  return out;
}

/** The opposite of `flatten`. */
export function unflatten(fields: Fields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, v] of Object.entries(fields)) {
    const parts = path.split('.');
    let node = out;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      node = (next !== null && typeof next === 'object' ? next : (node[part] = {})) as Record<
        string,
        unknown
      >;
    }
    node[parts[parts.length - 1] as string] = v;
  }
  return out;
}

/** Deep equality of field values (JSON-like data). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object')
    return (a ?? null) === (b ?? null);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}
