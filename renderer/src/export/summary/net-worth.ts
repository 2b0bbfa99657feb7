// The net worth statement: what the household owns and owes by category and by owner (client,
// co-client, joint), the holdings behind each figure, and a bar of assets against liabilities. The
// sums are the app's own (shared/finance.ts); a category not on this computer says so instead of a
// figure, and the total then says it is incomplete rather than leave it out silently.

import type { Content } from 'pdfmake/interfaces';
import { netWorth, summedField, type NetWorth, type Part } from '@shared/finance.ts';
import { sectionForm } from '@shared/section-forms/build.ts';
import type { SectionItemRow } from '../../data/model.ts';
import { relationOf } from '../../household/values.ts';
import { barChart, COLORS } from './charts.ts';
import { amount, isMissing, ownerOf, shown, signedAmount, type SummaryContext } from './context.ts';
import { heading, notDownloaded, sentence, subheading, table } from './layout.ts';

const categoryLabel = (path: string): string =>
  path === 'insurance' ? 'Insurance (cash value)' : (sectionForm(path)?.title ?? path);

const assetsOf = (w: NetWorth) => w.parts.filter((p) => p.sign > 0).reduce((n, p) => n + p.cents, 0);
const liabilitiesOf = (w: NetWorth) => w.parts.filter((p) => p.sign < 0).reduce((n, p) => n + p.cents, 0);

function byCategory(ctx: SummaryContext, worth: NetWorth, missing: Part[]): Content {
  const unknown = missing.length === worth.parts.length ? 'Not downloaded yet' : 'Incomplete';
  return table(
    [
      { label: 'Category', cell: (p: Part) => categoryLabel(p.section) },
      { label: 'Items', width: 40, amount: true, cell: (p) => (missing.includes(p) ? '' : String(p.items)) },
      {
        label: 'Amount',
        width: 100,
        amount: true,
        cell: (p) => (missing.includes(p) ? 'Not downloaded yet' : signedAmount(ctx, p.sign * p.cents)),
      },
    ],
    // A category with nothing in it is left out: a statement lists what the household has.
    worth.parts.filter((p) => p.items > 0 || missing.includes(p)),
    [['Net worth', '', missing.length ? unknown : signedAmount(ctx, worth.total)]],
  );
}

const OWNERS = ['client', 'coclient', 'joint'] as const;

function byOwner(ctx: SummaryContext, worthItems: SectionItemRow[]): Content {
  const ownerType = (i: SectionItemRow) => relationOf(i.fields.owner)?.type ?? '';
  const owners: readonly string[] = ctx.members.length > 1 ? OWNERS : ['client'];
  const groups = owners.map((o) => ({
    label: ownerOf(ctx, o),
    items: worthItems.filter((i) => ownerType(i) === o),
  }));
  const other = worthItems.filter((i) => !owners.includes(ownerType(i)));
  if (other.length) groups.push({ label: 'Other or not given', items: other });
  const rows = groups.map((g) => ({ label: g.label, worth: netWorth(g.items) }));
  return table(
    [
      { label: 'Owner', cell: (r: (typeof rows)[number]) => r.label },
      { label: 'Assets', width: 90, amount: true, cell: (r) => amount(ctx, assetsOf(r.worth)) },
      {
        label: 'Liabilities',
        width: 90,
        amount: true,
        cell: (r) => signedAmount(ctx, -liabilitiesOf(r.worth)),
      },
      { label: 'Net worth', width: 90, amount: true, cell: (r) => signedAmount(ctx, r.worth.total) },
    ],
    rows,
  );
}

function holdings(ctx: SummaryContext, worthItems: SectionItemRow[]): Content {
  return table(
    [
      { label: 'Category', width: 110, cell: (i: SectionItemRow) => categoryLabel(i.section) },
      { label: 'Name', cell: (i) => sectionForm(i.section)?.describe(i.fields) ?? '' },
      { label: 'Owner', width: 100, cell: (i) => ownerOf(ctx, i.fields.owner) },
      {
        label: 'Value',
        width: 90,
        amount: true,
        cell: (i) => {
          const field = summedField(i.section) ?? '';
          const value = shown(ctx, i.section, field, i.fields[field]);
          return value && i.section === 'liabilities' ? `−${value}` : value;
        },
      },
    ],
    worthItems,
  );
}

export function netWorthPart(ctx: SummaryContext): Content[] {
  // The sections that count, in the app's order (shared/finance.ts).
  const order = netWorth([]).parts.map((p) => p.section);
  const worthItems = ctx.items
    .filter((i) => order.includes(i.section))
    .sort((a, b) => order.indexOf(a.section) - order.indexOf(b.section));
  const worth = netWorth(worthItems);
  const missing = worth.parts.filter((p) => isMissing(ctx, p.section));
  const out: Content[] = [heading('Net worth')];
  if (missing.length === worth.parts.length) return [...out, notDownloaded('Assets and liabilities')];
  if (worthItems.length === 0 && missing.length === 0)
    return [...out, sentence('No assets or liabilities are recorded.')];
  out.push(byCategory(ctx, worth, missing));
  if (missing.length === 0) {
    const assets = assetsOf(worth);
    const owed = liabilitiesOf(worth);
    out.push(
      barChart([
        {
          label: 'Assets',
          segments: [{ label: 'Assets', cents: assets, color: COLORS.assets }],
          shown: amount(ctx, assets),
        },
        {
          label: 'Liabilities',
          segments: [{ label: 'Liabilities', cents: owed, color: COLORS.liabilities }],
          shown: amount(ctx, owed),
        },
      ]),
    );
    out.push(subheading('By owner'), byOwner(ctx, worthItems));
  } else {
    out.push(sentence('Net worth by owner is shown once every category is on this computer.'));
  }
  if (worthItems.length) out.push(subheading('Holdings'), holdings(ctx, worthItems));
  return out;
}
