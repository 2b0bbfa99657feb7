// Timestamps in the interfaces' form (YYYY-MM-DD HH:MM:SS, UTC) and a clock that never repeats
// one, so that `updated_at` moves on every change even when two changes fall in the same second.

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
  private last = 0;
  constructor(private readonly now: () => number = Date.now) {}

  /** A timestamp strictly after every one this clock gave before, at one-second resolution. */
  stamp(): string {
    const second = Math.floor(this.now() / 1000) * 1000;
    this.last = Math.max(second, this.last + 1000);
    return formatTimestamp(this.last);
  }

  /** Carries on after timestamps loaded from saved state. */
  advancePast(timestamp: string): void {
    const ms = parseTimestamp(timestamp);
    if (Number.isFinite(ms)) this.last = Math.max(this.last, ms);
  }

  current(): number {
    return this.now();
  }
}
