// Contract tests of the version 2 configuration endpoints (icons, activities, dataset, template)
// and the user endpoints (user, switch team, templates).

import { beforeAll, describe, expect, it } from 'vitest';
import { ActivityTypes } from '@shared/wire/v2/activity.ts';
import {
  FlatStructure as FlatStructureSchema,
  IconNames,
  NestedStructure as NestedStructureSchema,
} from '@shared/wire/v2/config.ts';
import { TemplateSummaries, User as UserSchema } from '@shared/wire/v2/user.ts';
import {
  ASSISTANT,
  UUID,
  expectJsonError,
  expectKeys,
  expectWire,
  expectValidation,
  v2Client,
  type Account,
  type Api,
  type Engagement,
  type FlatStructure,
  type List,
  type NestedStructure,
  type TemplateSummary,
  type User,
  contractSandbox,
} from './helpers.ts';

/** The complete icon list of the version 2 document, in its order. */
const DOCUMENT_ICONS =
  `i_archive, i_award, i_badge, i_building, i_bullseye, i_child, i_coins, i_comments, i_crown, i_diamond, i_dollar,
i_download, i_engagement_check, i_engagement_minus, i_engagement_plus, i_engagement_shield, i_engagement_tag, i_envelope, i_female,
i_globe, i_heart, i_lightbulb, i_male, i_medal, i_money, i_pen, i_search, i_spade, i_star, i_umbrella, i_upload, i_user, i_user_check,
i_user_clock, i_user_cog, i_user_friends, i_user_graduate, i_user_lock, i_user_minus, i_user_plus, i_user_shield, i_user_slash,
i_user_tag, i_user_tie, i_user_times, i_users, i_users_cog`
    .split(',')
    .map((s) => s.trim());

const PERMISSIONS = [
  'accounts.prospects',
  'accounts.prospects.create',
  'accounts.prospects.update',
  'accounts.prospects.delete',
  'accounts.clients',
  'accounts.clients.create',
  'accounts.clients.update',
  'accounts.clients.delete',
  'accounts.favorite',
  'accounts.archive',
  'accounts.convert',
  'engagements.in-progress',
  'engagements.completed',
  'engagements.create',
  'engagements.close',
  'engagements.delete',
];
const ASSISTANT_LACKS = [
  'accounts.prospects.delete',
  'accounts.clients.delete',
  'accounts.convert',
  'engagements.close',
  'engagements.delete',
];

const platform = contractSandbox();
let api: Api;
let assistant: Api;
let icons: string[];

beforeAll(async () => {
  api = await v2Client(platform);
  assistant = await v2Client(platform, ASSISTANT);
  icons = (await api.get<string[]>('/config/icons')).body;
});

/** Checks the three flat collections and how they refer to each other. */
function expectFlat(s: FlatStructure, label: string): void {
  expectKeys(s, ['panels', 'groups', 'elements'], label);
  expectWire(FlatStructureSchema, s, label);
  expect(s.panels.length).toBeGreaterThan(0);
  expect(s.groups.length).toBeGreaterThan(0);
  expect(s.elements.length).toBeGreaterThan(0);
  const panelIds = new Set(s.panels.map((p) => p.id));
  const groupIds = new Set(s.groups.map((g) => g.id));
  for (const p of s.panels) {
    expectKeys(p, ['id', 'type', 'title', 'description', 'position'], `${label} panel`);
    expect(p.id).toMatch(UUID);
    expect(typeof p.type).toBe('string');
    expect(typeof p.title).toBe('string');
    expect(p.description === null || typeof p.description === 'string').toBe(true);
    expect(Number.isInteger(p.position)).toBe(true);
  }
  for (const g of s.groups) {
    expectKeys(g, ['id', 'panel_id', 'type', 'title', 'description', 'position'], `${label} group`);
    expect(g.id).toMatch(UUID);
    expect(panelIds.has(g.panel_id), 'group.panel_id names a panel').toBe(true);
    expect(typeof g.type).toBe('string');
    expect(g.description === null || typeof g.description === 'string').toBe(true);
    expect(Number.isInteger(g.position)).toBe(true);
  }
  for (const e of s.elements) {
    expectKeys(e, ['id', 'group_id', 'type', 'title', 'description', 'size', 'position'], `${label} element`);
    expect(e.id).toMatch(UUID);
    expect(groupIds.has(e.group_id), 'element.group_id names a group').toBe(true);
    expect(typeof e.type).toBe('string');
    expect(typeof e.title).toBe('string');
    expect(e.description === null || typeof e.description === 'string').toBe(true);
    expect(Number.isInteger(e.size)).toBe(true);
    expect(e.position, 'two comma-separated integers').toMatch(/^\d+,\d+$/);
  }
}

/** Nested mode holds exactly the flat collections, each child under its parent. */
function expectNestedMatches(nested: NestedStructure, flat: FlatStructure): void {
  expectKeys(nested, ['panels'], 'nested');
  expectWire(NestedStructureSchema, nested, 'nested');
  const panels = nested.panels.map(({ groups: _g, ...p }) => p);
  const groups = nested.panels.flatMap((p) => p.groups.map(({ elements: _e, ...g }) => g));
  const elements = nested.panels.flatMap((p) => p.groups.flatMap((g) => g.elements));
  expect(panels).toEqual(flat.panels);
  expect(groups.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
    [...flat.groups].sort((a, b) => a.id.localeCompare(b.id)),
  );
  expect(elements.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
    [...flat.elements].sort((a, b) => a.id.localeCompare(b.id)),
  );
  for (const p of nested.panels) {
    for (const g of p.groups) {
      expect(g.panel_id).toBe(p.id);
      for (const e of g.elements) expect(e.group_id).toBe(g.id);
    }
  }
}

describe('GET /config/icons', () => {
  it('answers exactly the 47 icon names of the document, in its order', async () => {
    const r = await api.get<string[]>('/config/icons');
    expect(r.status).toBe(200);
    expect(DOCUMENT_ICONS).toHaveLength(47);
    expect(r.body).toEqual(DOCUMENT_ICONS);
    expectWire(IconNames, r.body, 'icons');
  });
});

describe('GET /config/activities', () => {
  it('maps each activity type to its icon and option names, including the documented ones', async () => {
    const r = await api.get<Record<string, { icon: string; options: string[] }>>('/config/activities');
    expect(r.status).toBe(200);
    expect(Object.keys(expectWire(ActivityTypes, r.body, 'activity types'))).toEqual(Object.keys(r.body));
    for (const [type, entry] of Object.entries(r.body)) {
      expect(type).toMatch(/^[a-z]+\.[a-z_.]+$/);
      expectKeys(entry, ['icon', 'options'], type);
      expect(icons, `${type} icon is an icon name`).toContain(entry.icon);
      expect(Array.isArray(entry.options)).toBe(true);
      for (const o of entry.options) expect(typeof o).toBe('string');
    }
    expect(r.body['account.created']?.options).toEqual(['author', 'type', 'name']);
    expect(r.body['account.updated']?.options).toEqual(['author', 'name']);
    expect([...(r.body['engagement.created']?.options ?? [])].sort()).toEqual(['author', 'name', 'template']);
  });
});

describe('GET /config/dataset/{mode?}/{type?}', () => {
  it('answers the flat collections by default and for mode flat', async () => {
    const r = await api.get<FlatStructure>('/config/dataset');
    expect(r.status).toBe(200);
    expectFlat(r.body, 'dataset');
    const types = new Set(r.body.panels.map((p) => p.type));
    expect(types.has('INDIVIDUAL')).toBe(true);
    expect(types.has('ACCOUNT')).toBe(true);
    expect((await api.get('/config/dataset/flat')).body).toEqual(r.body);
  });

  it('nests groups in panels and elements in groups for mode nested', async () => {
    const flat = (await api.get<FlatStructure>('/config/dataset')).body;
    const r = await api.get<NestedStructure>('/config/dataset/nested');
    expect(r.status).toBe(200);
    expectNestedMatches(r.body, flat);
  });

  it('takes a type segment after the mode and refuses an unknown mode with 422', async () => {
    const flat = (await api.get<FlatStructure>('/config/dataset')).body;
    const individual = await api.get<FlatStructure>('/config/dataset/flat/individual');
    expect(individual.status).toBe(200);
    expect(individual.body.panels.length).toBeGreaterThan(0);
    expect(individual.body.panels.every((p) => p.type === 'INDIVIDUAL')).toBe(true);
    const ids = new Set(flat.elements.map((e) => e.id));
    expect(individual.body.elements.every((e) => ids.has(e.id))).toBe(true);
    expect(individual.body.elements.length).toBeLessThan(flat.elements.length);
    const nested = await api.get<NestedStructure>('/config/dataset/nested/account');
    expect(nested.status).toBe(200);
    expect(nested.body.panels.every((p) => p.type === 'ACCOUNT')).toBe(true);
    expectValidation(await api.get('/config/dataset/tree'), ['mode']);
  });
});

describe('GET /config/template/{template}/{mode?}', () => {
  it('answers the structure of each template, flat by default and nested on request', async () => {
    const templates = (await api.get<TemplateSummary[]>('/user/templates')).body;
    expect(templates.length).toBeGreaterThan(0);
    for (const t of templates) {
      const flat = await api.get<FlatStructure>(`/config/template/${t.id}`);
      expect(flat.status).toBe(200);
      expectFlat(flat.body, t.title);
      expect((await api.get(`/config/template/${t.id}/flat`)).body).toEqual(flat.body);
      const nested = await api.get<NestedStructure>(`/config/template/${t.id}/nested`);
      expect(nested.status).toBe(200);
      expectNestedMatches(nested.body, flat.body);
    }
  });

  it('answers 404 for an unknown template and 422 for an unknown mode', async () => {
    const t = (await api.get<TemplateSummary[]>('/user/templates')).body[0] as TemplateSummary;
    expectJsonError(await api.get('/config/template/00000000-0000-4000-8000-000000000000'), 404);
    expectValidation(await api.get(`/config/template/${t.id}/deep`), ['mode']);
    const other = platform.control.store().state.templates.find((x) => x.teamId !== 1);
    expectJsonError(await api.get(`/config/template/${other?.id}`), 404);
  });
});

describe('GET /user', () => {
  it('answers the user with settings, team, teams, permissions, templates and pipelines', async () => {
    const r = await api.get<User>('/user');
    expect(r.status).toBe(200);
    const u = r.body;
    expectWire(UserSchema, u, 'user');
    expectKeys(
      u,
      [
        'first_name',
        'last_name',
        'email',
        'phone',
        'photo',
        'timezone',
        'currency',
        'team',
        'teams',
        'permissions',
        'templates',
        'pipelines',
      ],
      'user',
    );
    expect(u.email).toBe('advisor@sandbox.test');
    expect(typeof u.first_name).toBe('string');
    expect(typeof u.last_name).toBe('string');
    expectKeys(u.phone, ['code', 'number', 'country'], 'user phone');
    expect(u.phone.country).toMatch(/^[A-Z]{2}$/);
    expect(u.photo).toMatch(/^https?:\/\//);
    const photo = await api.bytes(u.photo);
    expect(photo.status, 'the photo address serves the picture').toBe(200);
    expect(photo.bytes.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
    expect(() => new Intl.DateTimeFormat('en', { timeZone: u.timezone }), 'an IANA time zone').not.toThrow();
    expect(u.timezone).toContain('/');
    expect(u.currency).toMatch(/^[A-Z]{3}$/);
    expectKeys(u.team, ['id', 'name'], 'team');
    expect(Number.isInteger(u.team.id)).toBe(true);
    expect(u.teams.length).toBeGreaterThan(1);
    for (const t of u.teams) {
      expectKeys(t, ['id', 'name'], 'teams[]');
      expect(Number.isInteger(t.id)).toBe(true);
    }
    expect(u.teams).toContainEqual(u.team);
    expectKeys(u.permissions, PERMISSIONS, 'permissions');
    expect(
      Object.values(u.permissions).every((v) => v === true),
      'the advisor may do everything',
    ).toBe(true);
    for (const t of u.templates) {
      expectKeys(t, ['id', 'title', 'description', 'type', 'security', 'owned'], 'template summary');
      expect(t.id).toMatch(UUID);
      expect(typeof t.owned).toBe('boolean');
      expect(typeof t.type).toBe('string');
      expect(typeof t.security).toBe('string');
    }
    expect(new Set(u.templates.map((t) => t.type))).toEqual(new Set(['LEADGEN', 'OTHER']));
    expect(new Set(u.templates.map((t) => t.security))).toEqual(new Set(['LOW', 'HIGH']));
    expect(u.pipelines.length).toBeGreaterThan(0);
    for (const p of u.pipelines) {
      expectKeys(p, ['id', 'type', 'title', 'description', 'icon'], 'pipeline');
      expect(p.id).toMatch(UUID);
      expect(icons).toContain(p.icon);
    }
    expect(u.pipelines.some((p) => p.type === 'CLIENT')).toBe(true);
    expect(u.pipelines.some((p) => p.type === 'PROSPECT')).toBe(true);
  });

  it('the assistant lacks the delete, convert and close permissions', async () => {
    const u = (await assistant.get<User>('/user')).body;
    expect(u.email).toBe(ASSISTANT);
    expectKeys(u.permissions, PERMISSIONS, 'permissions');
    for (const p of PERMISSIONS) expect(u.permissions[p], p).toBe(!ASSISTANT_LACKS.includes(p));
  });
});

describe('GET /user/templates', () => {
  it('answers the template summaries of the user resource', async () => {
    const r = await api.get<TemplateSummary[]>('/user/templates');
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
    expect(expectWire(TemplateSummaries, r.body, 'templates')).toHaveLength(r.body.length);
    expect(r.body).toEqual((await api.get<User>('/user')).body.templates);
    const owned = r.body.filter((t) => t.owned);
    expect(owned.length).toBeGreaterThan(0);
    expect(owned.length).toBeLessThan(r.body.length);
    const forAssistant = (await assistant.get<TemplateSummary[]>('/user/templates')).body;
    expect(forAssistant.map((t) => t.id)).toEqual(r.body.map((t) => t.id));
    for (const t of forAssistant)
      expect(t.owned, 'owned is relative to the user').toBe(!r.body.find((x) => x.id === t.id)?.owned);
  });
});

describe('POST /user/switch', () => {
  it('switches the current team, which changes the accounts, engagements and templates seen', async () => {
    const before = (await api.get<User>('/user')).body;
    const other = before.teams.find((t) => t.id !== before.team.id) as User['team'];
    const accountsBefore = (await api.get<List<Account>>('/accounts', { type: 'all', limit: 500 })).body
      .items;
    const engagementsBefore = (await api.get<List<Engagement>>('/engagements', { limit: 500 })).body.items;

    const r = await api.post<User>('/user/switch', { id: other.id });
    expect(r.status, r.text).toBe(200);
    expect(r.body.team).toEqual(other);
    expect(r.body.teams).toEqual(before.teams);
    expect((await api.get<User>('/user')).body.team).toEqual(other);

    const accountsAfter = (await api.get<List<Account>>('/accounts', { type: 'all', limit: 500 })).body.items;
    expect(accountsAfter.length).toBeGreaterThan(0);
    const beforeIds = new Set(accountsBefore.map((a) => a.id));
    expect(
      accountsAfter.some((a) => beforeIds.has(a.id)),
      'no account of the first team is seen',
    ).toBe(false);
    expectJsonError(await api.get(`/accounts/${accountsBefore[0]?.id}`), 404);
    expect((await api.get(`/accounts/${accountsAfter[0]?.id}`)).status).toBe(200);
    const engagementsAfter = (await api.get<List<Engagement>>('/engagements', { limit: 500 })).body.items;
    expect(engagementsAfter.some((e) => engagementsBefore.some((x) => x.id === e.id))).toBe(false);
    expect(engagementsAfter.every((e) => accountsAfter.some((a) => a.id === e.account_id))).toBe(true);
    const templatesAfter = (await api.get<TemplateSummary[]>('/user/templates')).body;
    expect(
      templatesAfter.some((t) => before.templates.some((x) => x.id === t.id)),
      'templates belong to a team',
    ).toBe(false);
    expect(r.body.templates).toEqual(templatesAfter);

    // Back again, with a form-encoded body.
    const back = await api.postForm<User>('/user/switch', { id: String(before.team.id) });
    expect(back.status, back.text).toBe(200);
    expect(back.body.team).toEqual(before.team);
    expect(
      (await api.get<List<Account>>('/accounts', { type: 'all', limit: 500 })).body.items.map((a) => a.id),
    ).toEqual(accountsBefore.map((a) => a.id));
  });

  it('refuses a team the user does not belong to, a missing id and a non-integer id with 422', async () => {
    expectValidation(await api.post('/user/switch', { id: 99 }), ['id']);
    expectValidation(await api.post('/user/switch', {}), ['id']);
    expectValidation(await api.post('/user/switch', { id: 'team' }), ['id']);
    const me = (await assistant.get<User>('/user')).body;
    expect(me.teams.map((t) => t.id)).toEqual([1]);
    expectValidation(await assistant.post('/user/switch', { id: 2 }), ['id']);
    expect((await assistant.get<User>('/user')).body.team.id).toBe(1);
    expect((await api.get<User>('/user')).body.team.id).toBe(1);
  });
});
