// @vitest-environment happy-dom
// The descriptor audit: every field of every section form and of the member forms, as the app
// describes it (shared/sections.ts, shared/section-forms/, the inputs of renderer/src/workspace/inputs/
// kinds.ts, the drafts of values.ts), against the list written by hand from the two documents
// (field-audit.documents.ts): the same fields, and for each its type, label, unit and frequency.

import { describe, expect, it } from 'vitest';
import { MEMBER_FIELDS as ACCOUNT_MEMBER_FIELDS } from '@shared/account-rules.ts';
import { cashFlow } from '@shared/finance.ts';
import { SECTION_FORMS, sectionForm } from '@shared/section-forms/build.ts';
import type { FormField } from '@shared/section-forms/form.ts';
import { MEMBER_FIELDS } from '@shared/section-forms/member-form.ts';
import { SECTIONS } from '@shared/sections.ts';
import { INPUTS } from '../../../renderer/src/workspace/inputs/kinds.ts';
import { displayValue, toDraft, type CurrencyDraft } from '../../../renderer/src/household/values.ts';
import {
  DOCUMENTED_ACCOUNT_MEMBER,
  DOCUMENTED_MEMBER,
  DOCUMENTED_SECTIONS,
  type Documented,
  type Entry,
} from './field-audit.documents.ts';

/** The app's description of a field, in the words of the documented list. */
function described(field: FormField): Documented & { label: string } {
  const label = field.label;
  switch (field.input) {
    case 'text':
      return { label, type: 'text' };
    case 'textarea':
      return { label, type: 'long-text' };
    case 'email':
    case 'phone':
    case 'date':
    case 'boolean':
    case 'relation':
    case 'address':
    case 'target':
    case 'file':
    case 'country':
    case 'us-state':
    case 'year':
    case 'number':
      return { label, type: field.input };
    case 'select':
      return { label, type: 'choice', values: (field.options ?? []).map((o) => o.value) };
    case 'currency':
      return {
        label,
        type: 'amount',
        documented: field.frequency ?? ('none' as never),
        usual: field.usualFrequency ?? ('none' as never),
        cashFlow: field.cashFlow === true,
      };
    case 'money':
      return { label, type: 'money', unit: field.unit as 'per year' };
    case 'percent':
      return { label, type: 'rate', unit: field.unit as '%' };
    case 'integer':
      return { label, type: 'whole-number', unit: field.unit as 'years' };
  }
}

const byName = <T extends { field: string }>(list: readonly T[]) =>
  Object.fromEntries(list.map((e) => [e.field, e]));

describe('every section form against the 0.0.1 document', () => {
  it('has a documented list for each section and a form for each documented section', () => {
    expect(SECTION_FORMS.map((f) => f.path).sort()).toEqual(Object.keys(DOCUMENTED_SECTIONS).sort());
    expect(SECTIONS.map((s) => s.path).sort()).toEqual(Object.keys(DOCUMENTED_SECTIONS).sort());
  });

  describe.each(Object.entries(DOCUMENTED_SECTIONS))('%s', (path, documented) => {
    const form = sectionForm(path)!;
    const section = SECTIONS.find((s) => s.path === path)!;

    it('has exactly the documented fields', () => {
      expect(form.fields.map((f) => f.name).sort(), documented.source).toEqual(
        documented.fields.map((f) => f.field).sort(),
      );
      expect(Object.keys(section.fields).sort(), documented.source).toEqual(
        documented.fields.map((f) => f.field).sort(),
      );
    });

    it('describes each field with its documented type, label, unit and frequency', () => {
      const expected = byName(documented.fields);
      for (const field of form.fields) {
        const { field: _name, ...want } = expected[field.name] as Entry;
        expect(described(field), `${path}.${field.name} (${documented.source})`).toEqual(want);
      }
    });

    it('reads an amount without a frequency at the document’s default, and starts a new one at the usual one', () => {
      for (const entry of documented.fields) {
        if (entry.type !== 'amount') continue;
        const field = form.fields.find((f) => f.name === entry.field)!;
        const spec = section.fields[entry.field];
        expect(spec, entry.field).toEqual({ kind: 'currency', frequency: entry.documented });
        // A plain number (the documents' examples) is the value at the document's frequency.
        expect((toDraft(field, 250) as CurrencyDraft).frequency, entry.field).toBe(entry.documented);
        // A new form, and an amount the platform answers unset (0, one-time), start at the usual one.
        expect((toDraft(field, undefined) as CurrencyDraft).frequency, entry.field).toBe(entry.usual);
        expect((toDraft(field, { value: 0, frequency: 'one-time' }) as CurrencyDraft).frequency).toBe(
          entry.usual,
        );
        // What is stored with a frequency keeps it.
        expect(toDraft(field, { value: 30, frequency: 'one-time' })).toEqual({
          value: 30,
          frequency: 'one-time',
        });
      }
    });

    it('counts in the monthly cash flow exactly the amounts it says are counted', () => {
      for (const entry of documented.fields) {
        if (entry.type !== 'amount') continue;
        const monthly = { value: 120, frequency: 'monthly' };
        const once = { value: 500, frequency: 'one-time' };
        const flow = (v: unknown) =>
          section.single
            ? cashFlow({ [section.perMember ? `${path}:client` : path]: { [entry.field]: v } }, [])
            : cashFlow({}, [{ section: path, fields: { type: 'other', [entry.field]: v } }]);
        const counted = flow(monthly);
        const total = counted.income + counted.fixed + counted.tax + counted.variable;
        expect(total, `${path}.${entry.field} monthly`).toBe(entry.cashFlow ? 12_000 : 0);
        expect(flow(once).oneTime.length, `${path}.${entry.field} one-time`).toBe(entry.cashFlow ? 1 : 0);
      }
    });
  });
});

describe('the member forms against the documents', () => {
  it('the member details: every field of the Account Full Member, typed and labelled as documented', () => {
    expect(MEMBER_FIELDS.map((f) => f.name).sort(), DOCUMENTED_MEMBER.source).toEqual(
      DOCUMENTED_MEMBER.fields.map((f) => f.field).sort(),
    );
    const expected = byName(DOCUMENTED_MEMBER.fields);
    for (const field of MEMBER_FIELDS) {
      const { field: _name, ...want } = expected[field.name] as Entry;
      expect(described(field), field.name).toEqual(want);
    }
  });

  it('the account dialog: the members of a version 2 account', () => {
    expect([...ACCOUNT_MEMBER_FIELDS].sort()).toEqual([...DOCUMENTED_ACCOUNT_MEMBER].sort());
  });
});

describe('the inputs and the tables', () => {
  const every = [...SECTION_FORMS.flatMap((f) => f.fields), ...MEMBER_FIELDS];

  it('draws every field with an input of its kind, a rate with its % sign', () => {
    for (const field of every) expect(INPUTS[field.input], `${field.name}: ${field.input}`).toBeDefined();
    expect(INPUTS.percent.props).toMatchObject({ suffix: ' %' });
  });

  it('shows each amount with how often it comes, and plain numbers with their unit', () => {
    const show = (path: string, name: string, value: unknown) =>
      displayValue(
        sectionForm(path)!.fields.find((f) => f.name === name)!,
        value,
        () => '',
      );
    expect(show('liabilities', 'cost_value', { value: 1_450, frequency: 'monthly' })).toBe('$1,450 /mo');
    expect(show('employment', 'salary', { value: 96_000, frequency: 'yearly' })).toBe('$96,000 /yr');
    // A recurring kind of amount typed as one time says so; a balance is a balance.
    expect(show('expenses-variable', 'value', { value: 300, frequency: 'one-time' })).toBe('$300 one-time');
    expect(show('assets', 'current_value', { value: 450_000, frequency: 'one-time' })).toBe('$450,000');
    expect(show('cash', 'interest', 4.5)).toBe('4.5%');
    expect(show('employment', 'duration', 12)).toBe('12 years');
    expect(show('employment', 'comissions', 15_000)).toBe('$15,000 /yr');
  });

  it('the liabilities table shows the payment, and every amount column its frequency', () => {
    expect(sectionForm('liabilities')!.columns).toContain('cost_value');
  });
});
