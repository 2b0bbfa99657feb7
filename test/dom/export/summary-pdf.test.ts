// The household financial summary (PDF) read back with poppler's pdftotext, a reader other than
// the writer: every figure equal to what the local store holds (expected values worked out by hand
// from the seeds), "Not downloaded yet" and one sentence per area where nothing is here, never $0,
// and a 500-item section breaking across pages with its header repeated.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFinancialSummary } from '../../../renderer/src/export/summary-pdf.ts';
import { confirmValues } from '../../../renderer/src/data/confirmations.ts';
import { singleRowId } from '../../../renderer/src/data/mappers.ts';
import { openDb } from '../../support/store.ts';
import {
  advisorConfig,
  emptyHousehold,
  fullHousehold,
  manyGoals,
  notDownloadedHousehold,
  partlyDownloaded,
  unconvertibleFrequencies,
  NOW,
  PULLED_AT,
} from './summary-seeds.ts';

const dir = mkdtempSync(join(tmpdir(), 'summary-pdf-'));

/** The PDF's text page by page, laid out as printed, and the file it was read from. */
function readBack(bytes: Uint8Array, name: string): { pages: string[]; text: string; file: string } {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, bytes);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  const pages = text.split('\f').filter((p) => p.trim() !== '');
  return { pages, text, file };
}

/** A row of a table as pdftotext lays it out: its cells in order, on one line. */
const row = (...cells: string[]) =>
  new RegExp(cells.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'));

describe('household financial summary (PDF)', () => {
  it('prints every section of a full household with the figures the store holds', async () => {
    const db = openDb();
    await advisorConfig(db);
    const account = await fullHousehold(db);
    const { text, pages } = readBack(await buildFinancialSummary(db, account.id, { now: NOW }), 'full');

    expect(pages[0]).toContain('Main Street Advisors');
    expect(pages[0]).toContain('Financial summary');
    expect(pages[0]).toContain('Ann Tester and Bob Tester');
    expect(pages[0]).toMatch(/Page 1 of \d/);
    const synced = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
      PULLED_AT,
    );
    expect(text.replace(/\s+/g, ' ')).toContain(`As of the last sync at ${synced}.`);
    expect(text.replace(/\s+/g, ' ')).toContain(
      '1 change made on this computer is not sent to the platform yet',
    );
    // Ages at 2026-11-25: Ann born 1978-03-14 is 48, Bob born 1980-12-01 not yet 46, Cara born 2012-05-20 is 14.
    expect(text).toMatch(row('Ann Tester', 'Client', 'Mar 14, 1978', '48'));
    expect(text).toMatch(row('Bob Tester', 'Co-client', 'Dec 1, 1980', '45'));
    expect(text).toMatch(row('Cara Tester', 'Child', 'May 20, 2012', '14', 'Yes'));
    // US English, as the rest of the app (issue 23, point 18: "dependants").
    expect(text).toMatch(row('Family and dependents'));
    expect(text).toMatch(row('Name', 'Relationship', 'Date of birth', 'Age', 'Dependent'));
    expect(text).not.toMatch(/dependant/i);

    // Net worth by category: 450,000 + 12,500 + 80,000 + 150,000 + 40,000 + 5,000 − 300,000.
    expect(text).toMatch(row('Assets', '1', '$450,000'));
    expect(text).toMatch(row('Cash', '1', '$12,500'));
    expect(text).toMatch(row('Taxable accounts', '1', '$80,000'));
    expect(text).toMatch(row('Retirement and college plans', '1', '$150,000'));
    expect(text).toMatch(row('Annuities', '1', '$40,000'));
    expect(text).toMatch(row('Insurance (cash value)', '1', '$5,000'));
    expect(text).toMatch(row('Liabilities', '1', '−$300,000'));
    expect(text).toMatch(row('Net worth', '$437,500'));
    // By owner: Ann 12,500 + 150,000 + 40,000 + 5,000; Bob 80,000; joint 450,000 − 300,000.
    expect(text).toMatch(row('Ann Tester', '$207,500', '$0', '$207,500'));
    expect(text).toMatch(row('Bob Tester', '$80,000', '$0', '$80,000'));
    expect(text).toMatch(row('Joint', '$450,000', '−$300,000', '$150,000'));
    expect(text).toMatch(row('Home mortgage', 'Joint', '−$300,000'));

    // Monthly: income 120,000/12 + 2,000; fixed 2,500; taxes 24,000/12; variable 900.
    expect(text).toMatch(row('Income', '$12,000'));
    expect(text).toMatch(row('Fixed expenses', '−$2,500'));
    expect(text).toMatch(row('Taxes', '−$2,000'));
    expect(text).toMatch(row('Variable expenses', '−$900'));
    expect(text).toMatch(row('Net monthly cash flow', '$6,600'));
    expect(text).toMatch(row('Employment · Ann Tester', '$120,000', 'Yearly', '$10,000'));
    expect(text).toMatch(/One-time amounts/);
    expect(text).toMatch(row('Income', 'Other · Bob Tester', '$5,000'));

    expect(text).toMatch(row('Lake house', 'Home', 'Joint', 'High', '$250,000', 'Jun 1, 2031'));
    expect(text).toMatch(row('Whole life policy', 'Whole life', 'Ann Tester', '$1,000,000', '$90 /mo'));
    expect(text).toMatch(row('Acme 401(k)', '401(k)', 'Ann Tester', 'Fidelity', '$500 /mo', '$150,000'));
    expect(text).toMatch(row('Dana Price', 'Accountant', 'Price & Co', 'dana@price.example'));
    expect(text).not.toMatch(/not downloaded yet/i);
    pages.forEach((p, i) => expect(p).toContain(`Page ${i + 1} of ${pages.length}`));
  });

  it('prints a date of birth in 1800 as one to check, without an age, and says when it was confirmed', async () => {
    // Issue 23, point 2: the summary said "Jan 1, 1800 · Age 226".
    const db = openDb();
    await advisorConfig(db);
    const account = await fullHousehold(db);
    const id = singleRowId(account.id, 'details:client');
    const details = (await db.singles.get(id))!;
    await db.singles.put({ ...details, fields: { ...details.fields, birth_date: '1800-01-01' } });
    const first = readBack(await buildFinancialSummary(db, account.id, { now: NOW }), 'implausible').text;
    // No age between the date and the e-mail; the words wrap beneath the date.
    expect(first).toMatch(row('Ann Tester', 'Client', 'Jan 1, 1800', 'ann@example.com'));
    expect(first.replace(/\s+/g, ' ')).toContain('(implausible; to check)');
    expect(first).not.toContain('226');

    await confirmValues(db, account.id, 'details:client', { birth_date: '1800-01-01' });
    const then = readBack(await buildFinancialSummary(db, account.id, { now: NOW }), 'confirmed').text;
    expect(then.replace(/\s+/g, ' ')).toContain('(implausible; confirmed)');
    expect(then).not.toContain('226');
  });

  it('says in one sentence per area that an empty household has nothing recorded', async () => {
    const db = openDb();
    const account = await emptyHousehold(db);
    const { text, pages } = readBack(await buildFinancialSummary(db, account.id, { now: NOW }), 'empty');
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('Page 1 of 1');
    for (const sentence of [
      'No family members or dependents are recorded.',
      'No assets or liabilities are recorded.',
      'No income or expenses are recorded.',
      'No goals are recorded.',
      'No insurance policies are recorded.',
      'No retirement or college plans are recorded.',
      'No contacts are recorded.',
    ])
      expect(text).toContain(sentence);
    expect(text).not.toContain('$');
  });

  it('says "Not downloaded yet" for a household not on this computer, never a figure', async () => {
    const db = openDb();
    const account = await notDownloadedHousehold(db);
    const { text } = readBack(await buildFinancialSummary(db, account.id, { now: NOW }), 'absent');
    const flat = text.replace(/\s+/g, ' ');
    for (const area of [
      'Family',
      'Assets and liabilities',
      'Income and expenses',
      'Goals',
      'Insurance',
      'Retirement and college plans',
      'Contacts',
    ])
      expect(flat).toContain(`${area}: not downloaded yet.`);
    expect(flat).toContain('Not downloaded from the platform yet');
    expect(text).not.toContain('$');
    expect(text).not.toMatch(/\bAge\b.*\b0\b/);
  });

  it('names the parts not on this computer instead of counting them as nothing', async () => {
    const db = openDb();
    const account = await partlyDownloaded(db);
    const { text } = readBack(await buildFinancialSummary(db, account.id, { now: NOW }), 'partial');
    const flat = text.replace(/\s+/g, ' ');
    // What is here keeps its figures; what is not says so, and the totals say they are incomplete.
    expect(text).toMatch(row('Assets', '1', '$450,000'));
    expect(text).toMatch(row('Cash', 'Not downloaded yet'));
    expect(text).toMatch(row('Net worth', 'Incomplete'));
    expect(flat).toContain('Net worth by owner is shown once every category is on this computer.');
    expect(text).toMatch(row('Income', 'Not downloaded yet'));
    expect(text).toMatch(row('Fixed expenses', '−$2,500'));
    expect(text).toMatch(row('Net monthly cash flow', 'Incomplete'));
    expect(flat).toContain('Not on this computer yet: Income of Bob Tester.');
    expect(flat).toContain('Goals: not downloaded yet.');
    expect(text).not.toMatch(/\$0\b/);
    expect(text).not.toContain('$437,500');
  });

  // Issue 16 point 5: an amount at a frequency the app does not know is kept as stored; the
  // client's summary must neither count it as a month nor drop it.
  it('names the amounts it cannot convert to a month, with their frequency, and does not sum them', async () => {
    const db = openDb();
    const account = await unconvertibleFrequencies(db);
    const { text } = readBack(await buildFinancialSummary(db, account.id, { now: NOW }), 'frequencies');
    // Monthly: the salary 1,000 less the groceries 400.
    expect(text).toMatch(row('Income', '$1,000'));
    expect(text).toMatch(row('Variable expenses', '−$400'));
    expect(text).toMatch(row('Net monthly cash flow', '$600'));
    expect(text).toMatch(row('Employment · Ann Tester', '$1,000', 'Monthly', '$1,000'));
    expect(text.replace(/\s+/g, ' ')).toContain(
      'Not in the monthly figures (the app cannot convert their frequency)',
    );
    expect(text).toMatch(row('Income', 'Dividends · Ann Tester', '$3,000', 'quarterly'));
    expect(text).toMatch(row('Variable expenses', 'Domestic help', '$80', 'biweekly'));
    // Counted as a month, they would have made income $4,000 or expenses $480.
    expect(text).not.toMatch(/\$4,000|\$480|\$3,600/);
    expect(text).not.toMatch(/One-time amounts/);
  });

  // Issue 23 point 4: the premium and the contribution entered with the policy and the plan are
  // in no budget line; the summary says its rule and sets them beside the budget, not silently apart.
  it('says the cash flow’s rule and sets the payments entered with items beside the budget', async () => {
    const db = openDb();
    await advisorConfig(db);
    const account = await fullHousehold(db);
    const { text } = readBack(await buildFinancialSummary(db, account.id, { now: NOW }), 'budget');
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('The expense sections are the budget');
    expect(text).toMatch(/Payments entered with the items, beside the budget/);
    // The whole life premium, $90 a month, and the 401(k) contribution, $500 a month, are in no
    // budget line; the mortgage liability has no payment entered, so the $2,500 line stands alone.
    expect(text).toMatch(
      row('Life insurance', 'Whole life policy (policy)', 'none', '$90', 'Not in the budget: $90'),
    );
    expect(text).toMatch(
      row('Retirement plan', 'Acme 401(k) (plan)', 'none', '$500', 'Not in the budget: $500'),
    );
    expect(text).not.toMatch(row('Mortgage', 'Home mortgage'));
    // 90 + 500 = 590 a month; the net 6,600 less 590 is 6,010.
    expect(flat).toContain(
      '$590 a month of these payments is not in the budget: paid on top of it, the net would be $6,010.',
    );
  });

  it('breaks a 500-goal table across pages with its header on each', async () => {
    const db = openDb();
    const account = await manyGoals(db);
    const { pages } = readBack(await buildFinancialSummary(db, account.id, { now: NOW }), 'long');
    expect(pages.length).toBeGreaterThan(5);
    const withGoals = pages.filter((p) => /Goal \d+/.test(p));
    expect(withGoals.length).toBeGreaterThan(5);
    for (const page of withGoals)
      expect(page).toMatch(row('Name', 'Type', 'Owner', 'Priority', 'Target', 'By'));
    const all = pages.join('\n');
    for (const n of [1, 250, 500])
      expect(all).toMatch(row(`Goal ${n}`, 'Other', 'Ann Tester', `$${(1000 * n).toLocaleString('en-US')}`));
    expect(all.match(/Goal \d+ /g)).toHaveLength(500);
  });
});
