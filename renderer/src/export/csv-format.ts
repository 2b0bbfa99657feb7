// CSV as spreadsheets read it: UTF-8 with a byte-order mark (Excel takes the file for ANSI without
// one), RFC 4180 quoting, CRLF line ends, and a guard against formula injection: a text cell that a
// spreadsheet would run as a formula (=, +, -, @, tab, CR first) is written with a leading ', except
// a negative number, which a spreadsheet reads as the same number (see below).
// Workbooks need no guard: their text cells are strings (t="s"), never formulas (xlsx-sheets.ts).

/** The UTF-8 byte-order mark, first in every CSV file written here. */
export const CSV_BOM = '\uFEFF';

/** A value of a cell: empty (null) stays an empty field, never 0 or "null". */
export type CsvValue = string | number | boolean | null;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

// A negative number given as text (-12.5) is left as it is: a spreadsheet reads it as the same
// number, and nothing in it can call a function, refer to a cell or start a program (OWASP, "CSV
// Injection"). A phone number keeps the guard, though it cannot run either: Excel would read
// +1 555 123 4567 as a formula (a space between operands is its intersection operator) and show
// an error where the number was, worse for the advisor than a leading '.
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;

/** One field: guarded when a spreadsheet would read it as a formula, quoted when it holds , " or a line end. */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  // Numbers are written by the app, not typed by anyone: -12.5 stays a number.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const text = FORMULA_START.test(value) && !NEGATIVE_NUMBER.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, ended by CRLF (RFC 4180). */
export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
