// The two pictures of the summary, drawn as SVG for pdfmake: what the household owns against what
// it owes, and its monthly income against its expenses (stacked by kind). Horizontal bars on one
// scale, each labelled with its amount, so the chart reads without the table beside it.

import type { Content } from 'pdfmake/interfaces';
import { ACCENT, INK, MUTED } from './layout.ts';

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

const LABEL = 80;
/** The longest bar, in points. */
const ROOM = 330;
const BAR = 14;

/** Bars of filled rectangles only: SVG text would ask pdfkit for a font file by path. */
function bar(segments: readonly Segment[], max: number): Content {
  const widths = segments.map((s) => (Math.max(0, s.cents) / max) * ROOM);
  const width = Math.max(
    1,
    widths.reduce((n, w) => n + w, 0),
  );
  let x = 0;
  const rects = segments.map((s, i) => {
    const rect = `<rect x="${x}" y="0" width="${widths[i]}" height="${BAR}" fill="${s.color}"/>`;
    x += widths[i] ?? 0;
    return rect;
  });
  return {
    svg: `<svg width="${width}" height="${BAR}" viewBox="0 0 ${width} ${BAR}">${rects.join('')}</svg>`,
    width,
  };
}

const swatch = (color: string): Content => ({
  svg: `<svg width="8" height="8" viewBox="0 0 8 8"><rect x="0" y="0" width="8" height="8" fill="${color}"/></svg>`,
  width: 8,
  margin: [0, 1, 3, 0],
});

export function barChart(bars: readonly Bar[], legend: readonly Segment[] = []): Content {
  const total = (b: Bar) => b.segments.reduce((n, s) => n + Math.max(0, s.cents), 0);
  const max = Math.max(1, ...bars.map(total));
  const rows: Content[] = bars.map((b) => ({
    columns: [
      { text: b.label, width: LABEL, color: INK, margin: [0, 2, 0, 0] },
      total(b) > 0 ? bar(b.segments, max) : { text: '', width: 1 },
      { text: b.shown, width: 'auto', color: INK, margin: [6, 2, 0, 0] },
    ],
    columnGap: 0,
    margin: [0, 0, 0, 8],
  }));
  if (legend.length)
    rows.push({
      columns: [
        { text: '', width: LABEL },
        ...legend.flatMap((s): Content[] => [
          swatch(s.color),
          { text: s.label, width: 'auto', fontSize: 8, color: MUTED, margin: [0, 0, 12, 0] } as Content,
        ]),
      ],
      columnGap: 0,
    });
  return { stack: rows, margin: [0, 6, 0, 8], unbreakable: true };
}

export const COLORS = {
  assets: ACCENT,
  liabilities: '#c2553d',
  income: '#2f855a',
  fixed: '#c2553d',
  tax: '#d69e2e',
  variable: '#8a6bb8',
} as const;
