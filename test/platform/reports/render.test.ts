// The report renderer, checked by reading its files back with real tools: PDFs through poppler
// (pdftotext, pdfinfo), workbooks through exceljs, CSV through a strict RFC 4180 parser below.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport, type ReportColumn, type ReportDocument, type ReportSection } from './render.ts';

const run = promisify(execFile);
let dir = '';
let files = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'report-render-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// Fixtures

const LONG_NOTE = `${'This note is much longer than its column can hold on three lines, so it has to be cut. '.repeat(8)}THE-END`;

const HOLDING_COLUMNS: ReportColumn[] = [
  { key: 'account', title: 'Account', kind: 'text' },
  { key: 'security', title: 'Security', kind: 'text' },
  { key: 'opened', title: 'Opened', kind: 'date' },
  { key: 'quantity', title: 'Quantity', kind: 'number' },
  { key: 'price', title: 'Price', kind: 'money' },
  { key: 'value', title: 'Market value', kind: 'money' },
  { key: 'weight', title: 'Weight', kind: 'percent' },
  { key: 'note', title: 'Note', kind: 'text' },
];

const HOLDINGS: ReportSection = {
  title: 'Holdings',
  columns: HOLDING_COLUMNS,
  rows: [
    {
      account: 'Brokerage 1001',
      security: 'Total Stock ETF',
      opened: '2019-04-01',
      quantity: 120,
      price: 250.5,
      value: 30060,
      weight: 0.25,
      note: 'Core holding',
    },
    {
      account: 'IRA 2002',
      security: 'Apple Inc.',
      opened: '2020-06-15',
      quantity: 50,
      price: 190.25,
      value: 9512.5,
      weight: 0.079,
      note: LONG_NOTE,
    },
    {
      account: 'Roth 3003',
      security: 'Aggregate Bond',
      opened: '2021-01-04 12:30:00',
      quantity: 300,
      price: 98.1,
      value: 29430,
      weight: 0.245,
      note: '=HYPERLINK("http://x")',
    },
    {
      account: 'Trust 4004',
      security: 'Margin loan',
      opened: '2022-02-30',
      quantity: null,
      price: null,
      value: -1234567.5,
      weight: -0.0103,
      note: 'Rent, "downtown"\nsecond line',
    },
    {
      account: 'Joint 5005',
      security: 'Cash',
      opened: null,
      quantity: 1234567,
      price: 1,
      value: 1234567,
      weight: 0.5,
      note: '+1 555 0100',
    },
  ],
  totals: { quantity: 1235037, value: 69002 },
};

const CASH_FLOW: ReportSection = {
  title: 'Cash flow: 2024/Q1',
  columns: [
    { key: 'date', title: 'Date', kind: 'date' },
    { key: 'description', title: 'Description', kind: 'text' },
    { key: 'amount', title: 'Amount', kind: 'money' },
  ],
  rows: [
    { date: '2024-01-31', description: 'Salary', amount: 8500 },
    { date: '2024-02-01', description: 'Monthly rent', amount: -2400 },
    { date: '2024-03-15', description: 'Bonus', amount: 1500.75 },
  ],
  totals: { amount: 7600.75 },
};

function report(sections: ReportSection[], title = 'Household balance sheet'): ReportDocument {
  return {
    title,
    subtitle: 'All accounts, 2024-01-01 to 2024-12-31',
    generatedAt: '2025-01-15 09:30:00',
    sections,
  };
}

function transactions(count: number): ReportSection {
  return {
    title: 'Transactions',
    columns: [
      { key: 'id', title: 'Reference', kind: 'text' },
      { key: 'date', title: 'Booked on', kind: 'date' },
      { key: 'description', title: 'Description', kind: 'text' },
      { key: 'amount', title: 'Amount', kind: 'money' },
    ],
    rows: Array.from({ length: count }, (_, i) => ({
      id: `Row ${String(i + 1).padStart(3, '0')}`,
      date: `2024-${String((i % 12) + 1).padStart(2, '0')}-10`,
      description:
        i % 25 === 0
          ? `Transfer with a longer description that wraps onto a second line in the column ${i}`
          : `Payment ${i}`,
      amount: i % 2 ? -(i * 10.5) : i * 100,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Reading files back

async function tempFile(bytes: Buffer, extension: string): Promise<string> {
  const path = join(dir, `file-${++files}.${extension}`);
  await writeFile(path, bytes);
  return path;
}

/** The text of each page, laid out as printed (-layout keeps a table row on one line). */
async function pdfPages(bytes: Buffer): Promise<string[]> {
  const { stdout } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', await tempFile(bytes, 'pdf'), '-']);
  return stdout.split('\f').slice(0, -1); // every page ends with a form feed
}

async function pdfInfo(bytes: Buffer): Promise<{ pages: number; width: number; height: number }> {
  const { stdout } = await run('pdfinfo', [await tempFile(bytes, 'pdf')]);
  const size = /Page size:\s+([\d.]+) x ([\d.]+)/.exec(stdout);
  const pages = /Pages:\s+(\d+)/.exec(stdout);
  return { pages: Number(pages?.[1]), width: Number(size?.[1]), height: Number(size?.[2]) };
}

interface Word {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Every word poppler finds, with its box. */
async function pdfWords(bytes: Buffer): Promise<{ words: Word[]; pageWidth: number }> {
  const { stdout } = await run('pdftotext', ['-bbox', await tempFile(bytes, 'pdf'), '-']);
  const words: Word[] = [];
  let page = 0;
  const pattern =
    /<page width="([\d.]+)"|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g;
  let pageWidth = 0;
  for (const m of stdout.matchAll(pattern)) {
    if (m[1]) {
      page++;
      pageWidth = Number(m[1]);
      continue;
    }
    words.push({
      page,
      text: m[6]!,
      xMin: Number(m[2]),
      yMin: Number(m[3]),
      xMax: Number(m[4]),
      yMax: Number(m[5]),
    });
  }
  return { words, pageWidth };
}

function overlapping(words: Word[]): [Word, Word][] {
  const found: [Word, Word][] = [];
  const tolerance = 0.25;
  words.forEach((a, i) => {
    for (const b of words.slice(i + 1)) {
      const apart =
        a.page !== b.page ||
        a.xMax <= b.xMin + tolerance ||
        b.xMax <= a.xMin + tolerance ||
        a.yMax <= b.yMin + tolerance ||
        b.yMax <= a.yMin + tolerance;
      if (!apart) found.push([a, b]);
    }
  });
  return found;
}

async function loadWorkbook(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  return workbook;
}

function sheet(workbook: ExcelJS.Workbook, name: string): ExcelJS.Worksheet {
  const found = workbook.getWorksheet(name);
  if (!found) throw new Error(`no sheet ${name}`);
  return found;
}

/** A strict RFC 4180 reader: fails on bare CR or LF, stray quotes, unterminated fields. */
function parseCsv(bytes: Buffer): string[][] {
  const text = bytes.toString('utf8');
  if (!text.startsWith('\uFEFF')) throw new Error('no byte order mark');
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let state: 'start' | 'plain' | 'quoted' | 'closed' = 'start';
  const endField = () => {
    record.push(field);
    field = '';
    state = 'start';
  };
  for (let i = 1; i < text.length; i++) {
    const c = text[i]!;
    if (state === 'quoted') {
      if (c !== '"') field += c;
      else if (text[i + 1] !== '"') state = 'closed';
      else {
        field += '"';
        i++;
      }
    } else if (c === ',') {
      endField();
    } else if (c === '\r' && text[i + 1] === '\n') {
      endField();
      records.push(record);
      record = [];
      i++;
    } else if (c === '"' && state === 'start') {
      state = 'quoted';
    } else if (c === '"' || c === '\r' || c === '\n' || state === 'closed') {
      throw new Error(`malformed CSV at offset ${i}: ${JSON.stringify(text.slice(i - 10, i + 10))}`);
    } else {
      field += c;
      state = 'plain';
    }
  }
  if (state === 'quoted') throw new Error('unterminated quoted field');
  if (state !== 'start' || field !== '' || record.length > 0) throw new Error('last record without CRLF');
  return records;
}

/** Undoes the formula guard: one leading quote before quotes and a formula character. */
function unguard(field: string): string {
  return field.replace(/^'(?='*[=+\-@\t\r])/, '');
}

// ---------------------------------------------------------------------------------------------
// PDF

describe('renderReport as PDF', () => {
  it('names the file type', async () => {
    const out = await renderReport(report([CASH_FLOW]), 'PDF');
    expect(out.mime).toBe('application/pdf');
    expect(out.extension).toBe('pdf');
    expect(out.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('prints the title block, every section, header, row and total', async () => {
    const out = await renderReport(report([HOLDINGS, CASH_FLOW]), 'PDF');
    const pages = await pdfPages(out.bytes);
    const text = pages.join('\n');
    for (const line of [
      'Household balance sheet',
      'All accounts, 2024-01-01 to 2024-12-31',
      'Generated at 2025-01-15 09:30:00',
    ]) {
      expect(pages[0]).toContain(line);
    }
    expect(text).toContain('Holdings');
    expect(text).toContain('Cash flow: 2024/Q1');
    for (const column of [...HOLDING_COLUMNS, ...CASH_FLOW.columns]) expect(text).toContain(column.title);
    // One value of each row, as formatted: money with $ and grouping, a minus for negatives.
    const rowValues = [
      ['Brokerage 1001', '$30,060.00', '25.00%'],
      ['IRA 2002', '$9,512.50', '7.90%'],
      ['Roth 3003', '2021-01-04 12:30:00', '=HYPERLINK("http://x")'],
      ['Trust 4004', '-$1,234,567.50', '-1.03%'],
      ['Joint 5005', '1,234,567', '$1,234,567.00'],
      ['Salary', '$8,500.00'],
      ['Monthly rent', '-$2,400.00'],
      ['Bonus', '$1,500.75'],
    ];
    for (const values of rowValues) {
      const line = text.split('\n').find((l) => l.includes(values[0]!));
      for (const value of values) expect(line, `${values[0]} row`).toContain(value);
    }
    const totals = text.split('\n').filter((l) => /^\s*Total\b/.test(l));
    expect(totals).toHaveLength(2);
    expect(totals[0]).toMatch(/1,235,037\s+\$69,002\.00/);
    expect(totals[1]).toContain('$7,600.75');
    const { pages: count } = await pdfInfo(out.bytes);
    pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of ${count}`));
  });

  it('wraps long text within its column and cuts it with an ellipsis after three lines', async () => {
    const out = await renderReport(report([HOLDINGS]), 'PDF');
    const text = (await pdfPages(out.bytes)).join('\n');
    expect(text).toContain('This note is much');
    expect(text).toContain('…');
    expect(text).not.toContain('THE-END');
    expect(text).toContain('second line'); // an embedded line break starts a new line in the cell
  });

  it('turns the page to landscape only when a section has more than six columns', async () => {
    const wide = await pdfInfo((await renderReport(report([HOLDINGS, CASH_FLOW]), 'PDF')).bytes);
    expect(wide.width).toBeGreaterThan(wide.height);
    expect(wide.width).toBeCloseTo(841.89, 1);
    const narrow = await pdfInfo((await renderReport(report([CASH_FLOW]), 'PDF')).bytes);
    expect(narrow.height).toBeGreaterThan(narrow.width);
    expect(narrow.width).toBeCloseTo(595.28, 1);
  });

  it('spreads 300 rows over pages, repeating the header, with "Page N of M" on each', async () => {
    const out = await renderReport(report([transactions(300)]), 'PDF');
    const pages = await pdfPages(out.bytes);
    const { pages: count } = await pdfInfo(out.bytes);
    expect(count).toBeGreaterThan(3);
    expect(pages).toHaveLength(count);
    pages.forEach((page, i) => {
      const header = page.split('\n').find((l) => l.includes('Reference'));
      expect(header, `header on page ${i + 1}`).toMatch(/Reference\s+Booked on\s+Description\s+Amount/);
      expect(page).toContain(`Page ${i + 1} of ${count}`);
      if (i > 0) expect(page).toContain('Transactions (continued)');
    });
    const text = pages.join('\n');
    for (let i = 1; i <= 300; i++) {
      const ref = `Row ${String(i).padStart(3, '0')}`;
      expect(text.split(ref), ref).toHaveLength(2); // exactly once: no row lost or repeated
    }
  });

  it('keeps every word inside the page margins and off its neighbours', async () => {
    const wideColumns: ReportColumn[] = Array.from({ length: 12 }, (_, i) => ({
      key: `c${i}`,
      title: i % 3 === 0 ? `Extraordinarily long header ${i}` : `Amount ${i}`,
      kind: i % 3 === 0 ? 'text' : 'money',
    }));
    const crowded: ReportSection = {
      title: 'Crowded',
      columns: wideColumns,
      rows: Array.from({ length: 6 }, (_, r) =>
        Object.fromEntries(
          wideColumns.map((c, i) => [
            c.key,
            c.kind === 'text' ? `Unbreakable${'x'.repeat(30 + r)} ${LONG_NOTE}` : -123456789.5 * (i + r),
          ]),
        ),
      ),
      totals: { c1: 5 },
    };
    for (const doc of [report([crowded, transactions(40)]), report([HOLDINGS, CASH_FLOW])]) {
      const { words, pageWidth } = await pdfWords((await renderReport(doc, 'PDF')).bytes);
      expect(words.length).toBeGreaterThan(100);
      expect(overlapping(words)).toEqual([]);
      for (const word of words) {
        expect(word.xMin, word.text).toBeGreaterThanOrEqual(40 - 0.5);
        expect(word.xMax, word.text).toBeLessThanOrEqual(pageWidth - 40 + 0.5);
      }
      // Money is never cut: every amount prints whole.
      expect(words.filter((w) => w.text.startsWith('-$') && w.text.endsWith('…'))).toEqual([]);
    }
  });

  it('draws an empty section and characters outside Windows-1252 as "?"', async () => {
    const empty: ReportSection = {
      title: 'Nothing here',
      columns: [{ key: 'a', title: 'Name', kind: 'text' }],
      rows: [],
    };
    const foreign: ReportSection = {
      title: 'Names',
      columns: [{ key: 'a', title: 'Name', kind: 'text' }],
      rows: [{ a: 'Zoë 李 €5\ttab' }],
    };
    const text = (await pdfPages((await renderReport(report([empty, foreign]), 'PDF')).bytes)).join('\n');
    expect(text).toContain('Nothing here');
    expect(text).toContain('No data');
    expect(text).toContain('Zoë ? €5 tab');
  });
});

// ---------------------------------------------------------------------------------------------
// XLSX

describe('renderReport as XLS (an XLSX workbook)', () => {
  it('names the file type and sets the workbook properties', async () => {
    const out = await renderReport(report([HOLDINGS]), 'XLS');
    expect(out.mime).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(out.extension).toBe('xlsx');
    const workbook = await loadWorkbook(out.bytes);
    expect(workbook.title).toBe('Household balance sheet');
    expect(workbook.subject).toBe('All accounts, 2024-01-01 to 2024-12-31');
    expect(workbook.created).toEqual(new Date(Date.UTC(2025, 0, 15, 9, 30, 0)));
  });

  it('gives each section a sheet with a name Excel accepts', async () => {
    const titles = [
      'Holdings',
      'holdings',
      'Cash flow: 2024/Q1',
      '[Draft] What if?',
      'A'.repeat(40),
      'A'.repeat(40),
      '',
      'History',
      "'Quoted'",
    ];
    const sections = titles.map((title) => ({ ...CASH_FLOW, title }));
    const workbook = await loadWorkbook((await renderReport(report(sections), 'XLS')).bytes);
    const names = workbook.worksheets.map((s) => s.name);
    expect(names).toEqual([
      'Holdings',
      'holdings (2)',
      'Cash flow- 2024-Q1',
      'Draft What if',
      'A'.repeat(31),
      `${'A'.repeat(27)} (2)`,
      'Sheet',
      'History (1)',
      'Quoted',
    ]);
    for (const name of names) {
      expect(name.length).toBeLessThanOrEqual(31);
      expect(name).not.toMatch(/[[\]:*?/\\]/);
    }
  });

  it('writes a bold, frozen, filtered header and columns sized to their content', async () => {
    const workbook = await loadWorkbook((await renderReport(report([HOLDINGS]), 'XLS')).bytes);
    const holdings = sheet(workbook, 'Holdings');
    HOLDING_COLUMNS.forEach((column, i) => {
      const cell = holdings.getRow(1).getCell(i + 1);
      expect(cell.value).toBe(column.title);
      expect(cell.font.bold).toBe(true);
    });
    expect(holdings.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(holdings.autoFilter).toBe('A1:H6'); // header and data, not the totals row
    const width = (n: number) => holdings.getColumn(n).width ?? 0;
    expect(width(1)).toBeGreaterThanOrEqual('Brokerage 1001'.length);
    expect(width(6)).toBeGreaterThanOrEqual('-$1,234,567.50'.length);
    expect(width(8)).toBe(60); // the long note is capped
  });

  it('stores money, numbers and percentages as numbers with number formats', async () => {
    const workbook = await loadWorkbook((await renderReport(report([HOLDINGS]), 'XLS')).bytes);
    const holdings = sheet(workbook, 'Holdings');
    const money = holdings.getCell('F5');
    expect(money.type).toBe(ExcelJS.ValueType.Number);
    expect(money.value).toBe(-1234567.5);
    expect(money.numFmt).toBe('"$"#,##0.00;-"$"#,##0.00');
    expect(holdings.getCell('E2').value).toBe(250.5);
    expect(holdings.getCell('E2').numFmt).toBe('"$"#,##0.00;-"$"#,##0.00');
    expect(holdings.getCell('D6').value).toBe(1234567);
    expect(holdings.getCell('D6').numFmt).toBe('#,##0');
    expect(holdings.getCell('G3').value).toBe(0.079);
    expect(holdings.getCell('G3').numFmt).toBe('0.00%');
    expect(holdings.getCell('D5').value).toBeNull();
    // Text that looks like a formula stays text.
    expect(holdings.getCell('H4').type).toBe(ExcelJS.ValueType.String);
    expect(holdings.getCell('H4').value).toBe('=HYPERLINK("http://x")');
    expect(holdings.getCell('H5').value).toBe('Rent, "downtown"\nsecond line');
  });

  it('stores real dates as dates and leaves impossible ones as text', async () => {
    const workbook = await loadWorkbook((await renderReport(report([HOLDINGS]), 'XLS')).bytes);
    const holdings = sheet(workbook, 'Holdings');
    const date = holdings.getCell('C2');
    expect(date.type).toBe(ExcelJS.ValueType.Date);
    expect(date.value).toEqual(new Date(Date.UTC(2019, 3, 1)));
    expect(date.numFmt).toBe('yyyy-mm-dd');
    const dateTime = holdings.getCell('C4');
    expect(dateTime.value).toEqual(new Date(Date.UTC(2021, 0, 4, 12, 30, 0)));
    expect(dateTime.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(holdings.getCell('C5').value).toBe('2022-02-30');
    expect(holdings.getCell('C6').value).toBeNull();
  });

  it('adds a totals row of SUM formulas with their results cached', async () => {
    const workbook = await loadWorkbook((await renderReport(report([HOLDINGS, CASH_FLOW]), 'XLS')).bytes);
    const holdings = sheet(workbook, 'Holdings');
    expect(holdings.getCell('A7').value).toBe('Total');
    expect(holdings.getCell('A7').font.bold).toBe(true);
    expect(holdings.getCell('D7').type).toBe(ExcelJS.ValueType.Formula);
    expect(holdings.getCell('D7').formula).toBe('SUM(D2:D6)');
    expect(holdings.getCell('D7').result).toBe(1235037);
    expect(holdings.getCell('D7').numFmt).toBe('#,##0');
    expect(holdings.getCell('F7').formula).toBe('SUM(F2:F6)');
    expect(holdings.getCell('F7').result).toBe(69002);
    expect(holdings.getCell('F7').numFmt).toBe('"$"#,##0.00;-"$"#,##0.00');
    const cash = sheet(workbook, 'Cash flow- 2024-Q1');
    expect(cash.getCell('C5').formula).toBe('SUM(C2:C4)');
    expect(cash.getCell('C5').result).toBe(7600.75);
    expect(holdings.rowCount).toBe(7);
  });

  it('keeps text Excel escapes or XML cannot hold: control characters, CR, _xHHHH_', async () => {
    const tricky = [
      '_x0041_',
      '_x0041_x0042_',
      '_xABCD\u0001',
      '_x005F_',
      'a\r\nb',
      '\u0000\u007f\uFFFF',
      ' padded ',
    ];
    const section: ReportSection = {
      title: 'Tricky',
      columns: [{ key: 'a', title: 'Text', kind: 'text' }],
      rows: tricky.map((a) => ({ a })),
    };
    const workbook = await loadWorkbook((await renderReport(report([section]), 'XLS')).bytes);
    expect(tricky.map((_, i) => sheet(workbook, 'Tricky').getCell(i + 2, 1).value)).toEqual(tricky);
  });
});

// ---------------------------------------------------------------------------------------------
// CSV

describe('renderReport as CSV', () => {
  it('writes UTF-8 with a byte order mark and CRLF line ends', async () => {
    const out = await renderReport(report([CASH_FLOW]), 'CSV');
    expect(out.mime).toBe('text/csv; charset=utf-8');
    expect(out.extension).toBe('csv');
    expect([...out.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(parseCsv(out.bytes)).toEqual([
      ['Date', 'Description', 'Amount'],
      ['2024-01-31', 'Salary', '8500'],
      ['2024-02-01', 'Monthly rent', '-2400'],
      ['2024-03-15', 'Bonus', '1500.75'],
      ['Total', '', '7600.75'],
    ]);
  });

  it('quotes commas, quotes and line breaks, and guards text against formulas', async () => {
    const records = parseCsv((await renderReport(report([HOLDINGS]), 'CSV')).bytes);
    expect(records[0]).toEqual(HOLDING_COLUMNS.map((c) => c.title));
    expect(records[1]).toEqual([
      'Brokerage 1001',
      'Total Stock ETF',
      '2019-04-01',
      '120',
      '250.5',
      '30060',
      '0.25',
      'Core holding',
    ]);
    expect(records[2]![7]).toBe(LONG_NOTE);
    expect(records[3]![7]).toBe('\'=HYPERLINK("http://x")');
    expect(records[4]).toEqual([
      'Trust 4004',
      'Margin loan',
      '2022-02-30',
      '',
      '',
      '-1234567.5',
      '-0.0103',
      'Rent, "downtown"\nsecond line',
    ]);
    expect(records[5]![7]).toBe("'+1 555 0100");
    expect(records[6]).toEqual(['Total', '', '', '1235037', '', '69002', '', '']);
    expect(records).toHaveLength(7);
  });

  it('guards every formula character but leaves numbers alone', async () => {
    const texts = ['=1+2', '+1', '-1', '@SUM(A1)', '\tx', '\rx', "'=x", "'plain", 'a=b', '-'];
    const section: ReportSection = {
      title: 'Guard',
      columns: [
        { key: 'text', title: 'Text', kind: 'text' },
        { key: 'amount', title: 'Amount', kind: 'money' },
      ],
      rows: texts.map((text, i) => ({ text, amount: -1.5 * i })),
    };
    const records = parseCsv((await renderReport(report([section]), 'CSV')).bytes).slice(1);
    expect(records.map((r) => r[0])).toEqual([
      "'=1+2",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tx",
      "'\rx",
      "''=x",
      "'plain",
      'a=b',
      "'-",
    ]);
    expect(records.map((r) => r[1])).toEqual(texts.map((_, i) => String(-1.5 * i)));
  });

  it('puts a title line before and an empty line after each of several sections', async () => {
    const records = parseCsv(
      (
        await renderReport(
          report([CASH_FLOW, { ...CASH_FLOW, title: 'Second, again', totals: undefined }]),
          'CSV',
        )
      ).bytes,
    );
    expect(records).toEqual([
      ['Cash flow: 2024/Q1'],
      ['Date', 'Description', 'Amount'],
      ['2024-01-31', 'Salary', '8500'],
      ['2024-02-01', 'Monthly rent', '-2400'],
      ['2024-03-15', 'Bonus', '1500.75'],
      ['Total', '', '7600.75'],
      [''],
      ['Second, again'],
      ['Date', 'Description', 'Amount'],
      ['2024-01-31', 'Salary', '8500'],
      ['2024-02-01', 'Monthly rent', '-2400'],
      ['2024-03-15', 'Bonus', '1500.75'],
      [''],
    ]);
  });
});

it('rejects a format it does not know', async () => {
  await expect(renderReport(report([CASH_FLOW]), 'DOC' as 'CSV')).rejects.toThrow(/Unknown report format/);
});

// ---------------------------------------------------------------------------------------------
// Round trips of arbitrary tables

type Value = string | number | null;

// Strings of any code points, and strings built from the pieces escapes are made of.
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({
    unit: fc.constantFrom('_x', '_', 'x', '0041', 'ABCD', '\u0001', '\r', '\n', '"', ',', "'", '=', '-', ' '),
    maxLength: 12,
  }),
);
const anyValue: fc.Arbitrary<Value> = fc.oneof(
  anyText,
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constant(null),
);
const anyTable = fc
  .array(
    fc.record({
      title: anyText,
      kind: fc.constantFrom<ReportColumn['kind']>('text', 'money', 'number', 'percent'),
    }),
    { minLength: 1, maxLength: 5 },
  )
  .chain((columns) =>
    fc.record({
      columns: fc.constant(columns.map((c, i) => ({ ...c, key: `k${i}` }))),
      rows: fc.array(fc.array(anyValue, { minLength: columns.length, maxLength: columns.length }), {
        maxLength: 8,
      }),
    }),
  );

function tableSection(table: { columns: ReportColumn[]; rows: Value[][] }): ReportSection {
  return {
    title: 'Any',
    columns: table.columns,
    rows: table.rows.map((row) => Object.fromEntries(row.map((v, i) => [`k${i}`, v]))),
  };
}

/** -0 is written as 0. */
function plain(value: Value): Value {
  return value === 0 ? 0 : value;
}

describe('round trips of arbitrary tables', () => {
  it('through CSV: every field reads back exactly once the guard quote is removed', async () => {
    await fc.assert(
      fc.asyncProperty(anyTable, async (table) => {
        const records = parseCsv((await renderReport(report([tableSection(table)]), 'CSV')).bytes);
        const expected = [
          table.columns.map((c) => c.title),
          ...table.rows.map((row) => row.map((v) => (v === null ? '' : String(plain(v))))),
        ];
        expect(records.map((r) => r.map(unguard))).toEqual(expected);
        // And no text field is left for a spreadsheet to run as a formula.
        table.rows.forEach((row, r) =>
          row.forEach((v, c) => {
            if (typeof v === 'string') expect(records[r + 1]![c]).not.toMatch(/^[=+\-@\t\r]/);
          }),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('through XLSX: every cell reads back with its value and type', async () => {
    await fc.assert(
      fc.asyncProperty(anyTable, async (table) => {
        const workbook = await loadWorkbook((await renderReport(report([tableSection(table)]), 'XLS')).bytes);
        const any = sheet(workbook, 'Any');
        const read = (r: number) => table.columns.map((_, c) => any.getCell(r, c + 1).value);
        expect(read(1)).toEqual(table.columns.map((c) => c.title));
        table.rows.forEach((row, r) => expect(read(r + 2)).toEqual(row.map(plain)));
      }),
      { numRuns: 60 },
    );
  });
});
