// The one error type route handlers throw; server.ts renders it in the shape of the interface
// that was called (version 2: Laravel-style `{message, errors}`; version 0.0.1: `{status, code, messages}`).

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Validation failures: field name → messages (version 2) or the message list (version 0.0.1). */
    readonly fields: Record<string, string[]> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (what = 'Resource') => new ApiError(404, `${what} not found.`);
export const forbidden = (permission: string) =>
  new ApiError(403, `You do not have the permission ${permission} needed for this action.`);

/** A 422 from a list of `<field> …` messages; the field is the first word of each. */
export function invalid(messages: string[]): ApiError {
  const fields: Record<string, string[]> = {};
  for (const m of messages) (fields[m.split(' ')[0] ?? 'body'] ??= []).push(m);
  return new ApiError(422, messages[0] ?? 'The given data was invalid.', fields);
}

export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};
