// The two pictures of the summary, drawn as SVG for pdfmake: what the household owns against what
// it owes, and its monthly income against its expenses (stacked by kind). Horizontal bars on one
// scale, each labelled with its amount, so the chart reads without the table beside it.

import type { Content } from 'pdfmake/interfaces';
import { ACCENT, INK, MUTED, RULE } from './layout.ts';

export interface Segment {
  label: string;
  cents: number;
  color: string;
}

export interface Bar {
  label: string;
  segments: Segment[];
  /** The bar's amount as printed after it. */
  shown: string;
}

const WIDTH = 500;
const LABEL = 110;
const ROW = 30;
const BAR = 16;

const escape = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function barChart(bars: readonly Bar[], legend: readonly Segment[] = []): Content {
  const total = (b: Bar) => b.segments.reduce((n, s) => n + Math.max(0, s.cents), 0);
  const max = Math.max(1, ...bars.map(total));
  const room = WIDTH - LABEL - 90;
  const legendRow = legend.length ? 18 : 0;
  const height = bars.length * ROW + legendRow + 6;
  const parts: string[] = [];
  bars.forEach((bar, i) => {
    const y = i * ROW + 6;
    parts.push(`<text x="0" y="${y + BAR - 4}" font-size="9" fill="${INK}">${escape(bar.label)}</text>`);
    let x = LABEL;
    for (const s of bar.segments) {
      const w = (Math.max(0, s.cents) / max) * room;
      if (w > 0) parts.push(`<rect x="${x}" y="${y}" width="${w}" height="${BAR}" fill="${s.color}"/>`);
      x += w;
    }
    parts.push(
      `<text x="${x + 6}" y="${y + BAR - 4}" font-size="9" fill="${INK}">${escape(bar.shown)}</text>`,
    );
  });
  parts.push(`<line x1="${LABEL}" y1="2" x2="${LABEL}" y2="${bars.length * ROW + 2}" stroke="${RULE}"/>`);
  let lx = LABEL;
  for (const s of legend) {
    const y = bars.length * ROW + 6;
    parts.push(`<rect x="${lx}" y="${y}" width="9" height="9" fill="${s.color}"/>`);
    parts.push(`<text x="${lx + 13}" y="${y + 8}" font-size="8" fill="${MUTED}">${escape(s.label)}</text>`);
    lx += 20 + s.label.length * 4.6;
  }
  return {
    svg: `<svg width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}">${parts.join('')}</svg>`,
    width: WIDTH,
    margin: [0, 4, 0, 8],
  };
}

export const COLORS = {
  assets: ACCENT,
  liabilities: '#c2553d',
  income: '#2f855a',
  fixed: '#c2553d',
  tax: '#d69e2e',
  variable: '#8a6bb8',
} as const;
