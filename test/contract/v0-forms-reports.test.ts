// Contract of the 0.0.1 interface, forms and reports: send, resend, close and preview of forms,
// the per-account and per-user form lists; the report list, the user report in every format and
// source over a date range and the account report, each file parsed back and checked against the
// accounts it should hold.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Form, FormPreview } from '@shared/wire/v0/forms.ts';
import { Report } from '@shared/wire/v0/reports.ts';
import { TIMESTAMP, UUID, expectWire, type Account as AccountV2, type List } from './helpers.ts';
import {
  FORM_KEYS,
  REPORT_KEYS,
  TEMPLATE_KEYS_V0,
  addDays,
  createAccount,
  expectKeySet,
  expectMessages,
  expectStatus,
  expectV0Error,
  parseCsv,
  sectionPath,
  v0Sandbox,
  today,
  type AccountV0,
  type ActivityV0,
  type FormV0,
  type ReportV0,
  type TemplateV0,
  type V0Api,
} from './v0-helpers.ts';

const s = v0Sandbox();
let api: V0Api;
let templates: TemplateV0[];
let tmp: string;

beforeAll(async () => {
  api = s.advisor;
  templates = (await api.get<TemplateV0[]>('/user/templates')).body;
  tmp = mkdtempSync(join(tmpdir(), 'v0-reports-'));
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

const feed = async (type: string) =>
  (await api.get<{ items: ActivityV0[] }>('/user/activities', { type, sort: '-id', limit: 5 })).body.items;

function expectForm(f: unknown): asserts f is FormV0 {
  expectKeySet(f, FORM_KEYS, 'form');
  expectWire(Form, f, 'form');
  const form = f as FormV0;
  expect(Number.isInteger(form.account_id)).toBe(true);
  expect(typeof form.key === 'string' || typeof form.key === 'number').toBe(true);
  expect(form.definition_key).toMatch(UUID);
  expect(['CLOSED', 'IN_PROGRESS', 'NEW']).toContain(form.status);
  expectKeySet(form.template, TEMPLATE_KEYS_V0, 'form template');
  expect(Array.isArray(form.recipients)).toBe(true);
  for (const r of form.recipients) {
    expectKeySet(r, ['role', 'name'], 'recipient');
    expect(typeof r.role).toBe('string');
    expect(typeof r.name).toBe('string');
  }
  expect(form.created_at).toMatch(TIMESTAMP);
  expect(form.updated_at).toMatch(TIMESTAMP);
  for (const k of ['opened_at', 'reminded_at', 'closed_at'] as const)
    if (form[k] !== null) expect(form[k]).toMatch(TIMESTAMP);
  expect(typeof form.urls).toBe('string');
  expect(form.status === 'CLOSED', 'closed_at is set exactly for a closed form').toBe(
    form.closed_at !== null,
  );
}

const formPath = (f: FormV0) => `/accounts/${f.account_id}/forms/${encodeURIComponent(String(f.key))}`;

async function send(account: AccountV0, body: Record<string, unknown>): Promise<FormV0> {
  const r = await api.post<FormV0>(`/accounts/${account.id}/forms`, body);
  expectStatus(r, 201);
  expectForm(r.body);
  return r.body;
}

describe('forms', () => {
  it('sends a form from a template key: 201, status NEW, the template, the client as recipient', async () => {
    const account = await createAccount(api, 'clients', true);
    const template = templates[1] as TemplateV0;
    const form = await send(account, { template: template.key });
    expect(form.account_id).toBe(account.id);
    expect(form.status).toBe('NEW');
    const { id: _id, ...withoutId } = template;
    expect(form.template).toEqual(withoutId);
    expect(form.recipients).toEqual([
      { role: 'client', name: `${account.client.first_name} ${account.client.last_name}` },
    ]);
    expect([form.opened_at, form.reminded_at, form.closed_at]).toEqual([null, null, null]);
    expect((await feed('form.sent'))[0]?.description).toContain(account.client.first_name);

    // The template may also come as an object with its key; recipients may name the co-client.
    const second = await send(account, {
      template: { key: templates[0]!.key },
      recipients: [{ role: 'coclient' }],
    });
    expect(second.template.key).toBe(templates[0]!.key);
    expect(second.recipients).toEqual([
      { role: 'coclient', name: `${account.coclient!.first_name} ${account.coclient!.last_name}` },
    ]);
    expect(String(second.key)).not.toBe(String(form.key));
  });

  it('rejects a form without a template or with an unknown one, and answers 404 for an unknown account', async () => {
    const account = await createAccount(api, 'prospects');
    expectMessages(await api.post(`/accounts/${account.id}/forms`, {}), ['template is required.']);
    expectMessages(await api.post(`/accounts/${account.id}/forms`, { template: 'no-such-template' }), [
      'template is invalid.',
    ]);
    expectV0Error(
      await api.post(`/accounts/${account.id}/forms`, {
        template: templates[0]!.key,
        recipients: [{ role: 'coclient' }],
      }),
      422,
    );
    expectV0Error(await api.post('/accounts/987654/forms', { template: templates[0]!.key }), 404);
    expect((await api.get<FormV0[]>(`/accounts/${account.id}/forms`)).body).toEqual([]);
  });

  it('lists the forms of an account and of the user', async () => {
    const a = await createAccount(api, 'clients');
    const b = await createAccount(api, 'clients');
    const fa = await send(a, { template: templates[0]!.key });
    const fb = await send(b, { template: templates[2]!.key });
    const listA = await api.get<FormV0[]>(`/accounts/${a.id}/forms`);
    expectStatus(listA, 200);
    expect(listA.body).toEqual([fa]);
    expect((await api.get<FormV0[]>(`/accounts/${b.id}/forms`)).body).toEqual([fb]);
    const mine = await api.get<FormV0[]>('/user/forms');
    expectStatus(mine, 200);
    for (const f of mine.body) expectForm(f);
    expect(mine.body).toContainEqual(fa);
    expect(mine.body).toContainEqual(fb);
    expect(
      new Set(mine.body.map((f) => f.status)).size,
      'seeded forms show several statuses',
    ).toBeGreaterThan(1);
    expectV0Error(await api.get('/accounts/987654/forms'), 404);
  });

  it('resends a form: 200, reminded_at set, recorded as form.resent', async () => {
    const account = await createAccount(api, 'clients');
    const form = await send(account, { template: templates[3]!.key });
    const r = await api.post<FormV0>(`${formPath(form)}/resend`);
    expectStatus(r, 200);
    expectForm(r.body);
    expect(r.body.reminded_at).toMatch(TIMESTAMP);
    expect(r.body.reminded_at! >= form.created_at).toBe(true);
    expect(r.body.key).toEqual(form.key);
    expect(r.body.status).toBe(form.status);
    expect((await api.get<FormV0[]>(`/accounts/${account.id}/forms`)).body[0]?.reminded_at).toBe(
      r.body.reminded_at,
    );
    expect((await feed('form.resent')).length).toBeGreaterThan(0);
    // Resent again at once, the reminder moves still: the app tells a resend done by it.
    const again = await api.post<FormV0>(`${formPath(form)}/resend`);
    expect(again.body.reminded_at! > r.body.reminded_at!).toBe(true);
    expectV0Error(await api.post(`/accounts/${account.id}/forms/999999/resend`), 404);
    expectV0Error(
      await api.post(`/accounts/987654/forms/${encodeURIComponent(String(form.key))}/resend`),
      404,
    );
  });

  it('closes a form: 200, status CLOSED, closed_at set; the assistant lacks engagements.close', async () => {
    const account = await createAccount(api, 'clients');
    const form = await send(account, { template: templates[0]!.key });
    expectV0Error(await s.assistant.request('PUT', `${formPath(form)}/close`), 403);
    expect((await api.get<FormV0[]>(`/accounts/${account.id}/forms`)).body[0]?.status).toBe('NEW');
    const r = await api.request<FormV0>('PUT', `${formPath(form)}/close`);
    expectStatus(r, 200);
    expectForm(r.body);
    expect(r.body.status).toBe('CLOSED');
    expect(r.body.closed_at).toMatch(TIMESTAMP);
    expect(r.body.closed_at! >= form.created_at).toBe(true);
    expect((await api.get<FormV0[]>(`/accounts/${account.id}/forms`)).body[0]).toEqual(r.body);
    expect((await feed('form.closed'))[0]?.type).toBe('form.closed');
    // Closing again changes nothing.
    const again = await api.request<FormV0>('PUT', `${formPath(form)}/close`);
    expectStatus(again, 200);
    expect(again.body.closed_at).toBe(r.body.closed_at);
    expectV0Error(await api.request('PUT', `/accounts/${account.id}/forms/999999/close`), 404);
    // A form that is not there is not found, before any permission check.
    expectV0Error(await s.assistant.request('PUT', `/accounts/${account.id}/forms/999999/close`), 404);
    expectV0Error(await s.assistant.request('PUT', `/accounts/999999/forms/${form.key}/close`), 404);
  });

  it('previews a form: {url} of a page that shows the form as HTML', async () => {
    const account = await createAccount(api, 'clients');
    const template = templates[4] as TemplateV0;
    const form = await send(account, { template: template.key });
    const r = await api.get<{ url: string }>(`${formPath(form)}/preview`);
    expectStatus(r, 200);
    expectKeySet(r.body, ['url'], 'preview');
    expectWire(FormPreview, r.body, 'preview');
    expect(r.body.url).toMatch(/^https?:\/\//);
    const page = await fetch(r.body.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type') ?? '').toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain(template.title);
    expect(html).toContain(account.client.last_name);
    expectV0Error(await api.get(`/accounts/${account.id}/forms/999999/preview`), 404);
    const other = await createAccount(api, 'clients');
    expectV0Error(
      await api.get(`/accounts/${other.id}/forms/${encodeURIComponent(String(form.key))}/preview`),
      404,
    );
  });
});

// ---- reports ----

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const FORMATS = ['PDF', 'XLS', 'CSV'] as const;
const SOURCES = ['ALL', 'CLIENT', 'PROSPECT'] as const;
type Format = (typeof FORMATS)[number];

interface Table {
  name: string;
  header: string[];
  rows: string[][];
}

async function download(path: string, format: Format): Promise<Buffer> {
  const r = await api.download(path);
  expect(r.status, `${path}: ${r.bytes.toString('utf8', 0, 300)}`).toBe(200);
  const type = r.headers.get('content-type') ?? '';
  if (format === 'PDF') expect(type).toBe('application/pdf');
  if (format === 'XLS') expect(type).toBe(XLSX_MIME);
  if (format === 'CSV') expect(type).toMatch(/^text\/csv/);
  expect(r.headers.get('content-disposition') ?? '').toMatch(/attachment; filename="[^"]+\.(pdf|xlsx|csv)"/);
  return r.bytes;
}

function pdfToText(bytes: Buffer): string {
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const file = join(tmp, `r${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

const cellText = (v: ExcelJS.CellValue): string => {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 19).replace('T', ' ');
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return String(v);
  if ('result' in v) return cellText(v.result ?? null);
  if ('richText' in v) return v.richText.map((t) => t.text).join('');
  return JSON.stringify(v);
};

async function xlsxTables(bytes: Buffer): Promise<Table[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  return workbook.worksheets.map((sheet) => {
    const rows: string[][] = [];
    sheet.eachRow((row) => {
      const cells: string[] = [];
      for (let c = 1; c <= sheet.columnCount; c++) cells.push(cellText(row.getCell(c).value));
      rows.push(cells);
    });
    return { name: sheet.name, header: rows[0] ?? [], rows: rows.slice(1) };
  });
}

/** CSV tables: one header and rows, or several each behind a one-cell title line and separated by empty lines. */
function csvTables(bytes: Buffer): Table[] {
  const rows = parseCsv(bytes.toString('utf8'));
  const blocks: string[][][] = [[]];
  for (const row of rows) {
    if (row.length === 1 && row[0] === '') blocks.push([]);
    else blocks[blocks.length - 1]!.push(row);
  }
  const nonEmpty = blocks.filter((b) => b.length > 0);
  if (nonEmpty.length === 1 && (nonEmpty[0]![0]?.length ?? 0) > 1) {
    const [header = [], ...data] = nonEmpty[0]!;
    return [{ name: '', header, rows: data }];
  }
  return nonEmpty.map(([title = [], header = [], ...data]) => ({ name: title[0] ?? '', header, rows: data }));
}

/** The values of the column with this title, data rows only (a totals row labelled Total is left out). */
function column(table: Table, title: string): string[] {
  const i = table.header.indexOf(title);
  expect(i, `column ${title} in ${table.header.join(', ')}`).toBeGreaterThanOrEqual(0);
  return table.rows.filter((r) => !r.includes('Total')).map((r) => r[i] ?? '');
}

/** Every account of the advisor's team, in the version 2 shape (which shows archived and type). */
async function allAccountsV2(): Promise<AccountV2[]> {
  const r = await s.v2.get<List<AccountV2>>('/accounts', { type: 'all', limit: 500 });
  expect(r.status).toBe(200);
  return r.body.items;
}

function expectedIds(
  accounts: AccountV2[],
  source: (typeof SOURCES)[number],
  start: string,
  end: string,
): string[] {
  return accounts
    .filter((a) => !a.archived && (source === 'ALL' || a.type === source))
    .filter((a) => a.created_at.slice(0, 10) >= start && a.created_at.slice(0, 10) <= end)
    .map((a) => String(a.id))
    .sort();
}

describe('reports', () => {
  let reports: ReportV0[];
  let households: ReportV0;
  let created: AccountV0[];
  let archived: AccountV0;

  beforeAll(async () => {
    reports = (await api.get<ReportV0[]>('/user/reports')).body;
    households = reports.find((r) => r.type === 'DATADEFINITION' && r.source === 'accounts') as ReportV0;
    created = [
      await createAccount(api, 'clients'),
      await createAccount(api, 'clients', true),
      await createAccount(api, 'prospects'),
      await createAccount(api, 'prospects'),
    ];
    archived = await createAccount(api, 'clients');
    const r = await s.v2.post(`/accounts/${archived.id}`, { archived: true });
    expect(r.status, r.text).toBe(200);
  });

  it('lists the reports of the user', async () => {
    const r = await api.get<ReportV0[]>('/user/reports');
    expectStatus(r, 200);
    expect(r.body.length).toBeGreaterThan(0);
    for (const report of r.body) {
      expectKeySet(report, REPORT_KEYS, 'report');
      expectWire(Report, report, 'report');
      expect(['FORMDEFINITION', 'DATADEFINITION']).toContain(report.type);
      expect(report.created_at).toMatch(TIMESTAMP);
      expect(report.updated_at).toMatch(TIMESTAMP);
      expect(Array.isArray(report.tags)).toBe(true);
      expect(typeof report.source).toBe('string');
    }
    expect(new Set(r.body.map((x) => x.type)).size).toBe(2);
    expect(households, 'a household report').toBeDefined();
  });

  it.each(FORMATS.flatMap((f) => SOURCES.map((src) => [f, src] as const)))(
    'user report as %s for source %s holds the accounts created in the range, archived ones left out',
    async (format, source) => {
      const start = created.map((a) => a.created_at.slice(0, 10)).sort()[0] as string;
      const end = today() > start ? today() : start;
      const bytes = await download(
        `/user/reports/${households.key}/${source}/${start}/${end}/${format}`,
        format,
      );
      const accounts = await allAccountsV2();
      const expected = expectedIds(accounts, source, start, end);
      const mine = created.filter(
        (a) => source === 'ALL' || a.type === (source === 'CLIENT' ? 'clients' : 'prospects'),
      );
      expect(mine.length).toBeGreaterThan(0);
      for (const a of mine) expect(expected).toContain(String(a.id));
      expect(expected).not.toContain(String(archived.id));

      if (format === 'PDF') {
        const text = pdfToText(bytes);
        expect(text).toContain(households.title);
        for (const a of mine) {
          expect(text).toContain(a.client.first_name);
          expect(text).toContain(a.client.last_name);
        }
        expect(text).not.toContain(archived.client.first_name);
        const others = created.filter((a) => !mine.includes(a));
        for (const a of others) expect(text).not.toContain(a.client.first_name);
        return;
      }
      const tables = format === 'XLS' ? await xlsxTables(bytes) : csvTables(bytes);
      expect(tables).toHaveLength(1);
      const table = tables[0] as Table;
      expect(column(table, 'Account').sort()).toEqual(expected);
      const names = column(table, 'Client');
      for (const a of mine) expect(names).toContain(`${a.client.first_name} ${a.client.last_name}`);
      expect(names).not.toContain(`${archived.client.first_name} ${archived.client.last_name}`);
    },
  );

  it('a user report over a past year holds exactly the seeded accounts created then', async () => {
    const accounts = await allAccountsV2();
    const end = addDays(today(), -1);
    const start = addDays(end, -364);
    const expected = expectedIds(accounts, 'ALL', start, end);
    expect(expected.length).toBeGreaterThan(5);
    expect(
      accounts.some((a) => a.archived),
      'the seed has archived accounts',
    ).toBe(true);
    const [xlsx] = await xlsxTables(
      await download(`/user/reports/${households.key}/ALL/${start}/${end}/XLS`, 'XLS'),
    );
    expect(column(xlsx as Table, 'Account').sort()).toEqual(expected);
    const [csv] = csvTables(
      await download(`/user/reports/${households.key}/PROSPECT/${start}/${end}/CSV`, 'CSV'),
    );
    expect(column(csv as Table, 'Account').sort()).toEqual(expectedIds(accounts, 'PROSPECT', start, end));
  });

  it('every report of the list renders in every format', async () => {
    const start = addDays(today(), -730);
    for (const report of reports) {
      for (const format of FORMATS) {
        const bytes = await download(`/user/reports/${report.key}/ALL/${start}/${today()}/${format}`, format);
        expect(bytes.length).toBeGreaterThan(0);
        if (format === 'PDF') expect(pdfToText(bytes)).toContain(report.title);
        if (format === 'XLS') expect((await xlsxTables(bytes)).length).toBeGreaterThan(0);
      }
    }
  });

  it('rejects a bad format, source or date with 422 and an unknown report with 404', async () => {
    const t = today();
    expectV0Error(await api.get(`/user/reports/${households.key}/ALL/${t}/${t}/DOCX`), 422);
    expectV0Error(await api.get(`/user/reports/${households.key}/EVERYONE/${t}/${t}/PDF`), 422);
    expectV0Error(await api.get(`/user/reports/${households.key}/ALL/2024-13-01/${t}/PDF`), 422);
    expectV0Error(await api.get(`/user/reports/${households.key}/ALL/${t}/yesterday/CSV`), 422);
    expectV0Error(await api.get(`/user/reports/${households.key}/ALL/${t}/${addDays(t, -3)}/CSV`), 422);
    expectV0Error(await api.get(`/user/reports/987/ALL/${t}/${t}/PDF`), 404);
  });

  it('account report in every format holds the account and the names of its assets', async () => {
    const account = await createAccount(api, 'clients', true);
    const assets = ['Lakeside cabin', 'Vintage roadster'];
    for (const name of assets) {
      const r = await api.post(sectionPath(account.id, 'assets', false), {
        type: 'other',
        name,
        owner: 'joint',
        current_value: 1000,
      });
      expectStatus(r, 201);
    }
    const path = (format: string) => `/accounts/${account.id}/reports/${households.key}/${format}`;
    const text = pdfToText(await download(path('PDF'), 'PDF'));
    expect(text).toContain(account.client.first_name);
    for (const name of assets) expect(text).toContain(name);

    const sheets = await xlsxTables(await download(path('XLS'), 'XLS'));
    const all = sheets.flatMap((t) => t.rows.flat());
    for (const name of assets) expect(all).toContain(name);
    expect(column(sheets[0] as Table, 'Account')).toEqual([String(account.id)]);

    const csv = csvTables(await download(path('CSV'), 'CSV'));
    const cells = csv.flatMap((t) => t.rows.flat());
    for (const name of assets) expect(cells).toContain(name);
    expect(cells).toContain(`${account.client.first_name} ${account.client.last_name}`);

    expect((await feed('account.exported'))[0]?.description).toContain(account.client.first_name);
  });

  it('account report: 422 for a bad format, 404 for an unknown account or report', async () => {
    const account = await createAccount(api, 'clients');
    expectV0Error(await api.get(`/accounts/${account.id}/reports/${households.key}/TXT`), 422);
    expectV0Error(await api.get(`/accounts/987654/reports/${households.key}/PDF`), 404);
    expectV0Error(await api.get(`/accounts/${account.id}/reports/987/PDF`), 404);
  });
});
