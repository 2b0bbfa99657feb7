// @vitest-environment happy-dom
// What a form's inputs take from their field's frame, mounted for real: a text input and the two
// selects (a field's options, a relation) are tied to the field's label and described by its hint
// and messages, say when the value is invalid, and are disabled with the field.

import { mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import type { FormField } from '@shared/section-forms/form.ts';
import ChoiceInput from '../../../renderer/src/workspace/inputs/ChoiceInput.vue';
import type { InputFrame } from '../../../renderer/src/workspace/inputs/frame.ts';
import RelationInput from '../../../renderer/src/workspace/inputs/RelationInput.vue';
import TextInput from '../../../renderer/src/workspace/inputs/TextInput.vue';

const field = (input: FormField['input'], extra: Partial<FormField> = {}): FormField =>
  ({ name: 'f', label: 'Field', input, required: false, ...extra }) as FormField;

function frame(f: FormField, state: { invalid?: boolean; disabled?: boolean } = {}): InputFrame {
  return {
    field: f,
    id: 'in-f',
    labelId: 'label-f',
    describedBy: 'hint-f messages-f',
    invalid: state.invalid ?? false,
    disabled: state.disabled ?? false,
    currency: 'USD',
    relations: [
      {
        key: 'client',
        label: 'Ann Tester',
        group: 'Members',
        value: { type: 'client', id: null },
      },
    ],
  };
}

unmountAfterEach();
function mountInput(component: object, props: Record<string, unknown>) {
  const wrapper = mount(component, {
    props,
    attachTo: document.body,
    global: { plugins: [[PrimeVue, { theme: 'none' }]] },
  });
  return wrapper;
}

/** A text input is disabled; a select's focusable label says so. */
const disabled = (input: HTMLElement) =>
  input.hasAttribute('disabled') || input.getAttribute('aria-disabled') === 'true';

const kinds = [
  ['a text input', TextInput, field('text')],
  [
    'a select of the field’s options',
    ChoiceInput,
    field('select', {
      options: [
        { value: 'a', label: 'A' },
        { value: 'b', label: 'B' },
      ],
    }),
  ],
  ['a relation select', RelationInput, field('relation')],
] as const;

describe.each(kinds)('%s', (_name, component, f) => {
  it('is described by the field’s hint and messages, and the field’s label names it', () => {
    mountInput(component, { frame: frame(f), modelValue: null });
    const input = document.getElementById('in-f')!;
    expect(input).not.toBeNull();
    // A select carries it on its box around the focusable label (PrimeVue's Select).
    expect(input.closest('[aria-describedby]')?.getAttribute('aria-describedby')).toBe('hint-f messages-f');
    // A select labels itself by the label's id; a text input is named by the label's `for`.
    if (component !== TextInput) expect(input.getAttribute('aria-labelledby')).toBe('label-f');
    expect(input.getAttribute('aria-invalid')).not.toBe('true');
    expect(disabled(input)).toBe(false);
  });

  it('says when the value is invalid, and is disabled with the field', () => {
    const wrapper = mountInput(component, {
      frame: frame(f, { invalid: true, disabled: true }),
      modelValue: null,
    });
    const input = document.getElementById('in-f')!;
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(wrapper.html()).toMatch(/p-invalid/);
    expect(disabled(input)).toBe(true);
  });
});
