// A platform's text as the window shows it: every character that draws nothing or reorders the
// text becomes a visible mark (its code, a label naming it), and a file's name is the one written
// on disk, with the `_` that stand for hidden characters marked. Expected values are written from
// Unicode's definitions (UAX #9's bidi controls, general category Cf, Default_Ignorable_Code_Point,
// UTS #51's ZWJ sequences), not from the code.

import { describe, expect, it } from 'vitest';
import {
  fileNameParts,
  platformError,
  platformParts,
  platformPlain,
  type TextPart,
} from '../../../shared/platform-text.ts';

const text = (t: string): TextPart => ({ kind: 'text', text: t });
const mark = (code: string, name?: string, shown = ''): TextPart => {
  const label = `Hidden character ${code}${name ? ` (${name})` : ''}`;
  return { kind: 'hidden', code, label: shown ? `${label}, written as “${shown}”` : label, shown };
};
const codes = (parts: TextPart[]) => parts.flatMap((p) => (p.kind === 'hidden' ? [p.code] : []));

describe('platformParts', () => {
  it('marks every bidi control of UAX #9 with its code and name', () => {
    const controls: [string, string, string][] = [
      ['\u061c', 'U+061C', 'Arabic letter mark'],
      ['\u200e', 'U+200E', 'left-to-right mark'],
      ['\u200f', 'U+200F', 'right-to-left mark'],
      ['\u202a', 'U+202A', 'left-to-right embedding'],
      ['\u202b', 'U+202B', 'right-to-left embedding'],
      ['\u202c', 'U+202C', 'pop directional formatting'],
      ['\u202d', 'U+202D', 'left-to-right override'],
      ['\u202e', 'U+202E', 'right-to-left override'],
      ['\u2066', 'U+2066', 'left-to-right isolate'],
      ['\u2067', 'U+2067', 'right-to-left isolate'],
      ['\u2068', 'U+2068', 'first strong isolate'],
      ['\u2069', 'U+2069', 'pop directional isolate'],
    ];
    for (const [char, code, name] of controls)
      expect(platformParts(`Ann${char}Lee`), code).toEqual([text('Ann'), mark(code, name), text('Lee')]);
  });

  it('marks zero-width and other format characters (category Cf)', () => {
    const format: [string, string, string?][] = [
      ['\u200b', 'U+200B', 'zero width space'],
      ['\u200c', 'U+200C', 'zero width non-joiner'],
      ['\u200d', 'U+200D', 'zero width joiner'],
      ['\u2060', 'U+2060', 'word joiner'],
      ['\ufeff', 'U+FEFF', 'zero width no-break space'],
      ['\u00ad', 'U+00AD', 'soft hyphen'],
      ['\u2064', 'U+2064'], // INVISIBLE PLUS
      ['\u{e0041}', 'U+E0041'], // TAG LATIN CAPITAL LETTER A
      ['\u180e', 'U+180E'], // MONGOLIAN VOWEL SEPARATOR
    ];
    for (const [char, code, name] of format)
      expect(platformParts(`a${char}b`), code).toEqual([text('a'), mark(code, name), text('b')]);
  });

  it('marks controls, separators, lone surrogates and invisible fillers', () => {
    expect(codes(platformParts('a\u0000b\u001bc\u007fd\u0085e'))).toEqual([
      'U+0000',
      'U+001B',
      'U+007F',
      'U+0085',
    ]);
    expect(platformParts('a\u2028b\u2029c')).toEqual([
      text('a'),
      mark('U+2028', 'line separator'),
      text('b'),
      mark('U+2029', 'paragraph separator'),
      text('c'),
    ]);
    expect(codes(platformParts('x\ud800y'))).toEqual(['U+D800']);
    // Hangul fillers are letters (Lo) that draw nothing: Default_Ignorable_Code_Point.
    expect(codes(platformParts('\u3164\u115f\u1160\uffa0'))).toEqual([
      'U+3164',
      'U+115F',
      'U+1160',
      'U+FFA0',
    ]);
    expect(codes(platformParts('a\u034fb'))).toEqual(['U+034F']); // COMBINING GRAPHEME JOINER
  });

  it('keeps what draws: letters of any script, spaces, emoji and their sequences', () => {
    for (const kept of [
      'Ann Lee',
      'Álvarez-Núñez',
      'שרה כהן', // Hebrew: right to left by its letters, no control
      'محمد',
      '資産運用',
      'tab\tand\nline',
      '❤️', // U+2764 U+FE0F: a variation selector only chooses the emoji glyph
      '👍🏽',
      '👩‍💻', // U+1F469 U+200D U+1F4BB: one picture (UTS #51)
      '👨🏽‍🦰',
      '🏳️‍🌈',
    ])
      expect(platformParts(kept), kept).toEqual([text(kept)]);
    // A joiner between letters, or after an emoji with no emoji following, joins nothing visible.
    expect(codes(platformParts('a\u200db'))).toEqual(['U+200D']);
    expect(codes(platformParts('👩\u200d'))).toEqual(['U+200D']);
    expect(codes(platformParts('\u200d💻'))).toEqual(['U+200D']);
  });

  it('marks every one of several hidden characters in one name, in order', () => {
    expect(platformParts('\u202eAnn\u200b \u2066Lee\u2069\u061c')).toEqual([
      mark('U+202E', 'right-to-left override'),
      text('Ann'),
      mark('U+200B', 'zero width space'),
      text(' '),
      mark('U+2066', 'left-to-right isolate'),
      text('Lee'),
      mark('U+2069', 'pop directional isolate'),
      mark('U+061C', 'Arabic letter mark'),
    ]);
    expect(platformParts('')).toEqual([]);
  });
});

describe('platformPlain', () => {
  it('spells each hidden character out, and isolates (U+2068 … U+2069) right-to-left text', () => {
    expect(platformPlain('report\u202egnp.exe')).toBe('report[U+202E]gnp.exe');
    expect(platformPlain('Ann Lee')).toBe('Ann Lee');
    // Hebrew and Arabic letters (bidi classes R and AL) would pull neutral neighbours along.
    expect(platformPlain('שרה כהן')).toBe('\u2068שרה כהן\u2069');
    expect(platformPlain('محمد 2')).toBe('\u2068محمد 2\u2069');
    // The name's own isolates are spelt out, so only the outer pair is left to act.
    expect(platformPlain('a\u2069ש\u2068')).toBe('\u2068a[U+2069]ש[U+2068]\u2069');
  });
});

describe('platformError', () => {
  it('says an error’s message, or what was thrown, with its hidden characters spelt out', () => {
    expect(platformError(new Error('Ann\u202E is archived.'))).toBe('Ann[U+202E] is archived.');
    expect(platformError('No \u200Bteam')).toBe('No [U+200B]team');
  });
});

describe('fileNameParts', () => {
  const shownName = (parts: TextPart[]) => parts.map((p) => (p.kind === 'text' ? p.text : p.shown)).join('');

  it('shows the name written on disk, the `_` standing for U+202E marked', () => {
    const parts = fileNameParts('report\u202egnp.exe');
    expect(parts).toEqual([text('report'), mark('U+202E', 'right-to-left override', '_'), text('gnp.exe')]);
    expect(shownName(parts)).toBe('report_gnp.exe');
  });

  it('marks only the `_` of hidden characters, not the platform’s own or a reserved one', () => {
    // `:` is refused by Windows and written `_`, but hides nothing; the second `_` was the platform's.
    expect(fileNameParts('a:b_c\u200b.txt')).toEqual([
      text('a_b_c'),
      mark('U+200B', 'zero width space', '_'),
      text('.txt'),
    ]);
  });

  it('follows the disk: the last path part, no leading `_`, a bounded length', () => {
    expect(fileNameParts('../x\u2066y.pdf')).toEqual([
      text('x'),
      mark('U+2066', 'left-to-right isolate', '_'),
      text('y.pdf'),
    ]);
    // A hidden character at the start is dropped from the name on disk: nothing of it is left to show.
    expect(fileNameParts('\u202efdp.exe')).toEqual([text('fdp.exe')]);
    expect(fileNameParts('\u061cCON.txt')).toEqual([text('download')]);
    expect(fileNameParts('  ')).toEqual([text('file')]);
    // 300 letters and an extension holding U+200B: the stem is cut to 200 bytes with the
    // extension (4 bytes), whose `_` keeps its mark; one cut from the stem goes with it.
    expect(fileNameParts(`${'a'.repeat(150)}\u200d${'a'.repeat(150)}.p\u200bf`)).toEqual([
      text(`${'a'.repeat(150)}`),
      mark('U+200D', 'zero width joiner', '_'),
      text(`${'a'.repeat(45)}.p`),
      mark('U+200B', 'zero width space', '_'),
      text('f'),
    ]);
    expect(fileNameParts(`${'a'.repeat(300)}\u200b.p\u200bf`)).toEqual([
      text(`${'a'.repeat(196)}.p`),
      mark('U+200B', 'zero width space', '_'),
      text('f'),
    ]);
  });
});
