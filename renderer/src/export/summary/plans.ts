// The household's plans and protection: goals with their target and date, insurance with its
// coverage and premium, retirement and college plans. One table each, or the one sentence that
// says the section is not on this computer or holds nothing.

import type { Content } from 'pdfmake/interfaces';
import { sectionForm } from '@shared/section-forms/build.ts';
import type { SectionItemRow } from '../../data/model.ts';
import { formatDate, toDraft, type TargetDraft } from '../../household/values.ts';
import { amount, isMissing, itemsOf, ownerOf, shown, type SummaryContext } from './context.ts';
import { heading, notDownloaded, sentence, table, type Column } from './layout.ts';

type Cells = (ctx: SummaryContext) => Column<SectionItemRow>[];

const field = (
  ctx: SummaryContext,
  path: string,
  name: string,
  label: string,
  extra: Partial<Column<SectionItemRow>> = {},
): Column<SectionItemRow> => ({ label, ...extra, cell: (i) => shown(ctx, path, name, i.fields[name]) });

const named = (path: string): Column<SectionItemRow> => ({
  label: 'Name',
  cell: (i) => sectionForm(path)?.describe(i.fields) ?? '',
});
const owner = (ctx: SummaryContext): Column<SectionItemRow> => ({
  label: 'Owner',
  width: 90,
  cell: (i) => ownerOf(ctx, i.fields.owner),
});

function target(ctx: SummaryContext, i: SectionItemRow): TargetDraft {
  const spec = sectionForm('goals')?.fields.find((f) => f.name === 'target');
  return spec ? (toDraft(spec, i.fields.target) as TargetDraft) : { value: null, date: null };
}

const goalColumns: Cells = (ctx) => [
  named('goals'),
  field(ctx, 'goals', 'type', 'Type', { width: 80 }),
  owner(ctx),
  field(ctx, 'goals', 'priority', 'Priority', { width: 50 }),
  {
    label: 'Target',
    width: 80,
    amount: true,
    cell: (i) => {
      const t = target(ctx, i);
      return t.value === null ? '' : amount(ctx, Math.round(t.value * 100));
    },
  },
  { label: 'By', width: 75, cell: (i) => formatDate(target(ctx, i).date) },
];

const insuranceColumns: Cells = (ctx) => [
  named('insurance'),
  field(ctx, 'insurance', 'type', 'Type', { width: 80 }),
  field(ctx, 'insurance', 'insured', 'Insured', { width: 80 }),
  field(ctx, 'insurance', 'coverage_value', 'Coverage', { width: 75, amount: true }),
  field(ctx, 'insurance', 'premium_value', 'Premium', { width: 75, amount: true }),
];

const planColumns: Cells = (ctx) => [
  named('plans'),
  field(ctx, 'plans', 'type', 'Type', { width: 60 }),
  owner(ctx),
  field(ctx, 'plans', 'provider', 'Provider', { width: 80 }),
  field(ctx, 'plans', 'contribution_value', 'Contribution', { width: 70, amount: true }),
  field(ctx, 'plans', 'current_value', 'Current value', { width: 75, amount: true }),
];

function itemSection(
  ctx: SummaryContext,
  path: string,
  title: string,
  none: string,
  columns: Cells,
): Content[] {
  if (isMissing(ctx, path)) return [heading(title), notDownloaded(title)];
  const items = itemsOf(ctx, path);
  if (items.length === 0) return [heading(title), sentence(none)];
  return [heading(title), table(columns(ctx), items)];
}

export const goalsPart = (ctx: SummaryContext): Content[] =>
  itemSection(ctx, 'goals', 'Goals', 'No goals are recorded.', goalColumns);
export const insurancePart = (ctx: SummaryContext): Content[] =>
  itemSection(ctx, 'insurance', 'Insurance', 'No insurance policies are recorded.', insuranceColumns);
export const plansPart = (ctx: SummaryContext): Content[] =>
  itemSection(
    ctx,
    'plans',
    'Retirement and college plans',
    'No retirement or college plans are recorded.',
    planColumns,
  );
