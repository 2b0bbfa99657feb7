// @vitest-environment happy-dom
// Counts and yes/no fields as an advisor reads them: "3 policies" and "No family members", never
// "3 insurance" or "0 family"; a Dependent checkbox named "Dependent", never reading "No" beside it.

import { mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { SECTION_FORMS, sectionForm } from '@shared/section-forms/build.ts';
import { itemCount } from '../../../renderer/src/workspace/counts.ts';
import FieldInput from '../../../renderer/src/workspace/inputs/FieldInput.vue';

unmountAfterEach();

describe('how many items a section holds', () => {
  // Written from what the sections hold, not from the code: one item, several, none.
  const EXPECTED: Record<string, [one: string, three: string, none: string]> = {
    annuities: ['1 annuity', '3 annuities', 'No annuities'],
    assets: ['1 asset', '3 assets', 'No assets'],
    cash: ['1 cash account', '3 cash accounts', 'No cash accounts'],
    contacts: ['1 contact', '3 contacts', 'No contacts'],
    documents: ['1 document', '3 documents', 'No documents'],
    employment: ['1 job', '3 jobs', 'No jobs'],
    'expenses-variable': ['1 variable expense', '3 variable expenses', 'No variable expenses'],
    family: ['1 family member', '3 family members', 'No family members'],
    goals: ['1 goal', '3 goals', 'No goals'],
    insurance: ['1 policy', '3 policies', 'No policies'],
    liabilities: ['1 liability', '3 liabilities', 'No liabilities'],
    plans: ['1 plan', '3 plans', 'No plans'],
    taxable: ['1 taxable account', '3 taxable accounts', 'No taxable accounts'],
  };

  it('counts every section of items in its own noun', () => {
    const collections = SECTION_FORMS.filter((f) => !f.single);
    expect(collections.map((f) => f.path).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const form of collections) {
      const [one, three, none] = EXPECTED[form.path]!;
      expect([itemCount(1, form), itemCount(3, form), itemCount(0, form)], form.path).toEqual([
        one,
        three,
        none,
      ]);
    }
  });

  it('writes large counts with a thousands separator', () => {
    expect(itemCount(1200, sectionForm('assets')!)).toBe('1,200 assets');
  });
});

describe('a yes/no field', () => {
  it('is a checkbox named by its label, with no "Yes" or "No" beside it', () => {
    const dependent = sectionForm('family')!.fields.find((f) => f.name === 'dependent')!;
    expect(dependent.input).toBe('boolean');
    for (const value of [false, true]) {
      const wrapper = mount(FieldInput, {
        attachTo: document.body,
        props: { field: dependent, modelValue: value, idPrefix: 'family-item' },
        global: { plugins: [[PrimeVue, { theme: 'none' }]] },
      });
      const box = wrapper.get<HTMLInputElement>('input[type="checkbox"]');
      const label = document.querySelector(`label[for="${box.attributes('id')}"]`);
      expect(label?.textContent?.trim()).toBe('Dependent');
      expect(box.element.checked).toBe(value);
      // The field reads its label and nothing else: no answer in words that could pass for one.
      expect(wrapper.text().trim()).toBe('Dependent');
      wrapper.unmount();
    }
  });
});
