// CSV text as spreadsheets read it (RFC 4180): UTF-8 with a byte-order mark so that Excel reads
// accents and symbols right, CRLF line ends, fields quoted when they hold a comma, a quote or a
// line break. Text a spreadsheet would run as a formula (=, +, -, @, a tab or a carriage return at
// its start: CSV injection) is written with a leading apostrophe, so it stays the text typed.

export const BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** A text field, guarded against being run as a formula. */
export const guardedText = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);

/** One field, quoted when it must be. */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Rows of fields (already text) as a CSV file's text, with its byte-order mark. */
export function csvText(rows: readonly (readonly string[])[]): string {
  return BOM + rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}
