// The one plain-object check of the app, for data that is not the platform's (bridge arguments,
// local values, rows of the local store). The platform's answers are read with the schemas of
// shared/wire/ instead.

/** An object that is not an array (and not null): something to read keys of. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
