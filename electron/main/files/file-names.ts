// File names that come from a server are data: before one touches the disk it loses every path
// part, control and reserved character, reserved device name and hidden-file dot, and is bounded.

const MAX_LENGTH = 120;
// Windows device names, with or without an extension; CONIN$ and CONOUT$ open the console.
const RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
// Windows refuses these; every OS refuses `/` and NUL; the rest are control characters.
// eslint-disable-next-line no-control-regex -- control characters are exactly what must go
const UNSAFE = /[\u0000-\u001f\u007f-\u009f<>:"/\\|?*\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** A name safe to create in any folder on Windows, macOS and Linux; `fallback` when nothing usable is left. */
export function sanitizeFileName(raw: string, fallback = 'download'): string {
  // Only the last path part counts, whichever separator the server used.
  const last = raw.split(/[\\/]/).pop() ?? '';
  let name = last.normalize('NFC').replace(UNSAFE, '_').replace(/\s+/g, ' ').trim();
  // No hidden files, no names made of dots, no trailing dots or spaces (Windows drops them).
  name = name.replace(/^[.\s_]+/, '').replace(/[.\s]+$/, '');
  if (name.length > MAX_LENGTH) name = shorten(name);
  if (name === '' || RESERVED.test(name)) return fallback;
  return name;
}

/** Keeps the extension (when it is short) and cuts the stem, without splitting a surrogate pair. */
function shorten(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 12 ? name.slice(dot) : '';
  const stem = Array.from(name.slice(0, name.length - ext.length));
  return (
    stem
      .slice(0, MAX_LENGTH - ext.length)
      .join('')
      .replace(/[.\s]+$/, '') + ext
  );
}

/** `name`, or `name (2)`, `name (3)` … whichever `exists` says is free. */
export function uniqueName(name: string, exists: (candidate: string) => boolean): string {
  if (!exists(name)) return name;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; n < 10_000; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!exists(candidate)) return candidate;
  }
  return `${stem} (${Date.now()})${ext}`;
}
