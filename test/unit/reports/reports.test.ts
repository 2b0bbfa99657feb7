// The Reports screens' own rules: the presets' days as an advisor reads them on a calendar, a range
// that cannot be asked for named by its field, the list grouped by kind and searched, and the
// addresses of the 0.0.1 report endpoints as the document writes them.

import { describe, expect, it } from 'vitest';
import type { ReportRow } from '../../../renderer/src/data/model.ts';
import {
  accountReportFile,
  defaultPreset,
  groupReports,
  presetRange,
  rangeMeaning,
  rangeProblem,
  teamReportFile,
} from '../../../renderer/src/reports/reports.ts';

const row = (id: string, type: string, title: string, tags: string[] = [], description = ''): ReportRow => ({
  id,
  key: id,
  type,
  pulledAt: 0,
  server: {
    id,
    key: Number(id),
    type,
    source: 'accounts',
    title,
    description,
    created_at: '2026-01-01 00:00:00',
    updated_at: '2026-01-01 00:00:00',
    tags,
  },
});

describe('date presets', () => {
  const thursday = new Date(2026, 10, 26, 15, 30); // 26 November 2026, afternoon

  // Issue 23 point 14: a household report opens on all time, from the first household's day.
  it('all time runs from the first household’s day to today; a household report opens on it', () => {
    expect(presetRange('all-time', thursday, '2019-04-02')).toEqual({
      start: '2019-04-02',
      end: '2026-11-26',
    });
    // No household known here: from the first day of 2000.
    expect(presetRange('all-time', thursday, null)).toEqual({ start: '2000-01-01', end: '2026-11-26' });
    expect(defaultPreset(row('1', 'DATADEFINITION', 'Household overview'))).toBe('all-time');
    expect(defaultPreset(row('2', 'FORMDEFINITION', 'Intake responses'))).toBe('this-month');
    expect(rangeMeaning(row('1', 'DATADEFINITION', 'Household overview'))).toBe(
      'The report holds the households created on these days. All time holds every household.',
    );
  });

  it('this month and this year run from their first day to today', () => {
    expect(presetRange('this-month', thursday)).toEqual({ start: '2026-11-01', end: '2026-11-26' });
    expect(presetRange('this-year', thursday)).toEqual({ start: '2026-01-01', end: '2026-11-26' });
  });

  it('last quarter is the whole calendar quarter before today’s, across a new year too', () => {
    expect(presetRange('last-quarter', thursday)).toEqual({ start: '2026-07-01', end: '2026-09-30' });
    expect(presetRange('last-quarter', new Date(2026, 1, 10))).toEqual({
      start: '2025-10-01',
      end: '2025-12-31',
    });
    expect(presetRange('last-quarter', new Date(2024, 4, 1))).toEqual({
      start: '2024-01-01',
      end: '2024-03-31',
    });
  });
});

describe('a range that cannot be asked for', () => {
  it('names the field and what to do', () => {
    expect(rangeProblem({ start: null, end: '2026-11-26' })).toMatch(/^From: /);
    expect(rangeProblem({ start: '2026-11-01', end: null })).toMatch(/^To: /);
    expect(rangeProblem({ start: '2026-11-02', end: '2026-11-01' })).toMatch(/^To: .*later day/);
    expect(rangeProblem({ start: '2026-11-01', end: '2026-11-01' })).toBeNull();
  });
});

describe('the list', () => {
  const rows = [
    row('1', 'DATADEFINITION', 'New households', ['accounts']),
    row('2', 'FORMDEFINITION', 'Risk questionnaires sent', ['risk', 'compliance']),
    row('3', 'DATADEFINITION', 'Net worth', [], 'Assets less liabilities per household'),
    row('4', 'SOMETHINGNEW', 'Audit trail'),
  ];

  it('is grouped by kind, data first, a kind the app does not know kept under Other', () => {
    expect(groupReports(rows, '').map((g) => [g.name, g.reports.map((r) => r.id)])).toEqual([
      ['Household data', ['1', '3']],
      ['Forms', ['2']],
      ['Other reports', ['4']],
    ]);
  });

  it('is searched by title, description and tag, every word', () => {
    const ids = (search: string) => groupReports(rows, search).flatMap((g) => g.reports.map((r) => r.id));
    expect(ids('compliance')).toEqual(['2']);
    expect(ids('LIABILITIES')).toEqual(['3']);
    expect(ids('new households')).toEqual(['1']);
    expect(ids('net risk')).toEqual([]);
  });
});

describe('report addresses (0.0.1)', () => {
  const report = row('7', 'DATADEFINITION', 'New households');

  it('a team report: key, source, first and last day, format', () => {
    const file = teamReportFile(report, 'PROSPECT', { start: '2026-07-01', end: '2026-09-30' }, 'XLS');
    expect(file).toEqual({
      api: 'v0',
      url: '/user/reports/7/PROSPECT/2026-07-01/2026-09-30/XLS',
      // Named as every export is (issue 23: file names came in two styles).
      name: 'New households – Prospects – 2026-07-01 to 2026-09-30.xlsx',
    });
  });

  it('a household’s report: account, key, format; named after the household and the day', () => {
    expect(accountReportFile(412, 'Ana & Luís Peña', report, 'PDF', new Date(2026, 10, 25, 9))).toEqual({
      api: 'v0',
      url: '/accounts/412/reports/7/PDF',
      name: 'Ana & Luís Peña – New households – 2026-11-25.pdf',
    });
  });
});
