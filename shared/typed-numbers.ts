// Numbers as an advisor types them (`12k`, `1.5m`, `$1,234.56`, `1.234.567,89` in German), read
// into values, or refused with the reason and what to type instead: a text is never misread.
// The one reader of amounts, counts, years and rates; the inputs of every form use it.

/** What the number is: it decides the decimals allowed and whether `k`/`m` shorthand applies. */
export type NumberKind = 'amount' | 'number' | 'percent' | 'integer' | 'year';

export interface NumberOptions {
  kind: NumberKind;
  /** The user's locale (BCP 47); its decimal mark and grouping are the ones understood first. */
  locale?: string;
  /** ISO 4217 code of an amount's currency (`USD`), which may be typed with the amount. */
  currency?: string;
}

/** A reading: the value (null for an empty text), or why the text was refused and what to type. */
export type NumberReading = { ok: true; value: number | null } | { ok: false; problem: string; todo: string };

/** Decimals each kind holds: cents for amounts; rates and factors to four places. */
const DECIMALS: Readonly<Record<NumberKind, number>> = {
  amount: 2,
  number: 4,
  percent: 4,
  integer: 0,
  year: 0,
};

/** Shorthand advisors write after an amount: thousand, million, billion (`bn`; `mm` as in finance). */
const SHORTHAND: Readonly<Record<string, number>> = { k: 3, m: 6, mm: 6, mn: 6, b: 9, bn: 9 };

/** The largest magnitude read: beyond it a double no longer holds every cent. */
const LARGEST = 1e13;

interface Marks {
  decimal: '.' | ',';
  group: string;
  /** Groups of two after the first thousand (`12,34,567` in India). */
  indian: boolean;
}

const marksCache = new Map<string, Marks>();

/** The locale's decimal mark and grouping, as `Intl` writes 1234567.5. */
export function numberMarks(locale?: string): Marks {
  const key = locale ?? '';
  const known = marksCache.get(key);
  if (known) return known;
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(locale, { numberingSystem: 'latn' });
  } catch {
    format = new Intl.NumberFormat('en-US');
  }
  const parts = format.formatToParts(1234567.5);
  const decimal = parts.find((p) => p.type === 'decimal')?.value === ',' ? ',' : '.';
  const group = parts.find((p) => p.type === 'group')?.value ?? '';
  const indian = parts.filter((p) => p.type === 'integer').map((p) => p.value.length)[1] === 2;
  const marks: Marks = { decimal, group, indian };
  marksCache.set(key, marks);
  return marks;
}

/** Digits of other scripts (Arabic-Indic, Persian, Devanagari, full width) as 0–9. */
const DIGIT_ZEROS = [0x0660, 0x06f0, 0x0966, 0xff10];
function latinDigits(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    const zero = DIGIT_ZEROS.find((z) => code >= z && code <= z + 9);
    out += zero === undefined ? ch : String(code - zero);
  }
  // The Arabic decimal and thousands marks.
  return out.replace(/\u066b/g, '.').replace(/\u066c/g, ',');
}

/** How the locale writes a currency's sign (`US$` in Spain, `$` in the US). */
function currencySign(currency: string, locale?: string): string {
  try {
    const parts = new Intl.NumberFormat(locale, { style: 'currency', currency }).formatToParts(1);
    return parts.find((p) => p.type === 'currency')?.value ?? '';
  } catch {
    return '';
  }
}

/** Spaces and apostrophes are only ever thousands separators (`1 234 567`, `1'234'567`). */
const SPACE_GROUP = /[\s\u00a0\u202f'’]/;

const refuse = (problem: string, todo: string): NumberReading => ({ ok: false, problem, todo });

/** How a kind's number is typed, in the user's marks, for "type …" advice. */
function example(kind: NumberKind, marks: Marks): string {
  const d = marks.decimal;
  switch (kind) {
    case 'amount':
      return `type an amount such as ${d === '.' ? '1,250.50' : '1.250,50'}, 12k or 1.5m`;
    case 'integer':
      return 'type a whole number such as 3';
    case 'year':
      return 'type a year such as 2031';
    default:
      return `type a number such as 4${d}5`;
  }
}

/** A mark that may separate thousands or decimals: the locale's way is shown. */
const unclear = (quoted: string, kind: NumberKind, marks: Marks): NumberReading =>
  refuse(
    `${quoted} could be read two ways`,
    `here one and a half is written 1${marks.decimal}5 and twelve thousand 12${marks.group === ',' || marks.group === '.' ? marks.group : ' '}000; ${example(kind, marks)}`,
  );

/** Checks the thousands groups of an integer part split at its separators. */
function groupsValid(groups: string[], marks: Marks): boolean {
  const [first = '', ...rest] = groups;
  if (!/^\d{1,3}$/.test(first) || rest.length === 0) return false;
  if (rest.every((g) => /^\d{3}$/.test(g))) return true;
  // 12,34,567: groups of two, then a last one of three.
  const last = rest[rest.length - 1] ?? '';
  return (
    marks.indian &&
    /^\d{1,2}$/.test(first) &&
    /^\d{3}$/.test(last) &&
    rest.slice(0, -1).every((g) => /^\d{2}$/.test(g))
  );
}

/**
 * Which of `.` and `,` is the decimal mark of this text, or null when it has none, or `unclear`
 * when the text could be read two ways: the locale's marks first; a mark used more than once, or
 * before the other one, can only group thousands whatever the locale (`1.234.567,89`).
 */
function decimalMarkOf(body: string, marks: Marks): '.' | ',' | null | 'unclear' {
  const dots = body.split('.').length - 1;
  const commas = body.split(',').length - 1;
  if (dots && commas) {
    const last = body.lastIndexOf('.') > body.lastIndexOf(',') ? '.' : ',';
    return (last === '.' ? dots : commas) === 1 ? last : 'unclear';
  }
  if (!dots && !commas) return null;
  const mark = dots ? '.' : ',';
  if (Math.max(dots, commas) > 1) return null;
  if (mark === marks.decimal) return mark;
  // The one mark is the locale's thousands separator, or neither of its marks: grouping only
  // when it is the locale's and is followed by exactly three digits (checked with the groups).
  return mark === marks.group ? null : 'unclear';
}

/**
 * Reads a typed number. Understood: the locale's marks (`1,234.56` in the US, `1.234,56` in
 * Germany), texts only one reading fits in any locale (`1.234.567,89`), spaces and apostrophes
 * between thousands, a currency sign or code, a leading minus, and for amounts `k`, `m`
 * (`mm`, `mn`) and `b` (`bn`) for thousand, million and billion. Refused with a reason: letters,
 * powers of ten (`1e6`: an advisor means `1m`), a mark that could be read two ways (`1,5` in the
 * US), more decimals than the kind holds (an amount's third decimal is more likely a misplaced
 * thousands mark), and numbers beyond ten trillion.
 */
export function readNumber(text: string, options: NumberOptions): NumberReading {
  const { kind } = options;
  const marks = numberMarks(options.locale);
  const typed = text.trim();
  if (typed === '') return { ok: true, value: null };
  const quoted = `“${typed}”`;
  let s = latinDigits(typed);

  // A currency sign or code, and a percent sign, say what the number is, not how much.
  if (options.currency) {
    const written = currencySign(options.currency, options.locale);
    if (written) s = s.split(written).join(' ');
    s = s.replace(new RegExp(`\\b${options.currency}\\b`, 'i'), ' ');
  }
  s = s.replace(/\p{Sc}/gu, ' ');
  if (kind === 'percent') s = s.replace(/%\s*$/, '');
  s = s.trim();

  let negative = false;
  const sign = /^[-−–]\s*/.exec(s);
  if (sign) {
    negative = true;
    s = s.slice(sign[0].length).trim();
  }
  // A currency sign after the minus (`-$5,000`).
  s = s.replace(/^\s+/, '');

  if (/\d\s*e\s*[-+]?\s*\d/i.test(s))
    return refuse(
      `${quoted} is a power of ten`,
      kind === 'amount' ? 'type it in full, such as 1000000, or as 1m' : 'type it in full, such as 1000000',
    );

  let shift = 0;
  const short = /^(.*?\d[\d.,]*)\s*(k|mm|mn|m|bn|b)\.?$/i.exec(s);
  if (short) {
    if (kind !== 'amount')
      return refuse(`${quoted} uses a shorthand meant for amounts`, example(kind, marks));
    s = short[1] as string;
    shift = SHORTHAND[(short[2] as string).toLowerCase()] ?? 0;
  }

  if (!/^[\d.,\s\u00a0\u202f'’]+$/.test(s) || !/\d/.test(s))
    return refuse(`${quoted} is not a number`, example(kind, marks));

  const decimal = decimalMarkOf(s, marks);
  if (decimal === 'unclear') return unclear(quoted, kind, marks);
  const cut = decimal ? s.lastIndexOf(decimal) : -1;
  const whole = cut < 0 ? s : s.slice(0, cut);
  const fraction = cut < 0 ? '' : s.slice(cut + 1);
  if (!/^\d*$/.test(fraction)) return refuse(`${quoted} is not a number`, example(kind, marks));

  const groupMark = decimal ? (decimal === '.' ? ',' : '.') : whole.includes('.') ? '.' : ',';
  const groups = whole.split(new RegExp(`\\${groupMark}|${SPACE_GROUP.source}+`));
  if (groups.length > 1 && !groupsValid(groups, marks))
    return /^[^.,]*[.,][^.,]*$/.test(s) && !SPACE_GROUP.test(s)
      ? unclear(quoted, kind, marks)
      : refuse(
          `${quoted} has its thousands marks in the wrong places`,
          `${example(kind, marks)}, or leave the marks out`,
        );
  const intDigits = groups.join('');
  if (intDigits === '' && fraction === '') return refuse(`${quoted} is not a number`, example(kind, marks));

  // Shift the decimal point by the shorthand on the digits themselves: 1.5m is exactly 1500000.
  const digits = intDigits + fraction;
  const point = intDigits.length + shift;
  const intPart = digits.length >= point ? digits.slice(0, point) : digits.padEnd(point, '0');
  const fracPart = digits.length > point ? digits.slice(point) : '';

  const allowed = DECIMALS[kind];
  if (fracPart.length > allowed) {
    if (allowed === 0)
      return refuse(
        `${quoted} is not a whole number`,
        kind === 'year' ? 'type a year such as 2031' : 'type a whole number such as 3',
      );
    return refuse(
      `${quoted} has more than ${allowed} decimals`,
      kind === 'amount'
        ? `an amount has cents at most: type the thousands without a mark, such as 1234, or cents, such as 1${marks.decimal}23`
        : `round it to ${allowed} decimals`,
    );
  }
  const value = Number(`${intPart || '0'}.${fracPart || '0'}`);
  if (!Number.isFinite(value) || value >= LARGEST)
    return refuse(`${quoted} is larger than any amount this app holds`, 'check the number of digits');
  return { ok: true, value: negative && value !== 0 ? -value : value };
}

/** A number as the locale writes it, for an input showing a value: `$1,234.5`, `4.25`, `2031`. */
export function writeNumber(value: number | null, options: NumberOptions): string {
  if (value === null || !Number.isFinite(value)) return '';
  const locale = options.locale;
  const digits = DECIMALS[options.kind];
  try {
    if (options.kind === 'amount' && options.currency)
      return new Intl.NumberFormat(locale, {
        style: 'currency',
        currency: options.currency,
        minimumFractionDigits: 0,
        maximumFractionDigits: digits,
        numberingSystem: 'latn',
      }).format(value);
    return new Intl.NumberFormat(locale, {
      maximumFractionDigits: digits,
      useGrouping: options.kind !== 'year',
      numberingSystem: 'latn',
    }).format(value);
  } catch {
    return String(value);
  }
}
