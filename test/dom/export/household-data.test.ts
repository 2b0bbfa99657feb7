// The household's data exported as XLSX and as CSV (issue 14, point 2), read back with readers other
// than the writers: read-excel-file for the workbook (and the sheet's own XML for number formats),
// csv-parse for the CSVs in the zip (unzipped with fflate). Expected values are the seeds' own, as
// an advisor reads them; net worth and cash flow are the sums an advisor would do by hand.

import { parse } from 'csv-parse/sync';
import { strFromU8, unzipSync } from 'fflate';
import readXlsxFile from 'read-excel-file/node';
import { describe, expect, it } from 'vitest';
import { accountPartKeys } from '../../../renderer/src/data/coverage.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import type { AccountRow } from '../../../renderer/src/data/model.ts';
import { updateRecord } from '../../../renderer/src/data/changes/index.ts';
import { householdCsvZip } from '../../../renderer/src/export/household-csv.ts';
import { householdWorkbook, sheetNames } from '../../../renderer/src/export/household-xlsx.ts';
import { clientFields, openDb, syncedAccount, syncedItem, syncedSingle } from '../../support/store.ts';
import { unconvertibleFrequencies } from './summary-seeds.ts';

const NOW = new Date(2026, 10, 25, 14, 5).getTime();
const PULLED = new Date(2026, 10, 24, 9, 30).getTime();
const client = { type: 'client', id: null };
const coclient = { type: 'coclient', id: null };
const joint = { type: 'joint', id: null };
const once = (value: number) => ({ value, frequency: 'one-time' });
const monthly = (value: number) => ({ value, frequency: 'monthly' });
const yearly = (value: number) => ({ value, frequency: 'yearly' });
/** A calendar date as a workbook holds it (its midnight, no time zone). */
const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d));

/** Ann and Bob Tester, on the platform (members 70 and 71) and pulled here at PULLED. */
async function household(db: AdvisorDb, parts?: (all: string[]) => string[]): Promise<AccountRow> {
  const account = await syncedAccount(db, 7, {
    ...clientFields('Ann'),
    'coclient.first_name': 'Bob',
    'coclient.last_name': 'Tester',
    'coclient.email': 'bob@example.com',
  });
  const all = accountPartKeys(['client', 'coclient']);
  const here = parts ? parts(all) : all;
  await db.accounts.update(account.id, {
    meta: { ...account.meta, clientId: 70, coclientId: 71 },
    pulledAt: PULLED,
    parts: Object.fromEntries(here.map((key) => [key, PULLED])),
  });
  return (await db.accounts.get(account.id))!;
}

/** Every section filled, with texts that need quoting and one that starts like a formula. */
async function fillEverySection(db: AdvisorDb, id: string) {
  const item = (section: string, n: number, fields: Record<string, unknown>) =>
    syncedItem(db, id, section, `${section}-${n}`, fields);
  const home = await item('assets', 1, {
    name: 'Family home',
    type: 'primary-residence',
    owner: joint,
    current_value: once(250000),
    original_value: 180000,
  });
  await item('annuities', 1, {
    name: 'Lifetime income',
    owner: client,
    provider: 'Acme Life',
    primary_beneficiary: coclient,
    type: 'fixed',
    contribution_value: monthly(500),
    current_value: once(80000),
    distribution_type: 'lump-sum',
    distribution_value: once(1000),
  });
  await item('cash', 1, {
    name: 'Savings, "rainy day"\nfund',
    type: 'savings',
    provider: 'First Bank',
    owner: client,
    current_value: once(15000.5),
    interest: 4.5,
    end_date: '2027-06-30 00:00:00',
  });
  await item('contacts', 1, {
    type: 'accountant',
    first_name: '=HYPERLINK("http://evil.example")',
    last_name: 'Nguyen',
    email: 'nguyen@example.com',
    phone: '+1 555 010 0199',
    company: 'Numbers, Inc.',
  });
  await item('documents', 1, {
    file: { filename: 'will.pdf', url: 'x' },
    relation: { type: 'Asset', id: home.id },
  });
  await item('employment:client', 1, {
    employer: 'Globex',
    position: 'Engineer',
    duration: 5,
    address: { line1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', country: 'US' },
    salary: yearly(120000),
    comissions: 8000,
  });
  await item('employment:coclient', 1, { employer: '@Initech', position: 'Analyst' });
  await item('expenses-variable', 1, { type: 'groceries', value: monthly(800) });
  const cara = await item('family', 1, {
    relationship: 'child',
    first_name: 'Cara',
    last_name: 'Tester',
    gender: 'female',
    birth_date: '2012-05-14',
    dependent: true,
    college_type: 'public',
    college_start: 2030,
    college_end: 2034,
  });
  await item('goals', 1, {
    type: 'college',
    name: 'College for Cara',
    owner: joint,
    beneficiary: { type: 'FamilyMember', id: cara.id },
    priority: 'high',
    frequency: 'one-time',
    target: { value: 100000, date: '2030-09-01' },
  });
  await item('insurance', 1, {
    type: 'term',
    name: 'Term 20',
    provider: 'Acme',
    owner: client,
    insured: client,
    primary_beneficiary: coclient,
    premium_value: monthly(50),
    coverage_value: once(500000),
    cash_value: once(0),
  });
  await item('liabilities', 1, {
    name: 'Mortgage',
    owner: joint,
    provider: 'First Bank',
    type: 'fixed',
    start_date: '2015-01-01',
    end_date: '2045-01-01',
    interest: 3.25,
    original_value: once(300000),
    current_value: once(200000),
    cost_value: monthly(2000),
  });
  await item('plans', 1, {
    name: 'Ann 401(k)',
    type: '401k',
    owner: client,
    provider: 'Fidelity',
    contribution_value: monthly(500),
    current_value: once(150000),
  });
  await item('taxable', 1, {
    name: 'Brokerage',
    provider: 'Vanguard',
    owner: coclient,
    cost_value: once(40000),
    current_value: once(55000),
  });
  await syncedSingle(db, id, 'expenses-fixed', { mortgage: monthly(2000) });
  await syncedSingle(db, id, 'expenses-tax', { federal_income: yearly(24000), real_estate: once(3000) });
  await syncedSingle(db, id, 'income:client', {
    employment: monthly(10000),
    dividends: once(1200),
    comments: 'Bonus in March',
  });
  await syncedSingle(db, id, 'income:coclient', { social_security: monthly(2000) });
  await syncedSingle(db, id, 'details:client', {
    first_name: 'Ann',
    last_name: 'Tester',
    birth_date: '1980-03-14',
    marital_status: 'married',
    'address.city': 'Springfield',
    risk_score: 60,
  });
  await syncedSingle(db, id, 'details:coclient', { first_name: 'Bob', last_name: 'Tester' });
  return { home, cara };
}

type Sheets = Record<string, unknown[][]>;
async function readWorkbook(bytes: Uint8Array): Promise<Sheets> {
  const sheets = await readXlsxFile(Buffer.from(bytes));
  return Object.fromEntries(sheets.map((s) => [s.sheet, s.data as unknown[][]]));
}

/** Rows by the text of their first cell. */
const byFirst = (rows: Record<string, unknown>[], key: string): Record<string, Record<string, unknown>> =>
  Object.fromEntries(rows.map((r) => [String(r[key]), r]));

/** A sheet's rows as objects by its header. */
function records(rows: unknown[][] | undefined): Record<string, unknown>[] {
  const [header = [], ...rest] = rows ?? [];
  return rest.map((r) => Object.fromEntries(header.map((h, i) => [String(h), r[i] ?? null])));
}

/** The summary's values by their label (labels trimmed of their indent). */
function summaryOf(rows: unknown[][] | undefined): Record<string, unknown> {
  return Object.fromEntries((rows ?? []).slice(1).map((r) => [String(r[0]).trim(), r[1] ?? null]));
}

/**
 * The number format of each cell of a sheet (its position in the workbook), read from the
 * workbook's XML rather than through either library: `D2` → `"$"#,##0.00;…`.
 */
function numberFormats(bytes: Uint8Array, sheet: number): Record<string, string> {
  const files = unzipSync(bytes);
  const styles = strFromU8(files['xl/styles.xml']!);
  const custom = new Map(
    [...styles.matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"/g)].map((m) => [
      m[1],
      m[2]!.replace(/&quot;/g, '"'),
    ]),
  );
  const xfs = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? '';
  const xfFormats = [...xfs.matchAll(/<xf\b([^>]*)>/g)].map(
    (m) => /numFmtId="(\d+)"/.exec(m[1]!)?.[1] ?? '0',
  );
  const xml = strFromU8(files[`xl/worksheets/sheet${sheet + 1}.xml`]!);
  const out: Record<string, string> = {};
  for (const m of xml.matchAll(/<c r="([A-Z]+\d+)"[^>]*?\bs="(\d+)"/g)) {
    const id = xfFormats[Number(m[2])];
    out[m[1]!] = (id && custom.get(id)) ?? `builtin:${id}`;
  }
  return out;
}

/** The files of a zip: their bytes, and their text (UTF-8, the byte-order mark dropped as readers do). */
function readZip(bytes: Uint8Array): { raw: Record<string, Uint8Array>; files: Record<string, string> } {
  const raw = unzipSync(bytes);
  return {
    raw,
    files: Object.fromEntries(Object.entries(raw).map(([name, data]) => [name, strFromU8(data)])),
  };
}
const csvRows = (text: string): string[][] =>
  parse(text.replace(/^\uFEFF/, ''), { relax_column_count: true });

describe('a household with every section filled', () => {
  async function seeded() {
    const db = openDb();
    const account = await household(db);
    const { home } = await fillEverySection(db, account.id);
    // One change made here, not sent yet: the platform still has the old name.
    await updateRecord(db, 'sectionItems', home.id, { name: 'Family home on Elm St' });
    return { db, account };
  }

  it('writes a workbook with a summary, each member’s details and a sheet per section, typed', async () => {
    const { db, account } = await seeded();
    const bytes = await householdWorkbook(db, account.id, { now: NOW });
    const sheets = await readWorkbook(bytes);
    const names = Object.keys(sheets);
    expect(names).toEqual([
      'Summary',
      'Details · Ann Tester',
      'Details · Bob Tester',
      'Family',
      'Contacts',
      'Employment · Ann Tester',
      'Employment · Bob Tester',
      'Income · Ann Tester',
      'Income · Bob Tester',
      'Fixed expenses',
      'Taxes',
      'Variable expenses',
      'Assets',
      'Cash',
      'Taxable accounts',
      'Retirement and college plans',
      'Annuities',
      'Insurance',
      'Liabilities',
      'Goals',
      'Documents',
    ]);
    for (const name of names) {
      expect(name.length).toBeLessThanOrEqual(31);
      expect(name).not.toMatch(/[[\]:*?/\\]/);
    }

    // Net worth: 250,000 + 15,000.50 + 55,000 + 150,000 + 80,000 + 0 − 200,000.
    // Monthly: 10,000 + 2,000 income; 2,000 fixed; 24,000 a year of taxes; 800 variable.
    const summary = summaryOf(sheets.Summary);
    expect(summary).toMatchObject({
      Household: 'Ann Tester',
      Client: 'Ann Tester',
      'Co-client': 'Bob Tester',
      'Changes not sent yet': 1,
      'Net worth': 350000.5,
      Assets: 250000,
      Cash: 15000.5,
      'Taxable accounts': 55000,
      'Retirement & college': 150000,
      Annuities: 80000,
      'Insurance cash value': 0,
      Liabilities: -200000,
      'Net monthly cash flow': 7200,
      Income: 12000,
      'Fixed expenses': -2000,
      Taxes: -2000,
      'Variable expenses': -800,
      'Dividends (income of Ann Tester)': 1200,
      'Real estate tax (taxes)': 3000,
    });

    // Issue 23 point 4: the payments entered with the items beside the budget, per month: the
    // premium 50, the annuity's and the 401(k)'s contributions 500 each are in no budget line; the
    // mortgage's 2,000 payment matches its line. 50 + 500 + 500 = 1,050; 7,200 − 1,050 = 6,150.
    expect(String(summary['How the cash flow is counted'])).toContain('The expense sections are the budget');
    expect(summary).toMatchObject({
      'Life insurance: budget': 'none',
      'Life insurance: with the items (Term 20 (policy))': 50,
      'Life insurance: difference': 'Not in the budget: $50',
      'Annuity: with the items (Lifetime income (annuity))': 500,
      'Retirement plan: with the items (Ann 401(k) (plan))': 500,
      'Mortgage: budget': 2000,
      'Mortgage: with the items (Mortgage (liability))': 2000,
      'Mortgage: difference': 'Same as the budget',
      'Payments not in the budget': 1050,
      'Net if they are paid on top of the budget': 6150,
    });

    // The clock of this computer at the last sync (a serial day number: within a second).
    const asOf = summary['As of the last sync'] as Date;
    expect(asOf).toBeInstanceOf(Date);
    expect(Math.abs(asOf.getTime() - (PULLED - new Date(PULLED).getTimezoneOffset() * 60_000))).toBeLessThan(
      1000,
    );

    const [asset] = records(sheets.Assets);
    expect(asset).toEqual({
      Name: 'Family home on Elm St',
      Type: 'Primary residence',
      Owner: 'Joint',
      'Current value': 250000,
      'Original value': 180000,
    });
    const assetFormats = numberFormats(bytes, names.indexOf('Assets'));
    expect(assetFormats.D2).toMatch(/^"\$"#,##0\.00/);
    expect(assetFormats.E2).toMatch(/^"\$"#,##0\.00/);

    const [cash] = records(sheets.Cash);
    expect(cash).toMatchObject({
      Name: 'Savings, "rainy day"\nfund',
      Type: 'Savings',
      Owner: 'Ann Tester',
      'Current value': 15000.5,
      'Maturity date': day(2027, 6, 30),
    });
    expect(cash!['Interest rate (%)']).toBeCloseTo(0.045, 10);
    const cashSheet = sheets.Cash!;
    const rateColumn = String.fromCharCode(65 + cashSheet[0]!.indexOf('Interest rate (%)'));
    expect(numberFormats(bytes, names.indexOf('Cash'))[`${rateColumn}2`]).toBe('0.00%');

    const [liability] = records(sheets.Liabilities);
    expect(liability).toMatchObject({
      Owner: 'Joint',
      'Start date': day(2015, 1, 1),
      'End date': day(2045, 1, 1),
      Payment: 2000,
      'Payment: how often': 'Monthly',
    });
    const [plan] = records(sheets['Retirement and college plans']);
    expect(plan).toMatchObject({ Type: '401(k)', Contribution: 500, 'Contribution: how often': 'Monthly' });
    const [family] = records(sheets.Family);
    expect(family).toMatchObject({
      'First name': 'Cara',
      Relationship: 'Child',
      'Date of birth': day(2012, 5, 14),
      Dependent: 'Yes',
      'College start (year)': 2030,
    });
    const [goal] = records(sheets.Goals);
    expect(goal).toMatchObject({
      Owner: 'Joint',
      Beneficiary: 'Cara Tester',
      Priority: 'High',
      'How often': 'One time',
      'Target amount': 100000,
      'Target date': day(2030, 9, 1),
    });
    const [document] = records(sheets.Documents);
    expect(document).toEqual({ File: 'will.pdf', 'Related to': 'Family home on Elm St' });
    const [insurance] = records(sheets.Insurance);
    expect(insurance).toMatchObject({
      Owner: 'Ann Tester',
      Insured: 'Ann Tester',
      'Primary beneficiary': 'Bob Tester',
      Premium: 50,
      'Premium: how often': 'Monthly',
      Coverage: 500000,
    });
    const [job] = records(sheets['Employment · Ann Tester']);
    expect(job).toMatchObject({
      Employer: 'Globex',
      'Years employed': 5,
      Address: '1 Main St, Springfield, IL, 62701, US',
      Salary: 120000,
      'Salary: how often': 'Yearly',
      'Bonuses and commissions': 8000,
    });

    // A single record: one line per field, its amount and how often.
    const income = byFirst(records(sheets['Income · Ann Tester']), 'Item');
    expect(income.Employment).toEqual({ Item: 'Employment', Amount: 10000, 'How often': 'Monthly' });
    expect(income.Dividends).toEqual({ Item: 'Dividends', Amount: 1200, 'How often': 'One time' });
    expect(income.Comments).toMatchObject({ Amount: 'Bonus in March' });
    const taxes = byFirst(records(sheets.Taxes), 'Item');
    expect(taxes['Federal income tax']).toMatchObject({ Amount: 24000, 'How often': 'Yearly' });

    const details = Object.fromEntries(
      records(sheets['Details · Ann Tester']).map((r) => [String(r.Field), r.Value]),
    );
    expect(details).toMatchObject({
      'First name': 'Ann',
      'Date of birth': day(1980, 3, 14),
      'Marital status': 'Married',
      City: 'Springfield',
      'Risk score': 60,
    });
  });

  it('writes one CSV per section in a zip: UTF-8 with BOM, quoted where needed, formulas disarmed', async () => {
    const { db, account } = await seeded();
    const { raw, files } = readZip(await householdCsvZip(db, account.id, { now: NOW }));
    expect(Object.keys(files)).toEqual([
      '00-summary.csv',
      '01-details-ann-tester.csv',
      '02-details-bob-tester.csv',
      '03-family.csv',
      '04-contacts.csv',
      '05-employment-ann-tester.csv',
      '06-employment-bob-tester.csv',
      '07-income-ann-tester.csv',
      '08-income-bob-tester.csv',
      '09-fixed-expenses.csv',
      '10-taxes.csv',
      '11-variable-expenses.csv',
      '12-assets.csv',
      '13-cash.csv',
      '14-taxable-accounts.csv',
      '15-retirement-and-college-plans.csv',
      '16-annuities.csv',
      '17-insurance.csv',
      '18-liabilities.csv',
      '19-goals.csv',
      '20-documents.csv',
    ]);
    for (const data of Object.values(raw)) expect([...data.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

    const cashText = files['13-cash.csv']!;
    // Quotes doubled, the field quoted because it holds a comma, quotes and a line break.
    expect(cashText).toContain('"Savings, ""rainy day""\nfund"');
    const [cash] = records(csvRows(cashText));
    expect(cash).toMatchObject({
      Name: 'Savings, "rainy day"\nfund',
      'Current value': '15000.5',
      'Interest rate (%)': '4.5',
      'Maturity date': '2027-06-30',
    });

    const [contact] = records(csvRows(files['04-contacts.csv']!));
    expect(contact).toMatchObject({
      'First name': `'=HYPERLINK("http://evil.example")`,
      'Last name': 'Nguyen',
      Company: 'Numbers, Inc.',
      Phone: "'+1 555 010 0199",
    });
    const [job] = records(csvRows(files['06-employment-bob-tester.csv']!));
    expect(job).toMatchObject({ Employer: "'@Initech", Position: 'Analyst' });

    const summary = summaryOf(csvRows(files['00-summary.csv']!));
    expect(summary).toMatchObject({
      'Net worth': '350000.5',
      Liabilities: '-200000',
      'Net monthly cash flow': '7200',
      'Changes not sent yet': '1',
      'As of the last sync': '2026-11-24 09:30',
      Exported: '2026-11-25 14:05',
    });
    const [goal] = records(csvRows(files['19-goals.csv']!));
    expect(goal).toMatchObject({
      'Target amount': '100000',
      'Target date': '2030-09-01',
      Beneficiary: 'Cara Tester',
    });
  });
});

describe('a household with no data', () => {
  it('gets a summary that says so, not figures of zero', async () => {
    const db = openDb();
    const account = await household(db);
    const sheets = await readWorkbook(await householdWorkbook(db, account.id, { now: NOW }));
    const summary = summaryOf(sheets.Summary);
    expect(summary['Financial data']).toMatch(/^None entered yet/);
    expect(summary).not.toHaveProperty('Net worth');
    expect(summary['Changes not sent yet']).toBe(0);
    // Each section is an empty table with its columns, since the platform has nothing in it.
    expect(sheets.Assets).toEqual([['Name', 'Type', 'Owner', 'Current value', 'Original value']]);

    const { files } = readZip(await householdCsvZip(db, account.id, { now: NOW }));
    expect(summaryOf(csvRows(files['00-summary.csv']!))['Financial data']).toMatch(/^None entered yet/);
    expect(csvRows(files['12-assets.csv']!)).toEqual([
      ['Name', 'Type', 'Owner', 'Current value', 'Original value'],
    ]);
  });

  it('says "Not downloaded yet" for a household of which only its row in the list is here', async () => {
    const db = openDb();
    const account = await household(db, () => []);
    await db.accounts.update(account.id, { pulledAt: null });
    const sheets = await readWorkbook(await householdWorkbook(db, account.id, { now: NOW }));
    const summary = summaryOf(sheets.Summary);
    expect(summary['Financial data']).toBe('Not downloaded yet');
    expect(summary['As of the last sync']).toBe('Never synced');
    expect(sheets.Assets?.[0]).toEqual(['Not downloaded yet']);
    expect(sheets['Details · Ann Tester']?.[0]).toEqual(['Not downloaded yet']);
  });
});

describe('a household with parts not on this computer', () => {
  it('says "Not downloaded yet" for those parts, in the workbook and in the zip, and no total', async () => {
    const db = openDb();
    const missing = ['cash', 'income:coclient', 'details:coclient'];
    const account = await household(db, (all) => all.filter((key) => !missing.includes(key)));
    await fillEverySection(db, account.id);
    const sheets = await readWorkbook(await householdWorkbook(db, account.id, { now: NOW }));
    expect(sheets.Cash?.[0]).toEqual(['Not downloaded yet']);
    expect(String(sheets.Cash?.[1]?.[0])).toMatch(/not on this computer/);
    expect(sheets['Income · Bob Tester']?.[0]).toEqual(['Not downloaded yet']);
    expect(sheets['Details · Bob Tester']?.[0]).toEqual(['Not downloaded yet']);
    expect(records(sheets.Assets)).toHaveLength(1);
    const summary = summaryOf(sheets.Summary);
    expect(summary['Net worth']).toBe('Incomplete');
    expect(summary.Cash).toBe('Not downloaded yet');
    expect(summary.Assets).toBe(250000);
    expect(summary['Net monthly cash flow']).toBe('Incomplete');
    // Ann's income is here, Bob's is not.
    expect(summary.Income).toBe('Incomplete');
    expect(summary['Fixed expenses']).toBe(-2000);

    const { files } = readZip(await householdCsvZip(db, account.id, { now: NOW }));
    expect(csvRows(files['13-cash.csv']!)[0]).toEqual(['Not downloaded yet']);
  });
});

// Issue 16 point 5: a frequency the platform allows and the app does not know (quarterly,
// biweekly) is kept; the export must neither count it as a month nor leave it out silently.
describe('a household with amounts at a frequency the app cannot convert', () => {
  const LEFT_OUT = 'Not in the monthly figures (the app cannot convert their frequency)';

  it('names them in the summary with their frequency as stored, and does not sum them', async () => {
    const db = openDb();
    const account = await unconvertibleFrequencies(db);
    const sheets = await readWorkbook(await householdWorkbook(db, account.id, { now: NOW }));
    const summary = summaryOf(sheets.Summary);
    // Monthly: the salary 1,000 less the groceries 400; the dividends and the help are not counted.
    expect(summary).toMatchObject({
      'Net monthly cash flow': 600,
      Income: 1000,
      'Variable expenses': -400,
      'Dividends (income of Ann Tester), quarterly': 3000,
      'Domestic help (variable expenses), biweekly': 80,
    });
    expect(Object.keys(summary)).toContain(LEFT_OUT);
    expect(summary).not.toHaveProperty(['One-time amounts (not in the monthly cash flow)']);

    const { files } = readZip(await householdCsvZip(db, account.id, { now: NOW }));
    expect(summaryOf(csvRows(files['00-summary.csv']!))).toMatchObject({
      'Net monthly cash flow': '600',
      Income: '1000',
      'Dividends (income of Ann Tester), quarterly': '3000',
      'Domestic help (variable expenses), biweekly': '80',
      [LEFT_OUT]: '',
    });
  });
});

describe('a household with 500 items in a section', () => {
  it('writes every one of them, in order, in the workbook and in the CSV', async () => {
    const db = openDb();
    const account = await household(db);
    for (let n = 1; n <= 500; n++)
      await syncedItem(db, account.id, 'assets', `asset-${String(n).padStart(3, '0')}`, {
        name: `Asset ${n}`,
        type: 'collectible',
        owner: client,
        current_value: once(n * 100),
      });
    // An advisor who works in euros: the amounts are in euros' format, every one of them.
    const bytes = await householdWorkbook(db, account.id, { now: NOW, currency: 'EUR' });
    const sheets = await readWorkbook(bytes);
    const assets = records(sheets.Assets);
    expect(assets).toHaveLength(500);
    const formats = numberFormats(bytes, Object.keys(sheets).indexOf('Assets'));
    for (let r = 2; r <= 501; r++) expect(formats[`D${r}`]).toBe('"€"#,##0.00;-"€"#,##0.00');
    expect(assets.map((a) => a['Current value'])).toEqual(
      Array.from({ length: 500 }, (_, i) => (i + 1) * 100),
    );
    // 100 + 200 + … + 50,000.
    expect(summaryOf(sheets.Summary)['Net worth']).toBe(12_525_000);

    const { files } = readZip(await householdCsvZip(db, account.id, { now: NOW }));
    const rows = records(csvRows(files['12-assets.csv']!));
    expect(rows).toHaveLength(500);
    expect(rows[499]).toMatchObject({ Name: 'Asset 500', Owner: 'Ann Tester', 'Current value': '50000' });
  });
});

describe('sheet names', () => {
  it('are at most 31 characters, without the characters Excel refuses, each once', () => {
    const long = 'Employment · Christopher Alexander Montgomery';
    const names = sheetNames([long, `${long}-Jones`, 'Income · A/B: [Smith]?*\\', 'Summary', 'summary']);
    expect(names).toEqual([
      'Employment · Christopher Alexan',
      'Employment · Christopher Al (2)',
      'Income · A-B- -Smith----',
      'Summary',
      'summary (2)',
    ]);
  });
});
