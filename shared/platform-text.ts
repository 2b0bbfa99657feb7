// A text from the platform (a member's name, a file's name, a questionnaire's title) as the window
// shows it: every character that is invisible or reorders what is drawn made visible, and the text
// isolated from what surrounds it, so that `report\u202Egnp.exe` cannot pass for "reportexe.png" and
// a name cannot flip the title it sits in. PlatformText.vue draws the parts; `platformPlain` is
// the form for plain strings (tooltips, aria-labels, messages).
//
// Made visible (Unicode 15.1, UAX #9 and the Default_Ignorable_Code_Point property):
// - the bidi controls: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069;
// - every other format character (general category Cf: U+00AD, U+200B–U+200D, U+2060–U+2064,
//   U+FEFF, the tags U+E0001–U+E007F …), controls (Cc, but tab and line breaks, which HTML draws as
//   space), lone surrogates (Cs), the line and paragraph separators U+2028 and U+2029 and the other
//   default-ignorable characters (Hangul fillers U+115F, U+1160, U+3164, U+FFA0, U+034F …);
// - kept as they are: variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF), which only choose a
//   glyph (emoji or text style), and U+200D between two emoji, which joins them into one picture
//   (UTS #51 ZWJ sequences: 👩‍💻).

import { sanitizedName } from './file-names.ts';

/** A run of text drawn as it is, or one hidden character drawn as its mark. */
export type TextPart =
  | { kind: 'text'; text: string }
  | {
      kind: 'hidden';
      /** `U+202E`: what the mark shows. */
      code: string;
      /** "Hidden character U+202E (right-to-left override)": its tooltip and what a screen reader says. */
      label: string;
      /** What stands in its place in the name as written (`_` on disk), or ''. */
      shown: string;
    };

const HIDDEN = /^[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]$/u;
const ZWJ = '\u200D';
const PICTURE = /^\p{Extended_Pictographic}$/u;
const within = (point: string, ranges: readonly (readonly [number, number])[]) => {
  const code = point.codePointAt(0) ?? -1;
  return ranges.some(([from, to]) => code >= from && code <= to);
};
/** Drawn as space (tab, line feed, carriage return), or choosing a glyph (variation selectors). */
const KEPT = [
  [0x09, 0x0a],
  [0x0d, 0x0d],
  [0xfe00, 0xfe0f],
  [0xe0100, 0xe01ef],
] as const;
/** What may sit between an emoji and a joiner: emoji style (U+FE0F), a skin tone (U+1F3FB–U+1F3FF). */
const EMOJI_TAIL = [
  [0xfe0f, 0xfe0f],
  [0x1f3fb, 0x1f3ff],
] as const;

/** Names of the characters an advisor is most likely to meet, from the Unicode character database. */
const NAMES: Record<number, string> = {
  0x00ad: 'soft hyphen',
  0x061c: 'Arabic letter mark',
  0x200b: 'zero width space',
  0x200c: 'zero width non-joiner',
  0x200d: 'zero width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0xfeff: 'zero width no-break space',
};

/** `U+202E`: a code point as Unicode writes it, at least four hex digits. */
export function codeOf(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

function hiddenPart(char: string, shown: string): TextPart {
  const code = codeOf(char);
  const name = NAMES[char.codePointAt(0) ?? -1];
  const label = `Hidden character ${code}${name ? ` (${name})` : ''}`;
  return { kind: 'hidden', code, label: shown ? `${label}, written as “${shown}”` : label, shown };
}

/** Whether the character at `i` of `points` is one that draws nothing or reorders the text. */
function isHidden(points: readonly string[], i: number): boolean {
  const point = points[i]!;
  if (!HIDDEN.test(point) || within(point, KEPT)) return false;
  if (point !== ZWJ) return true;
  let before = i - 1;
  while (before >= 0 && within(points[before]!, EMOJI_TAIL)) before--;
  return !(before >= 0 && PICTURE.test(points[before]!) && PICTURE.test(points[i + 1] ?? ''));
}

function pushText(parts: TextPart[], text: string): void {
  const last = parts.at(-1);
  if (last?.kind === 'text') last.text += text;
  else if (text) parts.push({ kind: 'text', text });
}

/** A platform's text in parts: runs of text as they are, each hidden character as its mark. */
export function platformParts(text: string): TextPart[] {
  const points = [...text];
  const parts: TextPart[] = [];
  points.forEach((point, i) => {
    if (isHidden(points, i)) parts.push(hiddenPart(point, ''));
    else pushText(parts, point);
  });
  return parts;
}

/** Characters the disk sanitizer replaces that are visible anyway (`a:b` written `a_b` hides nothing). */
const VISIBLE_RESERVED = /^[<>:"/\\|?*]$/;

/**
 * A platform's file name as it will be written on disk (the sanitizer's name), each `_` that
 * stands for a hidden character marked with that character: `report\u202Egnp.exe` is
 * `report`, `_` marked U+202E, `gnp.exe`.
 */
export function fileNameParts(raw: string): TextPart[] {
  const { name, underscores } = sanitizedName(raw.trim() || 'file');
  const parts: TextPart[] = [];
  let underscore = 0;
  for (const point of name) {
    const stood = point === '_' ? underscores[underscore++] : null;
    if (stood && !VISIBLE_RESERVED.test(stood)) parts.push(hiddenPart(stood, '_'));
    else pushText(parts, point);
  }
  return parts;
}

/** The name a platform's file gets on disk (what Open and Save… write). */
export const diskFileName = (raw: string): string => sanitizedName(raw.trim() || 'file').name;

const ISOLATE = '\u2068';
const POP_ISOLATE = '\u2069';
/**
 * Where right-to-left letters live: the ranges whose characters (assigned or not) default to bidi
 * class R or AL in Unicode's DerivedBidiClass.txt (Hebrew, Arabic, Syriac, Thaana, NKo … and their
 * presentation forms). Text without any, and without controls (made marks), cannot reorder what
 * is around it.
 */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/**
 * The parts as one plain string, each hidden character written `[U+202E]` after what stands in
 * its place, and isolated (U+2068 … U+2069, first-strong isolate) when it holds right-to-left
 * letters: for a tooltip, an aria-label or a message, where no element can isolate it.
 */
export function plainOf(parts: readonly TextPart[]): string {
  const text = parts.map((p) => (p.kind === 'text' ? p.text : `${p.shown}[${p.code}]`)).join('');
  return RIGHT_TO_LEFT.test(text) ? `${ISOLATE}${text}${POP_ISOLATE}` : text;
}

/** A platform's text as a plain string: hidden characters written `[U+202E]`, isolated when it reads right to left. */
export const platformPlain = (text: string): string => plainOf(platformParts(text));

/** What went wrong, as a plain string: an error's message (the platform's words, often quoting its names). */
export const platformError = (error: unknown): string =>
  platformPlain(error instanceof Error ? error.message : String(error));
