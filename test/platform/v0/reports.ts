// Reports of the 0.0.1 interface: the list, the user report over a source and a date range, and
// the account report, as real PDF, XLSX (asked for as XLS) or CSV files.

import { formatTimestamp, parseDate } from '../clock.ts';
import { invalid, notFound } from '../errors.ts';
import { sendBytes } from '../files.ts';
import type { AccountRecord, ReportRecord } from '../model.ts';
import {
  renderReport,
  type ReportDocument,
  type ReportFormat,
  type ReportSection,
} from '../reports/render.ts';
import type { Context, Router } from '../router.ts';
import { COLLECTIONS } from '../sections.ts';
import type { Store } from '../store.ts';

const FORMATS: ReportFormat[] = ['PDF', 'XLS', 'CSV'];

function reportOf(ctx: Context): ReportRecord {
  const raw = ctx.params.reportKey as string;
  const key = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  const report = ctx.store.state.reports.find((r) => r.key === key && r.teamId === ctx.user.currentTeamId);
  if (!report) throw notFound('Report');
  return report;
}

function formatOf(raw: string | undefined): ReportFormat {
  const f = (raw ?? '').toUpperCase() as ReportFormat;
  if (!FORMATS.includes(f)) throw invalid(['format is invalid: use PDF, XLS or CSV.']);
  return f;
}

const value = (v: unknown): number =>
  typeof v === 'object' && v !== null && typeof (v as { value?: unknown }).value === 'number'
    ? (v as { value: number }).value
    : 0;

/** Balances of an account (current values; frequency does not apply to a balance). */
export function balances(store: Store, account: AccountRecord) {
  const sum = (path: string, field = 'current_value') =>
    store.items(account, path).reduce((s, i) => s + value(i.fields[field]), 0);
  const assets = sum('assets');
  const cash = sum('cash');
  const investments = sum('plans') + sum('taxable') + sum('annuities');
  const insurance = sum('insurance', 'cash_value');
  const liabilities = sum('liabilities');
  return {
    assets,
    cash,
    investments,
    insurance,
    liabilities,
    net_worth: assets + cash + investments + insurance - liabilities,
  };
}

function accountsSection(store: Store, accounts: AccountRecord[]): ReportSection {
  return {
    title: 'Households',
    columns: [
      { key: 'id', title: 'Account', kind: 'number' },
      { key: 'client', title: 'Client', kind: 'text' },
      { key: 'coclient', title: 'Co-client', kind: 'text' },
      { key: 'type', title: 'Type', kind: 'text' },
      { key: 'email', title: 'Email', kind: 'text' },
      { key: 'stage', title: 'Stage', kind: 'text' },
      { key: 'quality', title: 'Quality', kind: 'percent' },
      { key: 'created', title: 'Created', kind: 'date' },
    ],
    rows: accounts.map((a) => ({
      id: a.id,
      client: store.memberName(a.client),
      coclient: store.memberName(a.coclient) || null,
      type: a.type === 'CLIENT' ? 'Client' : 'Prospect',
      email: a.client.email,
      stage: store.state.pipelines.find((p) => p.id === a.pipelineId)?.title ?? null,
      quality: store.quality(a).score / 100,
      created: a.created_at,
    })),
  };
}

function financialSection(store: Store, accounts: AccountRecord[]): ReportSection {
  const rows = accounts.map((a) => ({ household: store.memberName(a.client), ...balances(store, a) }));
  const keys = ['assets', 'cash', 'investments', 'insurance', 'liabilities', 'net_worth'] as const;
  return {
    title: 'Net worth',
    columns: [
      { key: 'household', title: 'Household', kind: 'text' },
      ...keys.map((k) => ({
        key: k,
        title: k === 'net_worth' ? 'Net worth' : k[0]!.toUpperCase() + k.slice(1),
        kind: 'money' as const,
      })),
    ],
    rows,
    totals: Object.fromEntries(keys.map((k) => [k, rows.reduce((s, r) => s + r[k], 0)])),
  };
}

function formsSection(
  store: Store,
  report: ReportRecord,
  accountIds: Set<number>,
  inRange: (ts: string) => boolean,
): ReportSection {
  const template = store.state.templates.find((t) => t.key === report.source);
  const forms = store.state.forms.filter(
    (f) => f.template_id === template?.id && accountIds.has(f.account_id) && inRange(f.created_at),
  );
  return {
    title: template?.title ?? 'Forms',
    columns: [
      { key: 'account', title: 'Account', kind: 'number' },
      { key: 'recipients', title: 'Recipients', kind: 'text' },
      { key: 'status', title: 'Status', kind: 'text' },
      { key: 'sent', title: 'Sent', kind: 'date' },
      { key: 'closed', title: 'Closed', kind: 'date' },
    ],
    rows: forms.map((f) => ({
      account: f.account_id,
      recipients: f.recipients.map((r) => r.name).join(', '),
      status: f.status,
      sent: f.created_at,
      closed: f.closed_at,
    })),
  };
}

async function send(ctx: Context, doc: ReportDocument, format: ReportFormat, baseName: string) {
  const rendered = await renderReport(doc, format);
  return sendBytes(ctx.reply, `${baseName}.${rendered.extension}`, rendered.mime, rendered.bytes);
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Archived accounts are left out of reports (PLATFORM-FACTS.md). */
async function userReport(ctx: Context) {
  const { store, user } = ctx;
  const report = reportOf(ctx);
  const source = ctx.params.reportSource as string;
  const messages: string[] = [];
  if (!['ALL', 'CLIENT', 'PROSPECT'].includes(source))
    messages.push('reportSource is invalid: use ALL, CLIENT or PROSPECT.');
  const start = parseDate(ctx.params.start as string);
  const end = parseDate(ctx.params.end as string);
  if (start === null) messages.push('start is invalid: use YYYY-MM-DD.');
  if (end === null) messages.push('end is invalid: use YYYY-MM-DD.');
  if (start !== null && end !== null && end < start)
    messages.push('end is invalid: it must not be before start.');
  if (messages.length) throw invalid(messages);
  const format = formatOf(ctx.params.format);
  const inRange = (ts: string) =>
    ts.slice(0, 10) >= (ctx.params.start as string) && ts.slice(0, 10) <= (ctx.params.end as string);
  const visible = store
    .visibleAccounts(user)
    .filter((a) => !a.archived && (source === 'ALL' || a.type === source));
  const created = visible.filter((a) => inRange(a.created_at));
  const section =
    report.type === 'FORMDEFINITION'
      ? formsSection(store, report, new Set(visible.map((a) => a.id)), inRange)
      : report.source === 'financials'
        ? financialSection(store, created)
        : accountsSection(store, created);
  const doc: ReportDocument = {
    title: report.title,
    subtitle: `${source === 'ALL' ? 'Clients and prospects' : source === 'CLIENT' ? 'Clients' : 'Prospects'} · ${ctx.params.start} to ${ctx.params.end}`,
    generatedAt: formatTimestamp(Date.now()),
    sections: [section],
  };
  return send(ctx, doc, format, `${slug(report.title)}-${ctx.params.start}-${ctx.params.end}`);
}

async function accountReport(ctx: Context) {
  const { store, user } = ctx;
  const account = store.account(user, ctx.params.accountId as string);
  const report = reportOf(ctx);
  const format = formatOf(ctx.params.format);
  const name = store.memberName(account.client);
  const sections: ReportSection[] =
    report.type === 'FORMDEFINITION'
      ? [formsSection(store, report, new Set([account.id]), () => true)]
      : [
          accountsSection(store, [account]),
          financialSection(store, [account]),
          ...itemSections(store, account),
        ];
  store.userActivity(
    user,
    account.teamId,
    'account.exported',
    `${report.title} of ${name} was exported as ${format}`,
  );
  const doc: ReportDocument = {
    title: `${report.title}: ${name}`,
    subtitle: `Account ${account.id}`,
    generatedAt: formatTimestamp(Date.now()),
    sections,
  };
  return send(ctx, doc, format, `${slug(report.title)}-account-${account.id}`);
}

/** One section per non-empty financial collection of the account: name, type, owner, value. */
function itemSections(store: Store, account: AccountRecord): ReportSection[] {
  return COLLECTIONS.filter((s) => s.fields.current_value).flatMap((spec) => {
    const items = store.items(account, spec.path);
    if (items.length === 0) return [];
    return [
      {
        title: spec.entity,
        columns: [
          { key: 'name', title: 'Name', kind: 'text' as const },
          { key: 'type', title: 'Type', kind: 'text' as const },
          { key: 'owner', title: 'Owner', kind: 'text' as const },
          { key: 'value', title: 'Current value', kind: 'money' as const },
        ],
        rows: items.map((i) => ({
          name: typeof i.fields.name === 'string' ? i.fields.name : '',
          type: (i.fields.type as string | null) ?? null,
          owner: (i.fields.owner as { type?: string } | null)?.type ?? null,
          value: value(i.fields.current_value),
        })),
        totals: { value: items.reduce((s, i) => s + value(i.fields.current_value), 0) },
      },
    ];
  });
}

export function registerReports(r: Router): void {
  r.get('/user/reports', (ctx) =>
    ctx.store.state.reports
      .filter((x) => x.teamId === ctx.user.currentTeamId)
      .map(({ teamId: _t, ...rest }) => ({ ...rest, tags: [...rest.tags] })),
  );
  r.get('/user/reports/:reportKey/:reportSource/:start/:end/:format', userReport);
  r.get('/accounts/:accountId/reports/:reportKey/:format', accountReport);
}
