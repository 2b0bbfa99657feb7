// The household's financial summary as a PDF an advisor hands a client: the firm, the household
// and its members, net worth, monthly cash flow, goals, insurance, retirement plans and contacts,
// with page numbers, the date, the last sync and what is still unsent. Written from the local
// store alone (no request to the platform); the export service saves the bytes.

import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import type { AdvisorDb } from '../data/db.ts';
import { cashFlowPart } from './summary/cash-flow.ts';
import type { SummaryContext } from './summary/context.ts';
import { contactsPart, householdPart } from './summary/household.ts';
import { householdTitle, readHousehold, type Firm } from './summary/household-data.ts';
import { RULE, dateText, pageFrame, timeText } from './summary/layout.ts';
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
    ...pageFrame({ firm: ctx.firm.name, running: `Financial summary · ${title}`, now: ctx.now }),
    info: { title: `${title} – financial summary`, creator: 'Advisor Desk' },
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
