// How a section form's choices combine the platform's definition with the built-in table: the
// platform's values win, in its order; one the app does not know is offered under its raw value;
// a stored value in neither list is offered too, never dropped. Expected values are the
// document's (0.0.1, "Data sections": Plan types, Asset types) and what an advisor would read.

import { describe, expect, it } from 'vitest';
import {
  allowedValuesOf,
  definedFields,
  definedOptions,
  entitiesWithChoices,
  withStoredValue,
} from '@shared/allowed-values.ts';
import { SECTION_FORMS, sectionForm } from '@shared/section-forms/build.ts';
import type { FormField } from '@shared/section-forms/form.ts';
import { FREQUENCY_OPTIONS } from '@shared/section-forms/labels.ts';
import { COLLECTION_CASES } from '../../contract/v0-helpers.ts';

const plans = sectionForm('plans')!;
const planType = plans.fields.find((f) => f.name === 'type') as FormField;
const property = (values: string | null, required = false) => ({
  type: 'string',
  read: true,
  write: true,
  required,
  values,
});

describe('the allowed values of a definition', () => {
  it('reads each enumerated property, trimmed, a composite one’s parts by their dotted path, and leaves free fields out', () => {
    // The document: composite properties "hold a nested map of the same kind per sub-field (for
    // example value with frequency)".
    const answer = {
      id: property(null),
      name: property(null, true),
      type: property('401k, roth401k,,hsa,401k,other', true),
      current_value: {
        value: { ...property(null), type: 'float' },
        frequency: property('one-time,monthly,yearly'),
      },
      drivers_license: { jurisdiction: { state: property(null), country: property('US,CA') } },
    };
    expect(allowedValuesOf(answer)).toEqual({
      type: ['401k', 'roth401k', 'hsa', 'other'],
      'current_value.frequency': ['one-time', 'monthly', 'yearly'],
      'drivers_license.jurisdiction.country': ['US', 'CA'],
    });
  });

  it('is null for an answer that is not a definition map', () => {
    expect(allowedValuesOf(['401k'])).toBeNull();
    expect(allowedValuesOf('401k,ira')).toBeNull();
  });
});

describe('a field’s options', () => {
  it('are the built-in table’s (the document’s) while no definition is held', () => {
    const documented = COLLECTION_CASES.find((c) => c.entity === 'Plan')!.enums.type;
    expect(definedOptions(planType, undefined).map((o) => o.value)).toEqual(documented);
    expect(definedOptions(planType, [])).toBe(planType.options);
  });

  it('are the platform’s values in its order, known ones with the app’s label, new ones raw', () => {
    const options = definedOptions(planType, ['ira', '401k', 'hsa', 'other']);
    expect(options).toEqual([
      { value: 'ira', label: 'IRA' },
      { value: '401k', label: '401(k)' },
      { value: 'hsa', label: 'hsa' },
      { value: 'other', label: 'Other' },
    ]);
  });

  it('keep a stored value that neither list has, under its raw value, at the end', () => {
    const options = definedOptions(planType, ['ira', 'hsa']);
    expect(withStoredValue(options, 'pension-plan').map((o) => [o.value, o.label])).toEqual([
      ['ira', 'IRA'],
      ['hsa', 'hsa'],
      ['pension-plan', 'pension-plan'],
    ]);
    // A value already offered, or none at all, adds nothing.
    expect(withStoredValue(options, 'hsa')).toBe(options);
    expect(withStoredValue(options, null)).toBe(options);
    expect(withStoredValue(options, '')).toBe(options);
  });
});

describe('a form’s fields', () => {
  it('take the definition’s values for their selects only; the rest are untouched', () => {
    const fields = definedFields(plans, { type: ['401k', 'hsa'], name: ['ignored'] });
    expect(fields.find((f) => f.name === 'type')?.options?.map((o) => o.value)).toEqual(['401k', 'hsa']);
    expect(fields.find((f) => f.name === 'name')?.options).toBeUndefined();
    expect(definedFields(plans, undefined)).toBe(plans.fields);
  });

  it('give an amount the frequencies its definition lists, known ones in words, a new one raw', () => {
    const income = sectionForm('income')!;
    const fields = definedFields(income, { 'social_security.frequency': ['monthly', 'quarterly', 'yearly'] });
    expect(fields.find((f) => f.name === 'social_security')?.frequencies).toEqual([
      { value: 'monthly', label: 'Monthly' },
      { value: 'quarterly', label: 'quarterly' },
      { value: 'yearly', label: 'Yearly' },
    ]);
    // An amount the definition says nothing of keeps the document's three (no list of its own).
    expect(fields.find((f) => f.name === 'dividends')?.frequencies).toBeUndefined();
    expect(FREQUENCY_OPTIONS.map((o) => [o.value, o.label])).toEqual([
      ['one-time', 'One time'],
      ['monthly', 'Monthly'],
      ['yearly', 'Yearly'],
    ]);
  });

  it('ask `/define` only of the entities whose forms offer a choice from a list or an amount', () => {
    // Per the document: Annuity, Asset, Cash, Contact, Variable expense, Family member, Goal,
    // Insurance, Liability and Plan have enumerated fields; Employment (salary), Taxable and the
    // fixed expenses, taxes and income have Currency fields, whose frequency is a list; only
    // Document has neither.
    expect(entitiesWithChoices(SECTION_FORMS).sort()).toEqual(
      [
        'Annuity',
        'Asset',
        'Cash',
        'Contact',
        'Employment',
        'ExpenseFixed',
        'ExpenseTax',
        'ExpenseVariable',
        'FamilyMember',
        'Goal',
        'Income',
        'Insurance',
        'Liability',
        'Plan',
        'Taxable',
      ].sort(),
    );
  });
});
