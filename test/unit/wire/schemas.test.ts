// The schemas of the platform's shapes (shared/wire/): lenient where the documents are vague (an
// unknown enum value is kept, a missing field defaulted, a mistyped one repaired and reported),
// strict where they are clear (the ids a record is stored by). Expected values from the documents
// (seeds/000 version 2, seeds/001 version 0.0.1).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SECTIONS } from '@shared/sections.ts';
import { parseListEnvelope, parseListPage } from '@shared/wire/lists.ts';
import { parseWire } from '@shared/wire/parse.ts';
import { Account } from '@shared/wire/v2/account.ts';
import { ICON_NAMES } from '@shared/wire/v2/config.ts';
import { ENGAGEMENT_STATUSES, Engagement } from '@shared/wire/v2/engagement.ts';
import { FormTemplate } from '@shared/wire/v0/forms.ts';
import { parseSectionList } from '@shared/wire/v0/sections.ts';
import { USER_ACTIVITY_TYPES, UserActivity } from '@shared/wire/v0/user.ts';
import { parseAccountSnapshot } from '../../../renderer/src/data/mappers.ts';

/** An engagement as the version 2 document lists its fields (section 2, Engagement). */
const ENGAGEMENT = {
  id: '7f0c7c53-0f7e-4c43-9d6b-3f2f1b0a6c11',
  account_id: 12,
  member_id: 34,
  template_id: '0b8a3f5e-2d7c-4a9e-8f61-5c4d3b2a1908',
  title: 'Onboarding questionnaire',
  description: 'Tell us about your household',
  security: 'HIGH',
  name: 'Ada Lind',
  email: 'ada@example.org',
  url: 'https://platform.example/api/v2/engagements/7f0c7c53-0f7e-4c43-9d6b-3f2f1b0a6c11/preview',
  status: 'NEW',
  filled: 0,
  time: 0,
  created_at: '2025-03-01 09:30:00',
  opened_at: null,
  email_reminders: true,
  reminded_at: null,
  email_completed: false,
  completed_at: null,
};

const assets = SECTIONS.find((s) => s.path === 'assets')!;

describe('lenient where the documents are vague', () => {
  it('keeps an engagement status the document does not show (it shows NEW and COMPLETED only)', () => {
    expect(ENGAGEMENT_STATUSES).toEqual(['NEW', 'COMPLETED']);
    const read = parseWire(Engagement, { ...ENGAGEMENT, status: 'IN_PROGRESS' });
    expect(read.ok && read.value.status).toBe('IN_PROGRESS');
    expect(read.ok && read.repairs).toEqual([]);
  });

  it('keeps an activity type beyond the 20 the 0.0.1 document lists', () => {
    expect(USER_ACTIVITY_TYPES).toHaveLength(20);
    const read = parseWire(UserActivity, {
      id: 9,
      type: 'form.archived',
      icon: 'mdi-archive',
      icon_color: 'secondary',
      title: 'Form archived',
      description: '',
      created_at: '2025-03-01 09:30:00',
    });
    expect(read.ok && read.value.type).toBe('form.archived');
  });

  it('defaults missing fields: timestamps not happened yet are null, flags false, counts 0', () => {
    const { opened_at: _o, email_reminders: _r, filled: _f, ...rest } = ENGAGEMENT;
    const read = parseWire(Engagement, rest);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value).toMatchObject({ opened_at: null, email_reminders: false, filled: 0 });
    expect(read.repairs.map((r) => r.field).sort()).toEqual([
      'Engagement.email_reminders',
      'Engagement.filled',
      'Engagement.opened_at',
    ]);
  });

  it('repairs a mistyped field, reports it by name, and keeps the record', () => {
    const read = parseWire(Engagement, { ...ENGAGEMENT, filled: 'many' });
    expect(read.ok && read.value.filled).toBe(0);
    expect(read.ok && read.repairs).toEqual([
      { field: 'Engagement.filled', message: 'Invalid input: expected number, received string' },
    ]);
  });

  it('an optional field the document marks so stays absent without a repair (templates: id only from /user/templates)', () => {
    const template = {
      key: 'onboarding',
      type: 'passwordless',
      title: 'Onboarding',
      description: '',
      status: 'published',
      modified: false,
      default: true,
      tags: ['new'],
    };
    const read = parseWire(FormTemplate, template);
    expect(read).toEqual({ ok: true, value: template, repairs: [] });
  });

  it('keeps unknown keys a newer platform may add', () => {
    const read = parseWire(Engagement, { ...ENGAGEMENT, language: 'fr' });
    expect(read.ok && read.value.language).toBe('fr');
  });

  it('a synced section item keeps a mistyped value as received (the push sends it back), reported', () => {
    const item = { id: 'a|b', name: 'Car', type: 'boat', owner: 'client', current_value: 'much' };
    const read = parseSectionList(assets, [item]);
    expect(read.ok && read.value).toEqual([item]);
    // An enum value the document does not list is no repair; a value of the wrong type is.
    expect(read.ok && read.repairs.map((r) => r.field)).toEqual(['Asset.current_value']);
  });

  it('accepts both currency forms the 0.0.1 document shows: the Currency object and a plain number', () => {
    const read = parseSectionList(assets, [
      { id: 'a|b', current_value: { value: 12000, frequency: 'one-time' }, original_value: 9000 },
      { id: 'c|d', current_value: { value: 5 } },
    ]);
    expect(read.ok && read.repairs).toEqual([]);
  });

  it('a version 2 co-client of nulls is no member', () => {
    const member = { id: 3, first_name: 'Ada', last_name: 'Lind', email: 'ada@example.org' };
    const nobody = { id: null, first_name: null, last_name: null, email: null, status: null, pin: null };
    const read = parseAccountSnapshot({
      id: 12,
      type: 'PROSPECT',
      client: {
        ...member,
        phone: { code: '+1', number: '3213211212', country: 'US' },
        status: 'NEW',
        pin: '1234',
      },
      coclient: { ...nobody, phone: { code: null, number: null, country: null } },
      quality: { score: 40, rules: [{ message: 'Birth date', valid: false }] },
      pipeline: { id: 'c9d3', icon: 'i_star', title: 'Onboard', description: '' },
      favorited: false,
      archived: false,
      created_at: '2025-03-01 09:30:00',
      updated_at: '2025-03-02 10:00:00',
    });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.repairs).toEqual([]);
    expect(read.value.meta).toMatchObject({ clientId: 3, coclientId: null, coclientStatus: null });
    expect(read.value.fields).toMatchObject({
      'client.phone.number': '3213211212',
      'coclient.first_name': null,
      'pipeline.id': 'c9d3',
    });
  });
});

describe('strict where the documents are clear', () => {
  it('refuses an account whose id is not an integer, naming the field', () => {
    const read = parseWire(Account, { id: '12', type: 'CLIENT' }, 'account');
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.path).toBe('id');
    expect(read.message).toBe(
      'The account is not as documented: id: Invalid input: expected number, received string',
    );
  });

  it("refuses an engagement without its account's id", () => {
    const { account_id: _a, ...rest } = ENGAGEMENT;
    const read = parseWire(Engagement, rest, 'engagement');
    expect(read.ok || read.path).toBe('account_id');
  });

  it('leaves out a list item without a valid id, names it, and keeps the others', () => {
    const read = parseListPage(
      {
        items: [ENGAGEMENT, { ...ENGAGEMENT, id: 42 }],
        params: { limit: 50, offset: 0, sort: '-created_at', total: 2 },
      },
      Engagement,
      'Engagement',
    );
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value.items.map((e) => e.id)).toEqual([ENGAGEMENT.id]);
    expect(read.value.total).toBe(2);
    expect(read.repairs).toEqual([
      { field: 'Engagement.1', message: 'id: Invalid input: expected string, received number' },
    ]);
  });

  it('reads the total where each interface gives it: version 2 in params, 0.0.1 beside the items', () => {
    const v2 = parseListEnvelope(
      { items: [1], params: { limit: 50, offset: 0, sort: '-created_at', total: 7 } },
      'x',
    );
    const v0 = parseListEnvelope({ items: [1], limit: 100, offset: 0, total: 9 }, 'x');
    expect(v2.ok && v2.value).toEqual({ items: [1], total: 7 });
    expect(v0.ok && v0.value).toEqual({ items: [1], total: 9 });
  });

  it('a list answer without items is no list; the account activity list has items only (no total)', () => {
    expect(parseListPage({ data: [] }, Engagement, 'Engagement')).toMatchObject({ ok: false, path: 'items' });
    const activity = parseListPage({ items: [] }, UserActivity, 'UserActivity');
    expect(activity.ok && activity.value.total).toBeNull();
  });

  it('a section item needs its text id (two uuids joined by a bar)', () => {
    const read = parseSectionList(assets, [{ id: 7, name: 'Car' }]);
    expect(read.ok && read.value).toEqual([]);
    expect(read.ok && read.repairs[0]?.field).toBe('Asset.0');
  });

  it('lists the 47 icon names of the version 2 document', () => {
    expect(ICON_NAMES).toHaveLength(47);
    expect(new Set(ICON_NAMES).size).toBe(47);
  });
});

describe('properties', () => {
  const json = fc.jsonValue();

  it('an engagement with valid ids is always read, whatever its other fields hold; never throws', () => {
    const keys = Object.keys(ENGAGEMENT).filter((k) => k !== 'id' && k !== 'account_id');
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...keys), json), (others) => {
        const read = parseWire(Engagement, { ...others, id: ENGAGEMENT.id, account_id: 12 });
        expect(read.ok).toBe(true);
        if (read.ok) expect(read.value.id).toBe(ENGAGEMENT.id);
      }),
    );
  });

  it('an engagement of the documented types reads back unchanged, with no repair', () => {
    const timestamp = fc.constantFrom('2025-03-01 09:30:00', '2024-12-31 23:59:59');
    const engagement = fc.record({
      id: fc.uuid(),
      account_id: fc.integer({ min: 1 }),
      member_id: fc.integer({ min: 1 }),
      template_id: fc.uuid(),
      title: fc.string(),
      description: fc.string(),
      security: fc.constantFrom('LOW', 'HIGH'),
      name: fc.string(),
      email: fc.string(),
      url: fc.webUrl(),
      status: fc.string(),
      filled: fc.integer({ min: 0 }),
      time: fc.integer({ min: 0 }),
      created_at: timestamp,
      opened_at: fc.option(timestamp),
      email_reminders: fc.boolean(),
      reminded_at: fc.option(timestamp),
      email_completed: fc.boolean(),
      completed_at: fc.option(timestamp),
    });
    fc.assert(
      fc.property(engagement, (e) => {
        expect(parseWire(Engagement, e)).toEqual({ ok: true, value: e, repairs: [] });
      }),
    );
  });

  it('a page of anything never throws; each item read has a valid id', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(json, fc.record({ id: json, account_id: json }))), (items) => {
        const read = parseListPage({ items }, Engagement, 'Engagement');
        expect(read.ok).toBe(true);
        if (!read.ok) return;
        for (const e of read.value.items) {
          expect(typeof e.id === 'string' && e.id !== '').toBe(true);
          expect(Number.isInteger(e.account_id)).toBe(true);
        }
        expect(
          read.value.items.length + read.repairs.filter((r) => /^Engagement\.\d+$/.test(r.field)).length,
        ).toBe(items.length);
      }),
    );
  });
});
