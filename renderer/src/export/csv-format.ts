// CSV as spreadsheets read it: UTF-8 with a byte-order mark (Excel takes the file for ANSI without
// one), RFC 4180 quoting, CRLF line ends, and a guard against formula injection: a text cell that a
// spreadsheet would run as a formula (=, +, -, @, tab, CR first) is written with a leading ', except
// a phone number or a negative number, which no spreadsheet can run as anything harmful (see below).
// Workbooks need no guard: their text cells are strings (t="s"), never formulas (xlsx-sheets.ts).

/** The UTF-8 byte-order mark, first in every CSV file written here. */
export const CSV_BOM = '\uFEFF';

/** A value of a cell: empty (null) stays an empty field, never 0 or "null". */
export type CsvValue = string | number | boolean | null;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

// What formula injection needs (OWASP, "CSV Injection"): a function or a name (letters), a
// reference (letters: A1, R1C1, Sheet!A1), a DDE link (|) or a string (") after the first sign.
// Text of only digits, spaces, dots, dashes and parentheses has none of these, so the guard may
// leave it as it is when the spreadsheet reads the advisor's value back unchanged:
// - a negative number (-12.5): a spreadsheet that runs it gets the same number;
// - a phone number whose digit groups are set apart by a space (+1 555 123 4567,
//   +1 (555) 123-4567): two operands side by side are no expression in Excel (a space between
//   operands is the intersection of two ranges, and a number is no range), LibreOffice or
//   Google Sheets: nothing computes it, and at worst a spreadsheet that tries shows an error
//   instead of the text; nothing runs.
// Still guarded: anything with another character (-2+3, +cmd|' /C calc'!A0, -1*5), and shapes that
// do compute something else: +1-555-0100 (= -654), +15550100 (= 15550100, the + lost), -(1).
const ONLY_DIGITS_AND_PUNCTUATION = /^[+-][\d ().-]*$/;
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;
const OPERANDS_SIDE_BY_SIDE = /[\d)] [\d(]/;

/** Whether a text that starts like a formula is only a phone number or a negative number. */
function harmlessNumberText(value: string): boolean {
  if (!ONLY_DIGITS_AND_PUNCTUATION.test(value) || value.includes('  ')) return false;
  return NEGATIVE_NUMBER.test(value) || OPERANDS_SIDE_BY_SIDE.test(value);
}

/** One field: guarded when a spreadsheet would read it as a formula, quoted when it holds , " or a line end. */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  // Numbers are written by the app, not typed by anyone: -12.5 stays a number.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const text = FORMULA_START.test(value) && !harmlessNumberText(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, ended by CRLF (RFC 4180). */
export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
