// File names from a server are hostile until proven otherwise.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeFileName, uniqueName } from '../../../electron/main/files/file-names.ts';

const RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

function assertSafe(name: string): void {
  expect(name.length).toBeGreaterThan(0);
  expect(name.length).toBeLessThanOrEqual(120);
  expect(name).not.toMatch(/[<>:"/\\|?*]/);
  // eslint-disable-next-line no-control-regex -- checking that none are left
  expect(name).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  expect(name).not.toMatch(/^[.\s]/);
  expect(name).not.toMatch(/[.\s]$/);
  expect(name).not.toMatch(RESERVED);
  expect(name).not.toBe('..');
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

  it('bounds the length and keeps a short extension', () => {
    const name = sanitizeFileName(`${'x'.repeat(400)}.pdf`);
    expect(name.length).toBe(120);
    expect(name.endsWith('.pdf')).toBe(true);
    // Surrogate pairs are never split.
    const emoji = sanitizeFileName(`${'😀'.repeat(200)}.png`);
    expect(emoji.endsWith('.png')).toBe(true);
    expect(() => encodeURIComponent(emoji)).not.toThrow();
  });

  it('makes any hostile name safe (property)', () => {
    const hostile = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 300 }),
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
});
