// The typed table every household data export is written from: cells that say what they hold (an
// amount, a rate, a date …) so that the workbook gives each its number format and the CSV its
// plain text, from one description of the content.

export type Cell =
  | { kind: 'text'; value: string }
  /** An amount of money in the user's currency. */
  | { kind: 'currency'; value: number }
  /** A rate as the advisor types it: 4.5 means 4.5 %. */
  | { kind: 'percent'; value: number }
  | { kind: 'number'; value: number }
  /** A calendar year (`2031`): a number shown without separators. */
  | { kind: 'year'; value: number }
  /** A calendar date, `YYYY-MM-DD`. */
  | { kind: 'date'; value: string }
  /** A moment (local ms), shown with its time of day. */
  | { kind: 'moment'; value: number }
  | null;

export interface Table {
  /** What it is, in the advisor's words ("Summary", "Employment · Ann Tester"). */
  title: string;
  columns: string[];
  rows: Cell[][];
  /** The part is not on this computer: the table says so rather than being empty. */
  notDownloaded?: boolean;
}

export const NOT_DOWNLOADED = 'Not downloaded yet';
export const NOT_DOWNLOADED_WHY =
  'This part of the household is not on this computer. Open the household while online to download it, then export again.';

export const text = (value: string): Cell => ({ kind: 'text', value });

/** A table of a part that never arrived here. */
export const notDownloaded = (title: string): Table => ({
  title,
  columns: [NOT_DOWNLOADED],
  rows: [[text(NOT_DOWNLOADED_WHY)]],
  notDownloaded: true,
});
