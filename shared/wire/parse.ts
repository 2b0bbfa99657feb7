// How the app reads the platform's answers (shared/wire/*): zod schemas, strict where the
// documents are clear (the ids a record is stored by) and lenient where they are vague. A lenient
// field never fails a parse: a value that breaks its documented type is replaced by a default
// (`soft`) or kept as received (`kept`), and the parse reports it as a repair, so that tests can
// insist on none while the app carries on.

import { z } from 'zod';

/** A field the parse had to repair. Names and messages only: values may be client data. */
export interface Repair {
  /** `Resource.field` as the schemas name it (`Engagement.status`), with the inner path if any. */
  field: string;
  message: string;
}

/** A parsed answer, or why it is not one: the path of the first offending field and its problem. */
export type WireResult<T> =
  { ok: true; value: T; repairs: Repair[] } | { ok: false; path: string; message: string };

/** The repairs of the parse under way (parses are synchronous, so one collector is enough). */
let collecting: Repair[] | null = null;

interface Leniency {
  inner: z.ZodType;
  fallback: (input: unknown) => unknown;
}
/** Lenient fields, so that `wireObject` can name them after their resource and key. */
const LENIENT = new WeakMap<z.ZodType, Leniency>();

const pathText = (path: readonly PropertyKey[]): string => path.map(String).join('.');

function lenient<T extends z.ZodType>(
  inner: T,
  fallback: (input: unknown) => z.output<T>,
  field: string,
): z.ZodCatch<T> {
  const schema = inner.catch((ctx) => {
    const message = ctx.error.issues
      .map((issue) => (issue.path.length > 0 ? `${pathText(issue.path)}: ${issue.message}` : issue.message))
      .join('; ');
    collecting?.push({ field, message });
    return fallback(ctx.input);
  });
  LENIENT.set(schema, { inner, fallback });
  return schema;
}

/**
 * A field whose documented type is a promise the app does not depend on: when the value breaks
 * it (or is missing), `fallback` takes its place. Objects and arrays are given as a function, so
 * that no two records share one default.
 */
export function soft<T extends z.ZodType>(
  inner: T,
  fallback: z.output<T> | (() => z.output<T>),
): z.ZodCatch<T> {
  const make = typeof fallback === 'function' ? (fallback as () => z.output<T>) : () => fallback;
  return lenient(inner, make, '');
}

/**
 * A field of a record the app syncs (account sections, member details): a value that breaks its
 * documented type is kept as received, because the local store mirrors the server and the push
 * sends values back as they came. Its static type is the documented one; the mappers that store
 * these records treat every value as unknown.
 */
export function kept<T extends z.ZodType>(inner: T): z.ZodCatch<T> {
  return lenient(inner, (input) => input as z.output<T>, '');
}

/**
 * A resource of the interfaces: the documented keys parsed by their schemas, unknown keys kept
 * (a newer platform may add some). Lenient fields get the resource's name for their repairs.
 */
export function wireObject<S extends z.core.$ZodLooseShape>(
  name: string,
  shape: S,
): z.ZodObject<S, z.core.$loose> {
  const named: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(shape) as [string, z.ZodType][]) {
    const soft = LENIENT.get(schema);
    named[key] = soft ? lenient(soft.inner, soft.fallback, `${name}.${key}`) : schema;
  }
  return z.looseObject(named) as unknown as z.ZodObject<S, z.core.$loose>;
}

/**
 * A list whose elements are read one by one: an element the schema refuses is left out (and
 * reported as a repair) instead of failing the whole list, as one bad record must not hide the
 * others.
 */
export function listOf<T extends z.ZodType>(item: T, name: string) {
  return z.array(z.unknown()).transform((elements) => {
    const out: z.output<T>[] = [];
    elements.forEach((element, i) => {
      // Repairs of an element left out do not count: only that it was left out.
      const outer = collecting;
      const mine: Repair[] = [];
      collecting = mine;
      let read: z.ZodSafeParseResult<z.output<T>>;
      try {
        read = item.safeParse(element);
      } finally {
        collecting = outer;
      }
      if (read.success) {
        out.push(read.data);
        outer?.push(...mine);
      } else outer?.push({ field: `${name}.${i}`, message: firstProblem(read.error) });
    });
    return out;
  });
}

/**
 * The first of several shapes a value may take (a currency as an object or a number): as
 * `z.union`, except that only the repairs of the shape that matched are reported, not those made
 * while trying the others.
 */
export function oneOf<const T extends readonly z.ZodType[]>(options: T): z.ZodType<z.output<T[number]>> {
  return z.unknown().transform((value, ctx) => {
    for (const option of options) {
      const outer = collecting;
      const mine: Repair[] = [];
      collecting = mine;
      let read: z.ZodSafeParseResult<unknown>;
      try {
        read = option.safeParse(value);
      } finally {
        collecting = outer;
      }
      if (read.success) {
        outer?.push(...mine);
        return read.data as z.output<T[number]>;
      }
    }
    ctx.addIssue({ code: 'custom', message: 'Invalid input: none of the documented shapes' });
    return z.NEVER;
  });
}

function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unreadable';
  return issue.path.length > 0 ? `${pathText(issue.path)}: ${issue.message}` : issue.message;
}

/**
 * Parses an answer with a schema: the typed value and the repairs made, or the path and problem
 * of the first field that the schema holds strictly (`what` names the answer in the message).
 */
export function parseWire<T extends z.ZodType>(
  schema: T,
  data: unknown,
  what = 'answer',
): WireResult<z.output<T>> {
  const outer = collecting;
  const repairs: Repair[] = [];
  collecting = repairs;
  try {
    const read = schema.safeParse(data);
    if (read.success) return { ok: true, value: read.data, repairs };
    const path = pathText(read.error.issues[0]?.path ?? []);
    return { ok: false, path, message: `The ${what} is not as documented: ${firstProblem(read.error)}` };
  } finally {
    collecting = outer;
  }
}

/** The parsed value, or null when the schema refuses it (for callers that skip what they cannot read). */
export function readWire<T extends z.ZodType>(schema: T, data: unknown): z.output<T> | null {
  const read = parseWire(schema, data);
  return read.ok ? read.value : null;
}
