// The reader of typed numbers: what an advisor means by `12k`, `1.5m`, `1,234.56` or, in Germany,
// `1.234.567,89`, and a refusal with its reason for what cannot be read one way only. Expected
// values are what the advisor means, written out by hand; the properties check that every number
// the app itself writes, in every locale, reads back as itself.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readNumber, writeNumber, type NumberKind } from '../../../shared/typed-numbers.ts';

const amount = (text: string, locale = 'en-US') =>
  readNumber(text, { kind: 'amount', locale, currency: 'USD' });
const value = (text: string, locale = 'en-US', kind: NumberKind = 'amount') => {
  const r = readNumber(text, { kind, locale, currency: 'USD' });
  return r.ok ? r.value : `refused: ${r.problem}`;
};

describe('amounts as an advisor types them', () => {
  it('understands shorthand for thousands, millions and billions', () => {
    expect(value('12k')).toBe(12_000);
    expect(value('50k')).toBe(50_000);
    expect(value('50K')).toBe(50_000);
    expect(value('1.5m')).toBe(1_500_000);
    expect(value('2.25M')).toBe(2_250_000);
    expect(value('3mm')).toBe(3_000_000);
    expect(value('1.2bn')).toBe(1_200_000_000);
    expect(value('$12k')).toBe(12_000);
    expect(value('12 k')).toBe(12_000);
    expect(value('1.5m', 'de-DE')).toBe('refused: “1.5m” could be read two ways');
    expect(value('1,5m', 'de-DE')).toBe(1_500_000);
  });

  it('understands the separators of the user’s locale', () => {
    expect(value('1,234.56')).toBe(1234.56);
    expect(value('$1,234,567.89')).toBe(1_234_567.89);
    expect(value('1234.5')).toBe(1234.5);
    expect(value('1.234.567,89', 'de-DE')).toBe(1_234_567.89);
    expect(value('1.234,5', 'de-DE')).toBe(1234.5);
    expect(value('12,5', 'de-DE')).toBe(12.5);
    expect(value('1 234 567,89', 'fr-FR')).toBe(1_234_567.89);
    expect(value('1\u202f234,5 €', 'fr-FR')).toBe(1234.5);
    expect(value("1'234'567.50", 'de-CH')).toBe(1_234_567.5);
    expect(value('12,34,567', 'en-IN')).toBe(1_234_567);
    expect(value('١٬٢٣٤٫٥', 'ar-EG')).toBe(1234.5);
  });

  it('understands a text only one reading fits, whatever the locale', () => {
    // Two dots can only group thousands, and a comma after them can only be the decimal mark.
    expect(value('1.234.567,89')).toBe(1_234_567.89);
    expect(value('1,234.56', 'de-DE')).toBe(1234.56);
    expect(value('1.234.567')).toBe(1_234_567);
  });

  it('keeps a minus sign (whether a negative amount means anything is the field’s rule)', () => {
    expect(value('-5,000')).toBe(-5000);
    expect(value('−5000')).toBe(-5000);
    expect(value('-$5,000')).toBe(-5000);
  });

  it('reads an empty text as no value', () => {
    expect(amount('')).toEqual({ ok: true, value: null });
    expect(amount('   ')).toEqual({ ok: true, value: null });
  });

  it('refuses letters, with what to type instead', () => {
    const abc = amount('abc');
    expect(abc).toEqual({
      ok: false,
      problem: '“abc” is not a number',
      todo: 'type an amount such as 1,250.50, 12k or 1.5m',
    });
    expect(value('12x')).toBe('refused: “12x” is not a number');
    expect(value('k')).toBe('refused: “k” is not a number');
    expect(value('twelve')).toBe('refused: “twelve” is not a number');
  });

  it('refuses a power of ten: an advisor writes 1m', () => {
    const r = amount('1e6');
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : `${r.problem}: ${r.todo}`).toBe(
      '“1e6” is a power of ten: type it in full, such as 1000000, or as 1m',
    );
    expect(value('2E3')).toBe('refused: “2E3” is a power of ten');
  });

  it('refuses a mark that could mean thousands or decimals', () => {
    expect(value('1,5')).toBe('refused: “1,5” could be read two ways');
    expect(value('1.5', 'de-DE')).toBe('refused: “1.5” could be read two ways');
    expect(value('1.5', 'fr-FR')).toBe('refused: “1.5” could be read two ways');
    // An amount's third decimal is more likely a thousands mark of another locale.
    expect(value('1.234')).toBe('refused: “1.234” has more than 2 decimals');
    expect(value('12.000')).toBe('refused: “12.000” has more than 2 decimals');
    expect(value('1,23,4')).toBe('refused: “1,23,4” has its thousands marks in the wrong places');
  });

  it('refuses numbers beyond ten trillion', () => {
    expect(value('99999999999999')).toBe(
      'refused: “99999999999999” is larger than any amount this app holds',
    );
  });
});

describe('counts, years and rates', () => {
  it('reads whole numbers and refuses fractions and shorthand there', () => {
    expect(value('2', 'en-US', 'integer')).toBe(2);
    expect(value('abc', 'en-US', 'integer')).toBe('refused: “abc” is not a number');
    expect(value('2.5', 'en-US', 'integer')).toBe('refused: “2.5” is not a whole number');
    expect(value('12k', 'en-US', 'integer')).toBe('refused: “12k” uses a shorthand meant for amounts');
    expect(value('2031', 'en-US', 'year')).toBe(2031);
  });

  it('reads rates with a percent sign and four decimals', () => {
    expect(value('4.5%', 'en-US', 'percent')).toBe(4.5);
    expect(value('4,25 %', 'de-DE', 'percent')).toBe(4.25);
    expect(value('3.1415', 'en-US', 'number')).toBe(3.1415);
    expect(value('3.14159', 'en-US', 'number')).toBe('refused: “3.14159” has more than 4 decimals');
  });
});

describe('properties', () => {
  const LOCALES = ['en-US', 'de-DE', 'fr-FR', 'de-CH', 'en-IN', 'es-ES', 'sv-SE', 'ja-JP', 'pt-BR'];
  const locale = fc.constantFrom(...LOCALES);
  const cents = fc.integer({ min: -999_999_999_999, max: 999_999_999_999 }).map((c) => c / 100);

  it('every amount the app writes, in every locale, reads back as itself', () => {
    fc.assert(
      fc.property(cents, locale, (v, l) => {
        const options = { kind: 'amount' as const, locale: l, currency: 'USD' };
        expect(readNumber(writeNumber(v, options), options)).toEqual({ ok: true, value: v });
      }),
    );
  });

  it('a whole number written without marks reads as itself, with or without k', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999 }), locale, (n, l) => {
        expect(readNumber(String(n), { kind: 'amount', locale: l })).toEqual({ ok: true, value: n });
        expect(readNumber(`${n}k`, { kind: 'amount', locale: l })).toEqual({ ok: true, value: n * 1000 });
      }),
    );
  });

  it('a text holding a letter other than shorthand is never read as a number', () => {
    const letter = fc.constantFrom(...'acdefghijlnopqrstuvwxyzACDEFGHIJLNOPQRSTUVWXYZ'.split(''));
    fc.assert(
      fc.property(fc.string(), letter, fc.string(), locale, (a, x, b, l) => {
        const r = readNumber(`${a}${x}${b}`, { kind: 'integer', locale: l });
        expect(r.ok).toBe(false);
      }),
    );
  });

  it('a reading is either a finite number with the kind’s decimals or a refusal with advice', () => {
    const kind = fc.constantFrom<NumberKind>('amount', 'number', 'percent', 'integer', 'year');
    fc.assert(
      fc.property(fc.stringMatching(/^[-\d.,' $km%e]{0,12}$/), kind, locale, (text, k, l) => {
        const r = readNumber(text, { kind: k, locale: l, currency: 'USD' });
        if (!r.ok) expect(r.todo.length).toBeGreaterThan(0);
        else if (r.value === null) expect(text.replace(/[$%\s]/g, '')).toBe('');
        else {
          expect(Number.isFinite(r.value)).toBe(true);
          const decimals = k === 'amount' ? 2 : k === 'integer' || k === 'year' ? 0 : 4;
          const scaled = r.value * 10 ** decimals;
          expect(Math.abs(Math.round(scaled) - scaled)).toBeLessThan(1e-6);
        }
      }),
    );
  });
});
