// File names that come from a server are data: before one touches the disk it loses every path
// part, control, invisible and reserved character, reserved device name and hidden-file dot, and is
// bounded. Here in shared/ because the window shows a platform's file name as it will be written
// (shared/platform-text.ts), and main writes it (electron/main/files/file-names.ts).
//
// What a name keeps and loses (fuzzed with fast-check in test/unit/files/file-names.test.ts):
// - only its last path part;
// - no control, format, bidi or invisible character: U+061C, U+200B–U+200F, U+202A–U+202E,
//   U+2066–U+2069, U+FEFF … become `_` (UNSAFE below gives the classes);
// - no Windows device name (`CON .txt`, `nul.tar.gz`, `COM¹`, `CONIN$`);
// - no leading dot, no trailing dot or space;
// - at most 200 UTF-8 bytes (MAX_NAME_BYTES), cut between characters, the extension kept.

/** In UTF-8 bytes: file systems count bytes (ext4 and APFS allow 255), and ` (n)` and the folder need room. */
export const MAX_NAME_BYTES = 200;
/** A longer "extension" is part of the name, cut like the rest of it. */
const MAX_EXTENSION_BYTES = 32;
// Windows device names. Windows reads the device from the part before the first dot, ignoring
// trailing spaces and dots, so `CON .txt`, `nul.tar.gz` and `COM¹.log` open devices too;
// CONIN$ and CONOUT$ open the console.
const DEVICE = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;
// Windows refuses <>:"/\|?*; every OS refuses `/` and NUL. The rest is invisible or reorders
// what is shown (bidi controls, U+061C, zero-width characters, BOM, fillers, tags, variation
// selectors, lone surrogates, line separators): a name must read as what it is (`invoice‮fdp.exe`).
const UNSAFE = /^[<>:"/\\|?*\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]$/u;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const encoder = new TextEncoder();

/** Bytes of `text` in UTF-8 (a lone surrogate counts as U+FFFD, three bytes, as the disk gets it). */
export const utf8Bytes = (text: string): number => encoder.encode(text).length;

/** Whether Windows would open a device instead of a file of this name. */
export function isReservedName(name: string): boolean {
  const beforeDot = name.split('.')[0] ?? '';
  return DEVICE.test(beforeDot.replace(/[\s.]+$/, ''));
}

/**
 * A name made safe, and for each `_` in it, in order, the character it stands for: the one the
 * sanitizer replaced (`\u202E`), or null where the `_` was the platform's own.
 */
export interface SanitizedName {
  name: string;
  underscores: readonly (string | null)[];
}

/** A name safe to create in any folder on Windows, macOS and Linux; `fallback` when nothing usable is left. */
export function sanitizeFileName(raw: string, fallback = 'download'): string {
  return sanitizedName(raw, fallback).name;
}

/** `sanitizeFileName`, saying which character each `_` replaced (for showing what was hidden). */
export function sanitizedName(raw: string, fallback = 'download'): SanitizedName {
  // Only the last path part counts, whichever separator the server used.
  const last = raw.split(/[\\/]/).pop() ?? '';
  let name = '';
  let underscores: (string | null)[] = [];
  for (const point of last.normalize('NFC')) {
    const unsafe = UNSAFE.test(point);
    if (unsafe || point === '_') underscores.push(unsafe ? point : null);
    name += unsafe ? '_' : point;
  }
  name = name.replace(/\s+/g, ' ').trim();
  // No hidden files, no names made of dots, no trailing dots or spaces (Windows drops them).
  const lead = /^[.\s_]+/.exec(name)?.[0] ?? '';
  underscores = underscores.slice(count(lead, '_'));
  name = name.slice(lead.length).replace(/[.\s]+$/, '');
  if (utf8Bytes(name) > MAX_NAME_BYTES) {
    const [stem, ext] = splitExtension(name, MAX_EXTENSION_BYTES);
    const kept = cutTo(stem, MAX_NAME_BYTES - utf8Bytes(ext));
    underscores = underscores.slice(0, count(kept, '_')).concat(underscores.slice(count(stem, '_')));
    name = kept + ext;
  }
  if (name === '' || isReservedName(name))
    return { name: fallback, underscores: [...fallback].filter((c) => c === '_').map(() => null) };
  return { name, underscores };
}

const count = (text: string, char: string) => text.split(char).length - 1;

/** `report.final` + `.pdf`; no extension when the dot starts the name or the extension is longer than `maxExtBytes`. */
function splitExtension(name: string, maxExtBytes = Infinity): [string, string] {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || utf8Bytes(name.slice(dot)) > maxExtBytes) return [name, ''];
  return [name.slice(0, dot), name.slice(dot)];
}

/**
 * The longest start of `text` within `budget` bytes, cut between user-perceived characters (an
 * accent stays on its letter, a flag stays whole), without trailing dots or spaces.
 */
function cutTo(text: string, budget: number): string {
  let out = '';
  for (const { segment } of graphemes.segment(text)) {
    if (utf8Bytes(out + segment) > budget) {
      // One "character" larger than the whole budget (a letter under hundreds of marks): cut
      // it between code points instead, never inside one.
      if (out === '') out = cutCodePoints(segment, budget);
      break;
    }
    out += segment;
  }
  return out.replace(/[.\s]+$/, '');
}

function cutCodePoints(text: string, budget: number): string {
  let out = '';
  for (const point of text) {
    if (utf8Bytes(out + point) > budget) break;
    out += point;
  }
  return out;
}

/** `name`, or `name (2)`, `name (3)` … whichever `exists` says is free, still within the byte bound. */
export function uniqueName(name: string, exists: (candidate: string) => boolean): string {
  if (!exists(name)) return name;
  const [stem, ext] = splitExtension(name, MAX_EXTENSION_BYTES);
  const numbered = (n: number | string) => {
    const suffix = ` (${n})${ext}`;
    return `${cutTo(stem, MAX_NAME_BYTES - utf8Bytes(suffix))}${suffix}`;
  };
  for (let n = 2; n < 10_000; n++) {
    const candidate = numbered(n);
    if (!exists(candidate)) return candidate;
  }
  return numbered(Date.now());
}
