// Every endpoint of the 0.0.1 document, under /api/v0, and the stored files below /api/v0/files.

import { formatDate, parseDate } from '../clock.ts';
import { invalid, notFound } from '../errors.ts';
import { sendFile } from '../files.ts';
import { page, paging, sortItems } from '../listing.ts';
import type { Context, Router } from '../router.ts';
import { USER_ACTIVITIES } from '../catalog.ts';
import { registerAccountsV0 } from './accounts.ts';
import { registerForms } from './forms.ts';
import { registerReports } from './reports.ts';
import { registerSections } from './sections.ts';
import { activityV0, templateV0, userV0 } from './shape.ts';

const DAY = 86_400_000;

/**
 * Counts per day over the range, both ends included; at most 366 days. The document declares
 * start_date and end_date as path parameters of a path without placeholders: they are read from
 * the query string, or from `/user/stats/{start_date}/{end_date}`.
 */
function stats(ctx: Context) {
  const today = Math.floor(Date.now() / DAY) * DAY;
  const startText =
    ctx.params.start_date ??
    ctx.query.start_date ??
    formatDate(new Date(today).setUTCMonth(new Date(today).getUTCMonth() - 1));
  const endText = ctx.params.end_date ?? ctx.query.end_date ?? formatDate(today);
  const start = parseDate(startText);
  const end = parseDate(endText);
  const messages: string[] = [];
  if (start === null) messages.push('start_date is invalid: use YYYY-MM-DD.');
  if (end === null) messages.push('end_date is invalid: use YYYY-MM-DD.');
  if (start !== null && end !== null && (end < start || (end - start) / DAY > 366))
    messages.push('end_date is invalid: it must be on or after start_date and at most 366 days later.');
  if (messages.length || start === null || end === null) throw invalid(messages);
  const days = (end - start) / DAY + 1;
  const counts = () => new Array<number>(days).fill(0);
  const out = { prospects: counts(), clients: counts(), sent_forms: counts(), closed_forms: counts() };
  const bump = (list: number[], ts: string | null) => {
    if (!ts) return;
    const i = Math.floor((Date.parse(ts.slice(0, 10) + 'T00:00:00Z') - start) / DAY);
    if (i >= 0 && i < days) list[i] = (list[i] ?? 0) + 1;
  };
  const accounts = ctx.store.visibleAccounts(ctx.user);
  for (const a of accounts) bump(a.type === 'CLIENT' ? out.clients : out.prospects, a.created_at);
  const ids = new Set(accounts.map((a) => a.id));
  for (const f of ctx.store.state.forms.filter((x) => ids.has(x.account_id))) {
    bump(out.sent_forms, f.created_at);
    bump(out.closed_forms, f.closed_at);
  }
  return out;
}

/** The feed of the user's current team, with the documented types. */
function activities(ctx: Context) {
  const q = ctx.query;
  const p = paging(q, 100, 'v0');
  if (q.type && !Object.hasOwn(USER_ACTIVITIES, q.type))
    throw invalid([`type is invalid: use one of ${Object.keys(USER_ACTIVITIES).join(', ')}.`]);
  let items = ctx.store.state.userActivities.filter((a) => a.teamId === ctx.user.currentTeamId);
  if (q.type) items = items.filter((a) => a.type === q.type);
  const sorted = sortItems(
    items,
    q.sort || '-created_at',
    {
      id: (a) => a.id,
      type: (a) => a.type,
      created_at: (a) => a.created_at,
      title: (a) => USER_ACTIVITIES[a.type]?.title,
      description: (a) => a.description,
    },
    (a) => a.id,
    'v0',
  );
  return { items: page(sorted, p).map(activityV0), limit: p.limit, offset: p.offset, total: sorted.length };
}

export function registerV0(r: Router): void {
  r.get('/user', (ctx) => userV0(ctx.store, ctx.base.v0, ctx.user));
  r.get('/user/stats', stats);
  r.get('/user/stats/:start_date/:end_date', stats);
  r.get('/user/activities', activities);
  r.get('/user/templates', (ctx) => ctx.store.templatesOf(ctx.user).map((t) => templateV0(t, true)));
  registerForms(r);
  registerReports(r);
  registerAccountsV0(r);
  registerSections(r);
  r.get('/files/:fileId/:name', (ctx) => {
    const file = ctx.store.file(ctx.params.fileId);
    const otherTeam = file?.teamId !== undefined && file.teamId !== ctx.user.currentTeamId;
    if (!file || otherTeam || file.name !== ctx.params.name) throw notFound('File');
    return sendFile(ctx.reply, file, file.kind === 'image');
  });
}
