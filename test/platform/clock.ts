// Timestamps in the interfaces' form (YYYY-MM-DD HH:MM:SS, UTC), and a clock that gives a record a
// new `updated_at` on every change even when two changes fall in the same second.

export function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function parseTimestamp(text: string): number {
  return Date.parse(text.replace(' ', 'T') + 'Z');
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses YYYY-MM-DD strictly (no 2026-02-31); returns the UTC midnight in ms, or null. */
export function parseDate(text: string): number | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return formatDate(ms) === text ? ms : null;
}

export class Clock {
  constructor(private readonly now: () => number = Date.now) {}

  /** The current second as a timestamp. */
  stamp(): string {
    return formatTimestamp(Math.floor(this.now() / 1000) * 1000);
  }

  /**
   * A timestamp strictly after `previous`, at one-second resolution: `updated_at` moves on every
   * change of a record even when two changes fall in the same second.
   */
  after(previous: string): string {
    const second = Math.floor(this.now() / 1000) * 1000;
    const last = parseTimestamp(previous);
    return formatTimestamp(Number.isFinite(last) ? Math.max(second, last + 1000) : second);
  }

  current(): number {
    return this.now();
  }
}
