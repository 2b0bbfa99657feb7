// Turns a tabular report into the bytes of a file the 0.0.1 report endpoints serve: PDF (pdfkit),
// XLSX (exceljs; the interface calls the format XLS) or CSV (RFC 4180). The routes and the data
// gathering live elsewhere; this module knows nothing about the platform model.
//
// Value conventions shared by the three formats:
// - null (or a missing key) is an empty cell; NaN and ±Infinity are treated as null, -0 as 0.
// - money and number values are plain numbers; percent values are fractions (0.125 = 12.50%).
// - date values are strings 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS' (read as UTC, no time zone).
// - a value's type decides the cell type (a string stays text even in a money column); the
//   column kind decides display and number formats.
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';

export type ReportFormat = 'PDF' | 'XLS' | 'CSV';

export interface ReportColumn {
  key: string;
  title: string;
  kind: 'text' | 'money' | 'number' | 'date' | 'percent';
}

export interface ReportSection {
  title: string;
  columns: ReportColumn[];
  rows: Record<string, string | number | null>[];
  /** Column key to total; keys that are not columns are ignored. */
  totals?: Record<string, number>;
}

export interface ReportDocument {
  title: string;
  subtitle: string;
  /** 'YYYY-MM-DD HH:MM:SS' */
  generatedAt: string;
  sections: ReportSection[];
}

export interface RenderedReport {
  bytes: Buffer;
  mime: string;
  extension: 'pdf' | 'xlsx' | 'csv';
}

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export async function renderReport(doc: ReportDocument, format: ReportFormat): Promise<RenderedReport> {
  switch (format) {
    case 'PDF':
      return { bytes: await renderPdf(doc), mime: 'application/pdf', extension: 'pdf' };
    case 'XLS':
      return { bytes: await renderXlsx(doc), mime: XLSX_MIME, extension: 'xlsx' };
    case 'CSV':
      return { bytes: renderCsv(doc), mime: 'text/csv; charset=utf-8', extension: 'csv' };
    default:
      // Routes may hand over an unchecked path segment.
      throw new Error(`Unknown report format: ${String(format)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Shared helpers

type Cell = string | number | null;
type Kind = ReportColumn['kind'];

const TOTAL_LABEL = 'Total';

function cellOf(row: Record<string, Cell>, key: string): Cell {
  const value = row[key] ?? null;
  if (typeof value !== 'number') return value;
  if (!Number.isFinite(value)) return null;
  return value === 0 ? 0 : value; // folds -0 into 0: "-$0.00" helps nobody
}

function isNumericKind(kind: Kind): boolean {
  return kind === 'money' || kind === 'number' || kind === 'percent';
}

const MONEY = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const DECIMAL = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const PERCENT = new Intl.NumberFormat('en-US', {
  style: 'percent',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Whether a number column holds whole numbers only (shown without decimals), totals included. */
function wholeNumbers(section: ReportSection, key: string): boolean {
  const values = [...section.rows.map((r) => r[key]), section.totals?.[key]];
  return values.every((v) => !Number.isFinite(v) || Number.isInteger(v));
}

/** The text a reader sees for the values of a column (PDF cells, XLSX column widths). */
function displayFormat(section: ReportSection, column: ReportColumn): (value: Cell) => string {
  const number = column.kind === 'number' && !wholeNumbers(section, column.key) ? DECIMAL : WHOLE;
  return (value) => {
    if (value === null) return '';
    if (typeof value === 'string') return value;
    if (column.kind === 'money') return MONEY.format(value); // -1234.5 -> "-$1,234.50"
    if (column.kind === 'number') return number.format(value);
    if (column.kind === 'percent') return PERCENT.format(value);
    return String(value);
  };
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;
// Excel cannot show dates before 1900 and counts a 29 February 1900 that never was; dates before
// March 1900 stay text.
const FIRST_EXCEL_SAFE_DATE = Date.UTC(1900, 2, 1);

/** 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS' as a UTC Date, or null when not a real such date. */
function parseDateTime(text: string): Date | null {
  const m = DATE_TIME.exec(text);
  if (!m) return null;
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0] = m.slice(1).map((part) => Number(part ?? 0));
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  // Date.UTC rolls 2024-02-30 over into March (and years 0-99 into the 1900s): a real date
  // prints back as it was written.
  const same = date.toISOString().replace('T', ' ').slice(0, text.length) === text;
  return same && date.getTime() >= FIRST_EXCEL_SAFE_DATE ? date : null;
}

/** Index of the column that carries the "Total" label: the first one without a total, if any. */
function totalLabelIndex(section: ReportSection): number {
  const totals = section.totals ?? {};
  return section.columns.findIndex((c) => !(c.key in totals));
}

/** The totals row as cells, or null when the section has no totals. */
function totalsRow(section: ReportSection): Cell[] | null {
  if (!section.totals) return null;
  const totals = section.totals;
  const label = totalLabelIndex(section);
  return section.columns.map((c, i) => (i === label ? TOTAL_LABEL : cellOf(totals, c.key)));
}

function dataRows(section: ReportSection): Cell[][] {
  return section.rows.map((row) => section.columns.map((c) => cellOf(row, c.key)));
}

/** Lone surrogates (not encodable as UTF-8) replaced by U+FFFD. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Cuts to at most `max` UTF-16 units without leaving half a surrogate pair behind. */
function truncateUnits(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

// ---------------------------------------------------------------------------------------------
// CSV

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

// A spreadsheet program runs text starting with = + - @ (and tab or CR, which it strips first) as
// a formula; a leading ' makes it text. Text that already starts with quotes before such a
// character gets one more, so that removing exactly one leading quote always restores the value.
const NEEDS_GUARD = /^'*[=+\-@\t\r]/;

function guardCsvText(text: string): string {
  return NEEDS_GUARD.test(text) ? `'${text}` : text;
}

function csvField(value: Cell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = guardCsvText(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvRecord(values: Cell[]): string {
  const line = values.map(csvField).join(',');
  // A lone empty field would be a blank line, which readers skip and which separates sections.
  return line === '' && values.length === 1 ? '""' : line;
}

function csvSection(section: ReportSection): string[] {
  const totals = totalsRow(section);
  return [
    csvRecord(section.columns.map((c) => c.title)),
    ...dataRows(section).map(csvRecord),
    ...(totals ? [csvRecord(totals)] : []),
  ];
}

/** One table as is; several tables each behind a title line and followed by an empty line. */
function renderCsv(doc: ReportDocument): Buffer {
  const titled = doc.sections.length > 1;
  const lines = doc.sections.flatMap((section) =>
    titled ? [csvRecord([section.title]), ...csvSection(section), ''] : csvSection(section),
  );
  const text = lines.map((line) => `${line}\r\n`).join('');
  return Buffer.concat([BOM, Buffer.from(text, 'utf8')]);
}

// ---------------------------------------------------------------------------------------------
// XLSX

const MONEY_FORMAT = '"$"#,##0.00;-"$"#,##0.00';
const INTEGER_FORMAT = '#,##0';
const DECIMAL_FORMAT = '#,##0.00';
const PERCENT_FORMAT = '0.00%';
const DATE_FORMAT = 'yyyy-mm-dd';
const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
const EXCEL_MAX_CELL_TEXT = 32_767;
const SHEET_NAME_MAX = 31;

async function renderXlsx(doc: ReportDocument): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const created = parseDateTime(doc.generatedAt) ?? new Date();
  workbook.title = doc.title;
  workbook.subject = doc.subtitle;
  workbook.creator = 'Advisory platform sandbox';
  workbook.created = created;
  workbook.modified = created;
  const names = sheetNames(doc.sections.map((s) => s.title));
  doc.sections.forEach((section, i) => addSheet(workbook, names[i]!, section));
  // A workbook without sheets does not open; an empty report still gets one.
  if (doc.sections.length === 0) workbook.addWorksheet(sheetNames([doc.title])[0]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Names Excel accepts: no []:*?/\, at most 31 characters, no quote at either end, unique. */
function sheetNames(titles: string[]): string[] {
  const used = new Set<string>();
  return titles.map((title) => {
    const base = sheetBase(title);
    let name = base;
    // Excel compares sheet names without regard to case.
    for (let n = 2; used.has(name.toLowerCase()); n++) {
      const suffix = ` (${n})`;
      name = trimSheetName(truncateUnits(base, SHEET_NAME_MAX - suffix.length)) + suffix;
    }
    used.add(name.toLowerCase());
    return name;
  });
}

function sheetBase(title: string): string {
  const cleaned = wellFormed(title)
    .replace(/[/\\:]/g, '-')
    .replace(/[[\]*?]/g, '')
    // eslint-disable-next-line no-control-regex -- control characters are what is removed here
    .replace(/[\u0000-\u001f\u007f\ufffe\uffff]/g, ' ')
    .replace(/\s+/g, ' ');
  const name = trimSheetName(truncateUnits(trimSheetName(cleaned), SHEET_NAME_MAX));
  if (name === '') return 'Sheet';
  // Excel keeps "History" for itself.
  return name.toLowerCase() === 'history' ? `${name} (1)` : name;
}

function trimSheetName(name: string): string {
  return name.replace(/^[\s']+|[\s']+$/g, '');
}

function addSheet(workbook: ExcelJS.Workbook, name: string, section: ReportSection): void {
  const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  const { columns } = section;
  const header = sheet.addRow(columns.map((c) => xlsxText(c.title)));
  header.font = { bold: true };
  const formats = columns.map((c) => columnFormat(section, c));
  for (const values of dataRows(section)) {
    const row = sheet.addRow(values.map((v, i) => xlsxValue(v, columns[i]!.kind)));
    row.eachCell((cell, col) => {
      const format = cellFormat(cell.value, formats[col - 1]!);
      if (format) cell.numFmt = format;
    });
  }
  if (section.totals) addTotalsRow(sheet, section, formats);
  if (columns.length > 0) {
    // The filter covers header and data, not the totals, so sorting leaves the totals below.
    sheet.autoFilter = {
      from: { row: 1, column: 1 },
      to: { row: 1 + section.rows.length, column: columns.length },
    };
  }
  fitColumnWidths(sheet, section);
}

// Characters XML cannot carry (exceljs drops them silently), plus CR, which XML parsers turn into
// LF, and DEL, which exceljs drops too.
const XML_UNSAFE = '\\u0000-\\u0008\\u000b-\\u001f\\u007f\\ufffe\\uffff';
// Excel (and exceljs) decode _xHHHH_ in cell text. Each unsafe character becomes such an escape,
// and so does every underscore that would otherwise start one, which is the case when it is
// followed by x, four hex digits and an underscore or an unsafe character (whose escape starts
// with one). An escaped underscore is _x005F_.
const OOXML_ESCAPED = new RegExp(`_(?=x[0-9a-f]{4}(?:_|[${XML_UNSAFE}]))|[${XML_UNSAFE}]`, 'gi');

/** A string as OOXML cell text, which Excel decodes back to the original. */
function xlsxText(text: string): string {
  return wellFormed(truncateUnits(text, EXCEL_MAX_CELL_TEXT)).replace(
    OOXML_ESCAPED,
    (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`,
  );
}

function xlsxValue(value: Cell, kind: Kind): ExcelJS.CellValue {
  if (typeof value !== 'string') return value;
  if (kind === 'date') {
    const date = parseDateTime(value);
    if (date) return date;
  }
  return xlsxText(value);
}

/** Number format of a column's numeric cells; '' for text columns. */
function columnFormat(section: ReportSection, column: ReportColumn): string {
  switch (column.kind) {
    case 'money':
      return MONEY_FORMAT;
    case 'percent':
      return PERCENT_FORMAT;
    case 'number':
      return wholeNumbers(section, column.key) ? INTEGER_FORMAT : DECIMAL_FORMAT;
    case 'date':
      return DATE_FORMAT;
    default:
      return '';
  }
}

/** Number format of one cell: dates by whether they carry a time, numbers by their column. */
function cellFormat(value: ExcelJS.CellValue, numberFormat: string): string {
  if (value instanceof Date) {
    const midnight = value.getUTCHours() + value.getUTCMinutes() + value.getUTCSeconds() === 0;
    return midnight ? DATE_FORMAT : DATE_TIME_FORMAT;
  }
  if (typeof value === 'number' && numberFormat !== DATE_FORMAT) return numberFormat;
  return '';
}

function addTotalsRow(sheet: ExcelJS.Worksheet, section: ReportSection, formats: string[]): void {
  const totals = totalsRow(section)!;
  const lastData = 1 + section.rows.length;
  const row = sheet.addRow(
    totals.map((value, i) => {
      if (typeof value !== 'number') return value;
      const letter = sheet.getColumn(i + 1).letter;
      // No data rows: a SUM would point at the header or at the totals row itself.
      return lastData < 2 ? value : { formula: `SUM(${letter}2:${letter}${lastData})`, result: value };
    }),
  );
  row.font = { bold: true };
  row.eachCell((cell, col) => {
    cell.border = { top: { style: 'thin' } };
    const format = cellFormat(totals[col - 1] ?? null, formats[col - 1]!);
    if (format) cell.numFmt = format;
  });
}

function fitColumnWidths(sheet: ExcelJS.Worksheet, section: ReportSection): void {
  const rows = dataRows(section);
  const totals = totalsRow(section);
  section.columns.forEach((column, i) => {
    const display = displayFormat(section, column);
    const texts = [column.title, ...rows.map((r) => display(r[i]!))];
    if (totals) texts.push(display(totals[i]!));
    const longest = Math.max(...texts.flatMap((t) => t.split('\n').map((line) => line.length)));
    sheet.getColumn(i + 1).width = Math.min(60, Math.max(8, longest + 2));
  });
}

// ---------------------------------------------------------------------------------------------
// PDF

const MARGIN = { top: 40, bottom: 28, left: 40, right: 40 };
/** Space kept free above the bottom margin for the footer line. */
const FOOTER_SPACE = 24;
const CELL_PAD_X = 5;
const CELL_PAD_Y = 3;
/** Text cells wrap onto at most this many lines, then end with an ellipsis. */
const MAX_LINES = 3;
/** Table font sizes, tried in order until the columns fit the page width. */
const FONT_SIZES = [9, 8.5, 8, 7.5, 7, 6.5, 6];
/** Text columns shrink to fit their longest header word, within these bounds (points). */
const TEXT_MIN_WIDTH = 40;
const TEXT_MIN_WIDTH_CAP = 90;
/** Text columns ask for at most this width (points) and wrap beyond. */
const TEXT_WIDTH_CAP = 220;
const WIDE_SECTION_COLUMNS = 6;

const COLORS = {
  text: '#1a1a1a',
  muted: '#555555',
  headerFill: '#2f4a6d',
  headerText: '#ffffff',
  zebra: '#eef2f7',
  totalFill: '#dde4ee',
  rule: '#8a99ad',
};

const FONT = { regular: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique' };

type Pdf = PDFKit.PDFDocument;
type Align = 'left' | 'right';
type RowStyle = 'header' | 'body' | 'zebra' | 'total';

/** A section's table as the strings to draw. */
interface TableContent {
  title: string;
  headers: string[];
  rows: string[][];
  totals: string[] | null;
  aligns: Align[];
  /** Columns whose values stay on one line (numbers, dates) and keep their full width. */
  single: boolean[];
}

/** The table once its columns are fitted to the page. */
interface Table extends TableContent {
  widths: number[];
  fontSize: number;
}

/** How a row is drawn: lines per cell, line height and the row height. */
interface RowLayout {
  lines: number[];
  lineHeight: number;
  height: number;
}

async function renderPdf(doc: ReportDocument): Promise<Buffer> {
  const wide = doc.sections.some((s) => s.columns.length > WIDE_SECTION_COLUMNS);
  const pdf = new PDFDocument({
    size: 'A4',
    layout: wide ? 'landscape' : 'portrait',
    margins: MARGIN,
    bufferPages: true, // the footer needs the page count, known only at the end
    info: {
      Title: doc.title,
      Subject: doc.subtitle,
      Creator: 'Advisory platform sandbox',
      CreationDate: parseDateTime(doc.generatedAt) ?? new Date(),
    },
  });
  const bytes = collect(pdf);
  drawTitleBlock(pdf, doc);
  for (const section of doc.sections) drawTable(pdf, planTable(pdf, section));
  drawFooters(pdf, doc.title);
  pdf.end();
  return bytes;
}

function collect(pdf: Pdf): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
}

// The standard fonts only know Windows-1252 (Latin-1 plus these characters at 0x80-0x9F, as
// pdfkit maps them); anything else would come out as garbage glyphs.
const WIN_ANSI_EXTRA = 'ŒœŠšŸŽžƒˆ˜–—‘’‚“”„†‡•…‰‹›€™';
const NOT_WIN_ANSI = new RegExp(`[^\\n\\u0020-\\u007e\\u00a0-\\u00ff${WIN_ANSI_EXTRA}]`, 'gu');

/** Text the standard fonts can draw: line breaks kept, tabs and controls as spaces, the rest as '?'. */
function pdfText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex -- control characters are what is replaced here
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, ' ')
      .replace(NOT_WIN_ANSI, '?')
  );
}

function contentWidth(pdf: Pdf): number {
  return pdf.page.width - MARGIN.left - MARGIN.right;
}

/** Lowest y a table row may reach on the current page. */
function tableBottom(pdf: Pdf): number {
  return pdf.page.maxY() - FOOTER_SPACE;
}

function drawTitleBlock(pdf: Pdf, doc: ReportDocument): void {
  const width = contentWidth(pdf);
  pdf
    .font(FONT.bold)
    .fontSize(18)
    .fillColor(COLORS.text)
    .text(pdfText(doc.title), MARGIN.left, MARGIN.top, { width });
  pdf
    .moveDown(0.2)
    .font(FONT.regular)
    .fontSize(11)
    .fillColor(COLORS.muted)
    .text(pdfText(doc.subtitle), { width });
  pdf
    .moveDown(0.2)
    .fontSize(9)
    .text(`Generated at ${pdfText(doc.generatedAt)}`, { width });
  const y = pdf.y + 6;
  pdf
    .moveTo(MARGIN.left, y)
    .lineTo(MARGIN.left + width, y)
    .lineWidth(0.75)
    .strokeColor(COLORS.rule)
    .stroke();
  pdf.y = y + 14;
}

function drawFooters(pdf: Pdf, title: string): void {
  const { start, count } = pdf.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    pdf.switchToPage(i);
    const width = contentWidth(pdf);
    pdf.font(FONT.regular).fontSize(8).fillColor(COLORS.muted);
    const y = pdf.page.maxY() - pdf.currentLineHeight(true);
    oneLine(pdf, pdfText(title), MARGIN.left, y, width - 110);
    oneLine(pdf, `Page ${i - start + 1} of ${count}`, MARGIN.left + width - 100, y, 100, 'right');
  }
}

// --- Table planning

function planTable(pdf: Pdf, section: ReportSection): Table {
  const { columns } = section;
  const totals = totalsRow(section);
  const displays = columns.map((c) => displayFormat(section, c));
  const format = (cells: Cell[]) => cells.map((v, i) => pdfText(displays[i]!(v)));
  const content: TableContent = {
    title: pdfText(section.title),
    headers: columns.map((c) => pdfText(c.title)),
    rows: dataRows(section).map(format),
    totals: totals && format(totals),
    aligns: columns.map((c) => (isNumericKind(c.kind) ? 'right' : 'left')),
    single: columns.map((c) => c.kind !== 'text'),
  };
  return { ...content, ...fitColumns(pdf, content) };
}

/** What a column asks for, in points at font size 1 (text widths grow linearly with the size). */
interface ColumnNeed {
  single: boolean;
  /** Width of the widest value (or header) on one line. */
  want: number;
  /** Width of the whole header on one line. */
  headerFull: number;
  /** Width of the widest header word, so headers wrap between words. */
  headerWord: number;
}

function columnNeeds(pdf: Pdf, table: TableContent): ColumnNeed[] {
  return table.headers.map((header, i) => {
    pdf.font(FONT.bold).fontSize(1);
    const headerFull = pdf.widthOfString(header);
    // pdfkit measures a word with the space after it and splits it when that does not fit.
    const headerWord = Math.max(0, ...header.split(/\s+/).map((w) => pdf.widthOfString(`${w} `)));
    const total = table.totals ? pdf.widthOfString(table.totals[i]!) : 0;
    pdf.font(FONT.regular);
    const cells = table.rows.flatMap((row) => row[i]!.split('\n').map((line) => pdf.widthOfString(line)));
    const content = Math.max(total, ...cells);
    const single = table.single[i]!;
    return { single, want: Math.max(content, single ? headerWord : headerFull), headerFull, headerWord };
  });
}

/** The largest font size at which one-line columns fit whole and text columns keep a usable width. */
function fitColumns(pdf: Pdf, table: TableContent): Pick<Table, 'widths' | 'fontSize'> {
  const needs = columnNeeds(pdf, table);
  const available = contentWidth(pdf);
  // One point of slack: widths measured at size 1 and scaled may round above the text's own.
  const pad = 2 * CELL_PAD_X + 1;
  for (const size of FONT_SIZES) {
    const want = needs.map((n) => (n.single ? n.want * size : Math.min(n.want * size, TEXT_WIDTH_CAP)) + pad);
    const min = needs.map((n, i) => (n.single ? want[i]! : Math.min(want[i]!, textMinWidth(n, size) + pad)));
    if (sum(min) > available) continue;
    // Given the room, number and date headers stand on one line rather than wrap.
    const roomy = needs.map((n, i) => (n.single ? Math.max(want[i]!, n.headerFull * size + pad) : want[i]!));
    return {
      fontSize: size,
      widths: distribute(sum(roomy) <= available ? roomy : want, min, needs, available),
    };
  }
  // Nothing fits: scale every column down; cells that still do not fit end with an ellipsis.
  const size = FONT_SIZES[FONT_SIZES.length - 1]!;
  const want = needs.map((n) => Math.min(n.want * size, TEXT_WIDTH_CAP) + pad);
  return { fontSize: size, widths: want.map((w) => (w * available) / sum(want)) };
}

function textMinWidth(need: ColumnNeed, size: number): number {
  return Math.min(TEXT_MIN_WIDTH_CAP, Math.max(TEXT_MIN_WIDTH, need.headerWord * size));
}

/** Widths filling `available` exactly: text columns shrink toward their minimum or take the room left. */
function distribute(want: number[], min: number[], needs: ColumnNeed[], available: number): number[] {
  const total = sum(want);
  if (total > available) {
    const slack = want.map((w, i) => w - min[i]!);
    const shrink = (total - available) / sum(slack);
    return want.map((w, i) => w - slack[i]! * shrink);
  }
  // Room left goes to the text columns, or to every column when there are none.
  const hasText = needs.some((n) => !n.single);
  const growing = needs.map((n) => !hasText || !n.single);
  const base = sum(want.filter((_, i) => growing[i]));
  return want.map((w, i) => (growing[i] ? w + ((available - total) * w) / base : w));
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

// --- Table drawing

function drawTable(pdf: Pdf, table: Table): void {
  const firstRow = table.rows[0] ?? table.totals ?? [''];
  const needed =
    sectionTitleHeight(pdf) +
    layoutRow(pdf, table, table.headers, 'header').height +
    layoutRow(pdf, table, firstRow, 'body').height;
  // Keep the title and header with at least one row.
  if (pdf.y + needed > tableBottom(pdf) && pdf.y > MARGIN.top) pdf.addPage();
  drawSectionTitle(pdf, table.title);
  drawRow(pdf, table, table.headers, 'header');
  if (table.rows.length === 0) drawNoData(pdf, table);
  table.rows.forEach((row, i) => drawBodyRow(pdf, table, row, i % 2 === 1 ? 'zebra' : 'body'));
  if (table.totals) drawBodyRow(pdf, table, table.totals, 'total');
  rule(pdf, pdf.y, sum(table.widths), 0.5);
  pdf.y += 18;
}

function rule(pdf: Pdf, y: number, width: number, lineWidth: number): void {
  pdf
    .moveTo(MARGIN.left, y)
    .lineTo(MARGIN.left + width, y)
    .lineWidth(lineWidth)
    .strokeColor(COLORS.rule)
    .stroke();
}

function sectionTitleHeight(pdf: Pdf): number {
  pdf.font(FONT.bold).fontSize(12);
  return pdf.currentLineHeight(true) + 4;
}

function drawSectionTitle(pdf: Pdf, title: string): void {
  const y = pdf.y;
  const height = sectionTitleHeight(pdf);
  pdf.fillColor(COLORS.text);
  oneLine(pdf, title, MARGIN.left, y, contentWidth(pdf));
  pdf.y = y + height;
}

/**
 * Text cut to one line with an ellipsis. The height stops pdfkit after that line (and from
 * starting a new page); the half line of slack keeps rounding from dropping the line itself.
 */
function oneLine(pdf: Pdf, text: string, x: number, y: number, width: number, align: Align = 'left'): void {
  const lineHeight = pdf.currentLineHeight(true);
  pdf.text(text, x, y, { width, height: lineHeight * 1.5, ellipsis: true, align });
}

/** A body or totals row, on a new page under a repeated header when it does not fit. */
function drawBodyRow(pdf: Pdf, table: Table, cells: string[], style: RowStyle): void {
  const layout = layoutRow(pdf, table, cells, style);
  if (pdf.y + layout.height > tableBottom(pdf)) {
    pdf.addPage();
    drawSectionTitle(pdf, `${table.title} (continued)`);
    drawRow(pdf, table, table.headers, 'header');
  }
  drawRow(pdf, table, cells, style, layout);
}

function drawNoData(pdf: Pdf, table: Table): void {
  const y = pdf.y;
  pdf.font(FONT.italic).fontSize(table.fontSize).fillColor(COLORS.muted);
  oneLine(pdf, 'No data', MARGIN.left + CELL_PAD_X, y + CELL_PAD_Y, sum(table.widths) - 2 * CELL_PAD_X);
  pdf.y = y + pdf.currentLineHeight(true) + 2 * CELL_PAD_Y;
}

/** Sets the row's font and returns its line height. */
function useRowFont(pdf: Pdf, table: Table, style: RowStyle): number {
  pdf.font(style === 'header' || style === 'total' ? FONT.bold : FONT.regular).fontSize(table.fontSize);
  return pdf.currentLineHeight(true);
}

/** Wrapped text takes up to MAX_LINES lines, one-line columns (not their headers) one. */
function layoutRow(pdf: Pdf, table: Table, cells: string[], style: RowStyle): RowLayout {
  const lineHeight = useRowFont(pdf, table, style);
  const lines = cells.map((text, i) => {
    if (table.single[i] && style !== 'header') return 1;
    const wrapped = Math.round(
      pdf.heightOfString(text, { width: table.widths[i]! - 2 * CELL_PAD_X }) / lineHeight,
    );
    return Math.min(MAX_LINES, Math.max(1, wrapped));
  });
  return { lines, lineHeight, height: Math.max(1, ...lines) * lineHeight + 2 * CELL_PAD_Y };
}

const ROW_FILL: Record<RowStyle, string | null> = {
  header: COLORS.headerFill,
  body: null,
  zebra: COLORS.zebra,
  total: COLORS.totalFill,
};

function drawRow(
  pdf: Pdf,
  table: Table,
  cells: string[],
  style: RowStyle,
  layout = layoutRow(pdf, table, cells, style),
): void {
  const y = pdf.y;
  const width = sum(table.widths);
  const fill = ROW_FILL[style];
  if (fill) pdf.rect(MARGIN.left, y, width, layout.height).fillColor(fill).fill();
  if (style === 'total') rule(pdf, y, width, 0.75);
  useRowFont(pdf, table, style);
  pdf.fillColor(style === 'header' ? COLORS.headerText : COLORS.text);
  let x = MARGIN.left;
  cells.forEach((text, i) => {
    const cellWidth = table.widths[i]!;
    // The height cuts the text after its planned lines and ends the last one with an ellipsis
    // (half a line of slack, as in oneLine).
    pdf.text(text, x + CELL_PAD_X, y + CELL_PAD_Y, {
      width: cellWidth - 2 * CELL_PAD_X,
      height: (layout.lines[i]! + 0.5) * layout.lineHeight,
      ellipsis: true,
      align: table.aligns[i],
    });
    x += cellWidth;
  });
  pdf.y = y + layout.height;
}
