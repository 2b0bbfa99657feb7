// The household's financial summary as a PDF an advisor hands a client: the firm, the household
// and its members, net worth, monthly cash flow, goals, insurance, retirement plans and contacts,
// with page numbers, the date, the last sync and what is still unsent. Written from the local
// store alone (no request to the platform); the export service saves the bytes.

import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { accountLabel } from '../data/labels.ts';
import type { AdvisorDb } from '../data/db.ts';
import { userLocale } from '../workspace/values.ts';
import { memberName } from '../workspace/workspace.ts';
import { cashFlowPart } from './summary/cash-flow.ts';
import type { SummaryContext } from './summary/context.ts';
import { contactsPart, householdPart } from './summary/household.ts';
import { readHousehold, type Firm } from './summary/household-data.ts';
import { MUTED, RULE, STYLES } from './summary/layout.ts';
import { netWorthPart } from './summary/net-worth.ts';
import { renderPdf } from './summary/pdf-engine.ts';
import { goalsPart, insurancePart, plansPart } from './summary/plans.ts';

export type { Firm };

export interface SummaryOptions {
  /** The moment the summary is written: its date, and the members' ages. */
  now: Date;
  /** The firm at the top; by default the company of the platform's user (version 0.0.1 `/user`). */
  firm?: Firm;
}

const dateText = (d: Date) => new Intl.DateTimeFormat(userLocale(), { dateStyle: 'long' }).format(d);
const timeText = (ms: number) =>
  new Intl.DateTimeFormat(userLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));

/** The household's name as a title: "Ann Tester and Bob Tester". */
function householdTitle(ctx: SummaryContext): string {
  const names = ctx.members.map((m) => memberName(ctx.account, m));
  return names.filter(Boolean).join(' and ') || accountLabel(ctx.account);
}

function provenance(ctx: SummaryContext): string {
  const { pulledAt, serverId } = ctx.account;
  const sync =
    pulledAt !== null
      ? `As of the last sync at ${timeText(pulledAt)}.`
      : typeof serverId === 'number'
        ? 'Not downloaded from the platform yet: only what the account list shows is on this computer.'
        : 'Made on this computer, not on the platform yet.';
  const unsent =
    ctx.unsent === 0
      ? ''
      : ` ${ctx.unsent} ${ctx.unsent === 1 ? 'change' : 'changes'} made on this computer ${ctx.unsent === 1 ? 'is' : 'are'} not sent to the platform yet (included here).`;
  return sync + unsent;
}

function cover(ctx: SummaryContext): Content[] {
  const firm: Content[] = [];
  if (ctx.firm.logo) firm.push({ image: ctx.firm.logo, fit: [140, 48], margin: [0, 0, 0, 6] });
  if (ctx.firm.name) firm.push({ text: ctx.firm.name, style: 'firm' });
  return [
    ...firm,
    { text: 'Financial summary', style: 'title' },
    { text: householdTitle(ctx), style: 'subtitle' },
    { text: `Prepared on ${dateText(ctx.now)}. ${provenance(ctx)}`, style: 'note' },
    {
      canvas: [{ type: 'line', x1: 0, y1: 6, x2: 515, y2: 6, lineWidth: 0.8, lineColor: RULE }],
      margin: [0, 0, 0, 2],
    },
  ];
}

export function summaryDocument(ctx: SummaryContext): TDocumentDefinitions {
  const title = householdTitle(ctx);
  return {
    pageSize: 'A4',
    pageMargins: [40, 48, 40, 52],
    info: { title: `${title} – financial summary`, creator: 'Advisor Desk' },
    defaultStyle: { font: 'Roboto', fontSize: 9.5, color: '#1f2933' },
    styles: STYLES,
    header: (page: number) =>
      page === 1
        ? null
        : {
            text: [ctx.firm.name ? `${ctx.firm.name} · ` : '', `Financial summary · ${title}`],
            fontSize: 8,
            color: MUTED,
            margin: [40, 22, 40, 0],
          },
    footer: (page: number, pages: number) => ({
      columns: [
        { text: dateText(ctx.now), fontSize: 8, color: MUTED },
        { text: `Page ${page} of ${pages}`, fontSize: 8, color: MUTED, alignment: 'right' },
      ],
      margin: [40, 16, 40, 0],
    }),
    // A heading never ends a page: near the bottom, it moves to the next with what it heads.
    pageBreakBefore: (node) => node.headlineLevel === 1 && node.startPosition.verticalRatio > 0.86,
    content: [
      ...cover(ctx),
      ...householdPart(ctx),
      ...netWorthPart(ctx),
      ...cashFlowPart(ctx),
      ...goalsPart(ctx),
      ...insurancePart(ctx),
      ...plansPart(ctx),
      ...contactsPart(ctx),
    ],
  };
}

/** The financial summary of a household on this computer, as the bytes of a PDF. */
export async function buildFinancialSummary(
  db: AdvisorDb,
  accountId: string,
  options: SummaryOptions,
): Promise<Uint8Array> {
  const data = await readHousehold(db, accountId, options.firm);
  return renderPdf(summaryDocument({ ...data, now: options.now }));
}
