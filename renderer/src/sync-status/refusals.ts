// What a refused change's entry in the sync panel says besides its field messages. The platform's
// message often is those messages again (the 0.0.1 interface joins them; version 2 gives the first
// and "(and 1 more error)"): said once, under their fields, and not a second time above them.

/** Version 2's count of the messages it left out of `message`. */
const MORE_ERRORS = /\s*\(and \d+ more errors?\)\s*$/;

/** The platform's message when it says more than its field messages; null when it only repeats them. */
export function refusalHeadline(
  message: string,
  fields: Readonly<Record<string, readonly string[]>>,
): string | null {
  const said = Object.values(fields)
    .flat()
    .map((m) => m.trim())
    .filter(Boolean);
  if (said.length === 0) return message;
  let rest = message.replace(MORE_ERRORS, '').trim();
  for (const m of said) rest = rest.replace(m, '').trim();
  return rest === '' ? null : message;
}
