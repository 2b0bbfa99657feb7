// The summary's typography and its building blocks: section headings, tables whose header repeats
// on every page they span and whose rows never split, and the one sentence an area says when this
// computer holds nothing of it, or nothing is recorded.

import type { Content, CustomTableLayout, Style, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import { userLocale } from '../../household/values.ts';

export const INK = '#1f2933';
export const MUTED = '#61707f';
export const ACCENT = '#1f5f8b';
export const RULE = '#c9d2da';

export const STYLES: Record<string, Style> = {
  firm: { fontSize: 10, color: MUTED, bold: true },
  title: { fontSize: 22, bold: true, color: INK, margin: [0, 4, 0, 2] },
  subtitle: { fontSize: 13, color: INK, margin: [0, 0, 0, 6] },
  note: { fontSize: 8.5, color: MUTED },
  heading: { fontSize: 13, bold: true, color: ACCENT, margin: [0, 16, 0, 6] },
  subheading: { fontSize: 10, bold: true, color: INK, margin: [0, 8, 0, 4] },
  th: { bold: true, fontSize: 8.5, color: MUTED },
  total: { bold: true },
  absent: { italics: true, color: MUTED },
};

export interface Column<Row> {
  label: string;
  width?: number | '*' | 'auto';
  /** Amounts line up on the right. */
  amount?: boolean;
  cell: (row: Row) => string;
}

const tableLayout: CustomTableLayout = {
  hLineWidth: (i, node) => (i === 0 || i === node.table.body.length ? 0 : i === 1 ? 0.8 : 0.3),
  vLineWidth: () => 0,
  hLineColor: () => RULE,
  paddingTop: () => 3,
  paddingBottom: () => 3,
  paddingLeft: (i) => (i === 0 ? 0 : 6),
  paddingRight: (i, node) => (i === (node.table.body[0]?.length ?? 1) - 1 ? 0 : 6),
};

/** A table with a header row that repeats on each page; `footer` rows (totals) print in bold. */
export function table<Row>(
  columns: readonly Column<Row>[],
  rows: readonly Row[],
  footer: string[][] = [],
): Content {
  const align = (c: Column<Row>) => (c.amount ? 'right' : 'left');
  const header: TableCell[] = columns.map((c) => ({ text: c.label, style: 'th', alignment: align(c) }));
  const body: TableCell[][] = rows.map((r) => columns.map((c) => ({ text: c.cell(r), alignment: align(c) })));
  const totals: TableCell[][] = footer.map((cells) =>
    cells.map((t, i) => ({ text: t, style: 'total', alignment: align(columns[i] as Column<Row>) })),
  );
  return {
    table: {
      headerRows: 1,
      dontBreakRows: true,
      widths: columns.map((c) => c.width ?? (c.amount ? 'auto' : '*')),
      body: [header, ...body, ...totals],
    },
    layout: tableLayout,
    fontSize: 9,
  };
}

export const heading = (text: string): Content => ({ text, style: 'heading', headlineLevel: 1 });
export const subheading = (text: string): Content => ({ text, style: 'subheading' });
export const sentence = (text: string): Content => ({ text, style: 'absent', margin: [0, 0, 0, 4] });

/** The sentence of an area this computer does not hold (yet). */
export const notDownloaded = (what: string): Content =>
  sentence(`${what}: not downloaded yet. This computer does not hold them, so no figure is shown.`);

export const dateText = (d: Date) => new Intl.DateTimeFormat(userLocale(), { dateStyle: 'long' }).format(d);
export const timeText = (ms: number) =>
  new Intl.DateTimeFormat(userLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));

/**
 * The page every document of the app is set on: A4, Roboto, these styles, a running title from
 * the second page (`firm · running`), the date and "Page n of m" at the foot, and no heading left
 * alone at the bottom of a page.
 */
export function pageFrame(frame: {
  firm?: string;
  running: string;
  now: Date;
}): Omit<TDocumentDefinitions, 'content'> {
  return {
    pageSize: 'A4',
    pageMargins: [40, 48, 40, 52],
    defaultStyle: { font: 'Roboto', fontSize: 9.5, color: INK },
    styles: STYLES,
    header: (page: number) =>
      page === 1
        ? null
        : {
            text: [frame.firm ? `${frame.firm} · ` : '', frame.running],
            fontSize: 8,
            color: MUTED,
            margin: [40, 22, 40, 0],
          },
    footer: (page: number, pages: number) => ({
      columns: [
        { text: dateText(frame.now), fontSize: 8, color: MUTED },
        { text: `Page ${page} of ${pages}`, fontSize: 8, color: MUTED, alignment: 'right' },
      ],
      margin: [40, 16, 40, 0],
    }),
    // A heading never ends a page: near the bottom, it moves to the next with what it heads.
    pageBreakBefore: (node) => node.headlineLevel === 1 && node.startPosition.verticalRatio > 0.86,
  };
}
