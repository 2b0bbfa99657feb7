// A phone number written one way wherever it is shown (the overview, the tables, the summary):
// `+1 692 708 8843`. The platform keeps a number as `+16927088843`, the advisor may type
// `+1 692-708-8843`, and an account gives a calling code and a number apart (`+1`, `6927088843`);
// shown side by side they read as three numbers. The inputs keep what was typed; only the display
// is one. A number without its country code is shown as typed: its country is unknown.

import { CALLING_CODES } from '@shared/account-rules.ts';

/** The calling codes' digits, longest first, so that `+353` is not read as `+3`. */
const CODES = [...new Set(Object.values(CALLING_CODES).map((c) => c.replace(/\D/g, '')))]
  .filter(Boolean)
  .sort((a, b) => b.length - a.length);

/**
 * The national number in groups: the last four digits together, the rest in threes counted from
 * them (`692 708 8843`, `791 112 3456`, `1 234 5678`).
 */
function grouped(national: string): string {
  const groups = [national.slice(-4)];
  for (let end = national.length - 4; end > 0; end -= 3)
    groups.unshift(national.slice(Math.max(0, end - 3), end));
  return groups.join(' ');
}

/** A stored or typed phone number in the one written form, or as it is when that cannot be known. */
export function phoneText(raw: unknown): string {
  const text = typeof raw === 'string' ? raw.trim() : '';
  const digits = text.replace(/\D/g, '');
  if (!text.startsWith('+') || digits.length < 5 || /[^\d\s+().-]/.test(text)) return text;
  const code = CODES.find((c) => digits.startsWith(c) && digits.length - c.length >= 4);
  return code ? `+${code} ${grouped(digits.slice(code.length))}` : `+${digits}`;
}
