// Summaries and the plain-text tables the bench prints. Figures only: nothing here judges them.

export interface Summary {
  n: number;
  median: number;
  p95: number;
  min: number;
  max: number;
}

/** Nearest-rank percentile of sorted samples. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error('No samples to summarize.');
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { n: sorted.length, median, p95: percentile(sorted, 95), min: sorted[0]!, max: sorted.at(-1)! };
}

/** Milliseconds with as many decimals as the size calls for. */
export function ms(value: number): string {
  const digits = value < 1 ? 3 : value < 10 ? 2 : value < 100 ? 1 : 0;
  return `${value.toFixed(digits)} ms`;
}

export const int = (value: number): string => Math.round(value).toLocaleString('en-US');

export const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;

/** Columns padded to their widest cell; the first `left` columns left-aligned, the rest right-aligned. */
export function table(rows: readonly (readonly string[])[], left = 1, indent = '  '): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) =>
      (
        indent +
        row.map((cell, i) => (i < left ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('   ')
      ).trimEnd(),
    )
    .join('\n');
}
