// File names from a server are hostile until proven otherwise.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeFileName, uniqueName } from '../../../electron/main/files/file-names.ts';

// Written out here rather than imported: the test must not share the sanitizer's mistakes.
const DEVICES = ['con', 'prn', 'aux', 'nul', 'conin$', 'conout$'].concat(
  ['com', 'lpt'].flatMap((d) => [...'0123456789¹²³'].map((n) => d + n)),
);
/** What Windows reads as the device: the part before the first dot, without trailing spaces and dots. */
const deviceOf = (name: string) => (name.split('.')[0] ?? '').replace(/[\s.]+$/, '').toLowerCase();
const bytes = (name: string) => Buffer.byteLength(name, 'utf8');

function assertSafe(name: string): void {
  expect(name.length).toBeGreaterThan(0);
  expect(bytes(name)).toBeLessThanOrEqual(200);
  expect(name).not.toMatch(/[<>:"/\\|?*]/);
  // Control, format (bidi, zero-width, U+061C, BOM), surrogate and line-separator characters.
  expect(name).not.toMatch(/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u);
  expect(name).not.toMatch(/^[.\s]/);
  expect(name).not.toMatch(/[.\s]$/);
  expect(DEVICES).not.toContain(deviceOf(name));
  expect(name).not.toBe('..');
  // Stable: what the sanitizer gives back, it keeps.
  expect(sanitizeFileName(name)).toBe(name);
}

describe('sanitizeFileName', () => {
  it('keeps ordinary names as they are', () => {
    expect(sanitizeFileName('Statement 2026-03.pdf')).toBe('Statement 2026-03.pdf');
    expect(sanitizeFileName('Überweisung März.xlsx')).toBe('Überweisung März.xlsx');
  });

  it('drops every path part, whichever separator', () => {
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('..\\..\\Windows\\system.ini')).toBe('system.ini');
    expect(sanitizeFileName('/absolute/path/report.csv')).toBe('report.csv');
    expect(sanitizeFileName('C:\\Users\\x\\photo.png')).toBe('photo.png');
  });

  it('refuses hidden, dot-only, reserved and empty names', () => {
    expect(sanitizeFileName('.bashrc')).toBe('bashrc');
    expect(sanitizeFileName('..')).toBe('download');
    expect(sanitizeFileName('...')).toBe('download');
    expect(sanitizeFileName('')).toBe('download');
    expect(sanitizeFileName('CON')).toBe('download');
    expect(sanitizeFileName('nul.txt')).toBe('download');
    expect(sanitizeFileName('lpt1', 'file')).toBe('file');
    // The console devices of Windows, with or without an extension, in any case.
    expect(sanitizeFileName('CONIN$')).toBe('download');
    expect(sanitizeFileName('conout$.log')).toBe('download');
    expect(sanitizeFileName('../CONOUT$ ')).toBe('download');
    expect(sanitizeFileName('report.pdf. . ')).toBe('report.pdf');
  });

  it('replaces control, reserved and direction-changing characters', () => {
    expect(sanitizeFileName('a<b>c:d"e|f?g*h.txt')).toBe('a_b_c_d_e_f_g_h.txt');
    expect(sanitizeFileName('invoice\u202Efdp.exe')).toBe('invoice_fdp.exe');
    expect(sanitizeFileName('line\nbreak\u0000.txt')).toBe('line_break_.txt');
  });

  it('refuses device names Windows still reads through spaces, dots and extensions', () => {
    for (const raw of [
      'CON .txt',
      'con  .txt',
      'nul.tar.gz',
      'COM¹',
      'com² .log',
      'Lpt³.',
      'AUX. .txt',
      'PRN..x',
    ])
      expect(sanitizeFileName(raw), raw).toBe('download');
    // Device names inside a longer name are ordinary names.
    expect(sanitizeFileName('CONSOLE.txt')).toBe('CONSOLE.txt');
    expect(sanitizeFileName('my con.txt')).toBe('my con.txt');
    expect(sanitizeFileName('COM10.txt')).toBe('COM10.txt');
  });

  it('replaces invisible, bidi and format characters', () => {
    for (const c of [
      '\u061c',
      '\u200b',
      '\u200c',
      '\u200d',
      '\u200e',
      '\u200f',
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\ufeff',
      '\u00ad',
      '\u2060',
      '\u180e',
    ])
      expect(sanitizeFileName(`report${c}cod.pdf`), `U+${c.codePointAt(0)?.toString(16)}`).toBe(
        'report_cod.pdf',
      );
    expect(sanitizeFileName('\u061cCON.txt')).toBe('download');
    expect(sanitizeFileName('a\u2028b\u0085c.txt')).toBe('a_b_c.txt');
  });

  it('bounds the length in UTF-8 bytes and keeps a short extension', () => {
    const name = sanitizeFileName(`${'x'.repeat(400)}.pdf`);
    expect(name.length).toBe(200);
    expect(name.endsWith('.pdf')).toBe(true);
    // A 70-character Japanese name is 210 bytes in UTF-8: cut to whole characters within 200.
    const cjk = sanitizeFileName(`${'資産運用報告書'.repeat(10)}.pdf`);
    expect(bytes(cjk)).toBeLessThanOrEqual(200);
    expect(cjk).toBe(`${'資産運用報告書'.repeat(10).slice(0, 65)}.pdf`);
    // A name within the bound is left whole, however many UTF-16 units it has.
    const within = `${'€'.repeat(60)}.xlsx`;
    expect(sanitizeFileName(within)).toBe(within);
    // A flag is two code points: never split between them.
    const flags = sanitizeFileName(`${'🇫🇷'.repeat(40)}.png`);
    expect(flags).toBe(`${'🇫🇷'.repeat(24)}.png`);
    // One letter under a thousand marks is cut between code points.
    const stacked = sanitizeFileName(`a${'\u0301'.repeat(1000)}.txt`);
    expect(bytes(stacked)).toBeLessThanOrEqual(200);
    expect(stacked.endsWith('.txt')).toBe(true);
    // Surrogate pairs are never split.
    const emoji = sanitizeFileName(`${'😀'.repeat(200)}.png`);
    expect(emoji.endsWith('.png')).toBe(true);
    expect(() => encodeURIComponent(emoji)).not.toThrow();
  });

  it('makes any hostile name safe (property)', () => {
    const hostile = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.string({ unit: 'grapheme', maxLength: 300 }),
      fc.string({ unit: 'binary', minLength: 150, maxLength: 400 }),
      fc
        .array(
          fc.constantFrom(
            '..',
            '.',
            '/',
            '\\',
            'CON',
            'nul',
            'CONIN$',
            'conout$',
            'a',
            ' ',
            '\u0000',
            '\u202e',
            ':',
            'é',
            '😀',
            '.txt',
            '.tar.gz',
            'COM¹',
            'lpt3',
            '\u061c',
            '\u200d',
            '\u2066',
            '\ufeff',
            '資',
            '🇫🇷',
            '\u0301',
            '\ud800',
          ),
          { maxLength: 40 },
        )
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(hostile, (raw) => {
        assertSafe(sanitizeFileName(raw));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('uniqueName', () => {
  it('numbers a name that is taken, before the extension', () => {
    const taken = new Set(['a.pdf', 'a (2).pdf']);
    expect(uniqueName('a.pdf', (n) => taken.has(n))).toBe('a (3).pdf');
    expect(uniqueName('b.pdf', (n) => taken.has(n))).toBe('b.pdf');
    expect(uniqueName('noext', (n) => n === 'noext')).toBe('noext (2)');
  });

  it('stays within 200 bytes when the number is added', () => {
    const long = `${'資'.repeat(65)}.pdf`;
    const numbered = uniqueName(long, (n) => n === long);
    expect(numbered).toBe(`${'資'.repeat(64)} (2).pdf`);
    expect(bytes(numbered)).toBeLessThanOrEqual(200);
  });
});
