// Seeded randomness: the same seed gives the same sample data and the same fault sequence.
import { createHash } from 'node:crypto';

/** The four words of an sfc32 generator: where a stream stands, to continue it later. */
export type RandomState = [number, number, number, number];

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  uuid(): string;
  digits(length: number): string;
  /** Where the stream stands now; `createRandom(seed, state)` continues from here. */
  state(): RandomState;
}

export const isRandomState = (v: unknown): v is RandomState =>
  Array.isArray(v) && v.length === 4 && v.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffffffff);

/**
 * sfc32, seeded through splitmix32 so that small neighbouring seeds give unrelated streams. With a
 * saved `resume` state the stream continues where it stood instead of starting over.
 */
export function createRandom(seed: number, resume?: unknown): Random {
  let s = seed >>> 0;
  const splitmix = (): number => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let [a, b, c, d]: RandomState = isRandomState(resume)
    ? resume
    : [splitmix(), splitmix(), splitmix(), splitmix()];
  const next = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
    uuid: () => {
      const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
      hex[12] = '4';
      hex[16] = ((Math.floor(next() * 4) + 8) >>> 0).toString(16);
      const h = hex.join('');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    },
    digits: (length: number) =>
      String(int(1, 9)) + Array.from({ length: length - 1 }, () => String(int(0, 9))).join(''),
    state: () => [a, b, c, d],
  };
}

/** A stream for one account, independent of how many accounts were generated before it. */
export function randomFor(seed: number, ...keys: number[]): Random {
  let h = seed >>> 0;
  for (const k of keys) h = Math.imul(h ^ (k + 0x7f4a7c15), 0x2c1b3c6d) >>> 0;
  return createRandom(h);
}

/** A uuid that is a pure function of its parts (for ids the store derives rather than keeps). */
export function stableUuid(...parts: (string | number)[]): string {
  const h = createHash('sha1').update(parts.join('\u0000')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16] as string, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
