// Every endpoint of the version 2 document, under /api/v2.

import { ACCOUNT_ACTIVITIES, ICONS } from '../catalog.ts';
import { ApiError, notFound } from '../errors.ts';
import type { Structure, UserRecord } from '../model.ts';
import type { Context, Router } from '../router.ts';
import type { Store } from '../store.ts';
import { registerAccounts } from './accounts.ts';
import { registerEngagements } from './engagements.ts';
import { Checks, unflatten } from './input.ts';
import { templateSummary } from './shape.ts';

function structure(s: Structure, mode: string | undefined, panelType?: string) {
  const m = mode ?? 'flat';
  if (m !== 'flat' && m !== 'nested')
    throw new ApiError(422, 'The selected mode is invalid; use flat or nested.', {
      mode: ['The selected mode is invalid.'],
    });
  const panels = panelType
    ? s.panels.filter((p) => p.type.toLowerCase() === panelType.toLowerCase())
    : s.panels;
  const ids = new Set(panels.map((p) => p.id));
  const groups = s.groups.filter((g) => ids.has(g.panel_id));
  const gids = new Set(groups.map((g) => g.id));
  const elements = s.elements.filter((e) => gids.has(e.group_id));
  if (m === 'flat') return { panels, groups, elements };
  return {
    panels: panels.map((p) => ({
      ...p,
      groups: groups
        .filter((g) => g.panel_id === p.id)
        .map((g) => ({ ...g, elements: elements.filter((e) => e.group_id === g.id) })),
    })),
  };
}

function dataset(ctx: Context) {
  const type = ctx.params.type;
  if (type !== undefined && !['individual', 'account'].includes(type.toLowerCase())) {
    throw new ApiError(422, 'The selected type is invalid; use individual or account.', {
      type: ['The selected type is invalid.'],
    });
  }
  return structure(ctx.store.state.dataset, ctx.params.mode, type);
}

function template(ctx: Context) {
  const t = ctx.store.templatesOf(ctx.user).find((x) => x.id === ctx.params.template);
  if (!t) throw notFound('Template');
  return structure(t.structure, ctx.params.mode);
}

export function userV2(store: Store, u: UserRecord, base: { v0: string }) {
  const team = store.state.teams.find((t) => t.id === u.currentTeamId);
  const photo = store.file(u.photo);
  return {
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    phone: { ...u.phone },
    photo: photo ? `${base.v0}/files/${photo.id}/${encodeURIComponent(photo.name)}` : null,
    timezone: u.timezone,
    currency: u.currency,
    team: team ? { id: team.id, name: team.name } : null,
    teams: store.state.teams.filter((t) => u.teamIds.includes(t.id)).map((t) => ({ id: t.id, name: t.name })),
    permissions: { ...u.permissions },
    templates: store.templatesOf(u).map((t) => templateSummary(t, u)),
    pipelines: store.state.pipelines.map((p) => ({
      id: p.id,
      type: p.type,
      title: p.title,
      description: p.description,
      icon: p.icon,
    })),
  };
}

export function registerV2(r: Router): void {
  registerAccounts(r);
  r.get('/config/icons', () => [...ICONS]);
  r.get('/config/activities', () => ACCOUNT_ACTIVITIES);
  r.get('/config/dataset', dataset);
  r.get('/config/dataset/:mode', dataset);
  r.get('/config/dataset/:mode/:type', dataset);
  r.get('/config/template/:template', template);
  r.get('/config/template/:template/:mode', template);
  registerEngagements(r);
  r.get('/user', (ctx) => userV2(ctx.store, ctx.user, ctx.base));
  r.post('/user/switch', (ctx) => {
    const body = unflatten(ctx.body);
    const checks = new Checks();
    checks.required(body, 'id');
    const id = checks.integer(body, 'id');
    if (id !== undefined && !ctx.user.teamIds.includes(id))
      checks.fail('id', 'The selected id is invalid; choose one of the user’s teams.');
    checks.throwIfAny();
    ctx.user.currentTeamId = id as number;
    return userV2(ctx.store, ctx.user, ctx.base);
  });
  r.get('/user/templates', (ctx) => ctx.store.templatesOf(ctx.user).map((t) => templateSummary(t, ctx.user)));
}
