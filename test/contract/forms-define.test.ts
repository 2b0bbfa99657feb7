// The app's form schemas (shared/section-forms/) against `/define` of the sandbox platform: every field
// the interface defines is on the form and nothing else, enum choices are the allowed values in
// their order, required markers are the required flags, and a required field's validation message
// names it as the server does.

import { beforeAll, describe, expect, it } from 'vitest';
import { allowedValuesOf } from '@shared/allowed-values.ts';
import { SECTION_FORMS } from '@shared/section-forms/build.ts';
import type { SectionForm } from '@shared/section-forms/form.ts';
import { MEMBER_FIELDS, validateMember } from '@shared/section-forms/member-form.ts';
import { messagesByField, validateSection } from '@shared/section-forms/validation.ts';
import {
  BEYOND_THE_DOCUMENT,
  CURRENCY_FREQUENCIES,
  definedCases,
  createAccount,
  definesRequired,
  isProperty,
  v0Sandbox,
  type Definition,
} from './v0-helpers.ts';
import { FULL_MEMBER_ENUMS } from '../support/documented-enums.ts';

const s = v0Sandbox();
let accountId: number;

beforeAll(async () => {
  accountId = (await createAccount(s.advisor, 'clients', true)).id;
});

async function define(entity: string): Promise<Record<string, Definition>> {
  const r = await s.advisor.get<Record<string, Definition>>(`/define/${entity}/${accountId}`);
  expect(r.status, r.text).toBe(200);
  return r.body;
}

describe.each(SECTION_FORMS.map((f) => [f.entity, f] as const))('%s form', (_entity, form: SectionForm) => {
  it('has one input per defined field, the allowed values in order, and the required markers', async () => {
    const def = await define(form.entity);
    const defined = Object.keys(def).filter((k) => k !== 'id');
    expect(form.fields.map((f) => f.name).sort()).toEqual(defined.sort());
    for (const field of form.fields) {
      const d = def[field.name] as Definition;
      expect(field.required, `${field.name} required`).toBe(definesRequired(d));
      if (field.options) {
        expect(isProperty(d), `${field.name} is a plain property`).toBe(true);
        // The built-in table is the document's: the platform's values less those it added since.
        const beyond = BEYOND_THE_DOCUMENT[form.entity]?.[field.name] ?? [];
        const values = isProperty(d) ? (d.values ?? '').split(',').filter((v) => !beyond.includes(v)) : [];
        expect(
          field.options.map((o) => o.value),
          `${field.name} values`,
        ).toEqual(values);
        for (const o of field.options) expect(o.label.trim(), `${field.name}=${o.value} label`).not.toBe('');
      }
      if (field.input === 'currency') expect(Object.keys(d).sort()).toEqual(['frequency', 'value']);
      if (field.input === 'relation') expect(Object.keys(d)).toContain('type');
    }
  });
});

// Single-record sections (fixed expenses, taxes, income) are written with PUT and have no create.
describe.each(SECTION_FORMS.filter((f) => !f.single).map((f) => [f.entity, f] as const))(
  '%s form, created empty',
  (_entity, form: SectionForm) => {
    it('words a missing required field as the server does', async () => {
      const local = validateSection(form, {});
      const path = form.perMember
        ? `/accounts/${accountId}/client/${form.path}`
        : `/accounts/${accountId}/${form.path}`;
      // Documents take a multipart body; an empty JSON body is refused for the missing file all the same.
      const r = await s.advisor.post<{ messages: string[] }>(path, {});
      expect(r.status, r.text).toBe(422);
      const server = [...r.body.messages].sort();
      expect(Object.values(local).flat().sort()).toEqual(server);
      // …and the server's messages land on the form's own field names.
      const byName: Record<string, string[]> = {};
      for (const m of server) (byName[m.split(' ')[0] as string] ??= []).push(m);
      expect(Object.keys(messagesByField(form, byName)).sort()).toEqual(Object.keys(local).sort());
    });
  },
);

// The app reads `/define` (shared/allowed-values.ts) for its lists: what it reads of each entity
// is the document's enumerated fields with the document's values and the sandbox's additions, and
// each Currency's frequency (a nested list) with the document's three.
const READ_CASES = definedCases();

describe.each(READ_CASES.map((c) => [c.entity, c] as const))(
  '%s: the allowed values the app reads from /define',
  (_entity, c) => {
    it("are the document's, field by field, with what the platform allows beyond it", async () => {
      const expected = Object.fromEntries(
        Object.entries(c.enums).map(([field, values]) => [
          field,
          [...values, ...(BEYOND_THE_DOCUMENT[c.entity]?.[field] ?? [])].sort(),
        ]),
      );
      const read = allowedValuesOf(await define(c.entity));
      expect(read).not.toBeNull();
      const topLevel = Object.entries(read ?? {}).filter(([f]) => !f.includes('.'));
      expect(Object.fromEntries(topLevel.map(([f, v]) => [f, [...v].sort()]))).toEqual(expected);
    });
  },
);

describe.each(READ_CASES.filter((c) => c.currencies.length).map((c) => [c.entity, c] as const))(
  '%s: the frequencies the app reads from /define',
  (_entity, c) => {
    it('are a Currency’s, in order, for each amount', async () => {
      const read = allowedValuesOf(await define(c.entity)) ?? {};
      for (const field of c.currencies)
        expect(read[`${field}.frequency`], `${field}.frequency`).toEqual(CURRENCY_FREQUENCIES);
    });
  },
);

/** Flat paths of a definition (`address.city`); File objects and the member's photo stay whole. */
function flatPaths(def: Record<string, Definition>, prefix = ''): string[] {
  return Object.entries(def).flatMap(([k, d]) => {
    const path = `${prefix}${k}`;
    const isFile = !isProperty(d) && 'filename' in d;
    return isProperty(d) || isFile ? [path] : flatPaths(d, `${path}.`);
  });
}

describe('member details form', () => {
  it('has one input per defined field of the full member, with the required markers and values', async () => {
    const def = await define('FullMember');
    expect(MEMBER_FIELDS.map((f) => f.name).sort()).toEqual(flatPaths(def).sort());
    const at = (path: string) =>
      path.split('.').reduce<Definition>((d, k) => (d as Record<string, Definition>)[k] as Definition, def);
    for (const field of MEMBER_FIELDS) {
      const d = at(field.name);
      expect(field.required, field.name).toBe(definesRequired(d));
      // The built-in table is the document's: the platform's values less those it added since.
      const beyond = BEYOND_THE_DOCUMENT.FullMember?.[field.name] ?? [];
      if (field.options && isProperty(d))
        expect(field.options.map((o) => o.value)).toEqual(
          (d.values ?? '').split(',').filter((v) => !beyond.includes(v)),
        );
    }
  });

  it('accepts every gender and marital status /define allows, the platform’s own too, and reads each back', async () => {
    const read = allowedValuesOf(await define('FullMember')) ?? {};
    for (const [field, documented] of Object.entries(FULL_MEMBER_ENUMS)) {
      const allowed = [...documented, ...(BEYOND_THE_DOCUMENT.FullMember?.[field] ?? [])];
      expect([...(read[field] ?? [])].sort(), field).toEqual([...allowed].sort());
      for (const value of allowed) {
        const put = await s.advisor.put(`/accounts/${accountId}/coclient/details`, { [field]: value });
        expect(put.status, `${field}=${value}: ${put.text}`).toBe(200);
        const got = await s.advisor.get<Record<string, unknown>>(`/accounts/${accountId}/coclient/details`);
        expect(got.body[field], `${field}=${value}`).toBe(value);
      }
    }
    const refused = await s.advisor.put<{ messages: string[] }>(`/accounts/${accountId}/coclient/details`, {
      marital_status: 'engaged',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.messages).toEqual(['marital_status is invalid.']);
  });

  it('words a missing first name and e-mail as the server does', async () => {
    const r = await s.advisor.put<{ messages: string[] }>(`/accounts/${accountId}/client/details`, {
      first_name: '',
      email: '',
    });
    expect(r.status, r.text).toBe(422);
    expect(
      Object.values(validateMember({ first_name: '', email: ' ' }))
        .flat()
        .sort(),
    ).toEqual([...r.body.messages].sort());
  });
});
