// The input of each kind of field (shared/section-forms/form.ts `InputKind`), in one table: the
// component, its settings for that kind, and how the field's label names it. FieldInput.vue draws
// the field around whichever input the table gives.

import type { Component } from 'vue';
import type { FormField, InputKind } from '@shared/section-forms/form.ts';
import { US_STATE_OPTIONS, countryOptions, isUs } from '../../household/values.ts';
import AddressInput from './AddressInput.vue';
import BooleanInput from './BooleanInput.vue';
import ChoiceInput from './ChoiceInput.vue';
import CurrencyInput from './CurrencyInput.vue';
import DateInput from './DateInput.vue';
import FileInput from './FileInput.vue';
import MoneyInput from './MoneyInput.vue';
import NumberInput from './NumberInput.vue';
import RelationInput from './RelationInput.vue';
import TargetInput from './TargetInput.vue';
import TextareaInput from './TextareaInput.vue';
import TextInput from './TextInput.vue';

export interface InputOfKind {
  component: Component;
  /** The component's settings for this kind. */
  props?: Readonly<Record<string, unknown>>;
  /**
   * `self`: the field's label is not tied to the input with `for`, as the input labels itself
   * (a select, by `aria-labelledby`) or its parts carry labels of their own.
   */
  label?: 'for' | 'self';
  /** The field's label is read out for the group, not shown: its parts show theirs. */
  labelHidden?: boolean;
}

export const INPUTS: Readonly<Record<InputKind, InputOfKind>> = {
  text: { component: TextInput },
  email: { component: TextInput, props: { type: 'email' } },
  phone: { component: TextInput, props: { type: 'tel' } },
  textarea: { component: TextareaInput },
  integer: { component: NumberInput, props: { kind: 'integer' } },
  year: { component: NumberInput, props: { kind: 'year' } },
  number: { component: NumberInput, props: { kind: 'number' } },
  percent: { component: NumberInput, props: { kind: 'percent', suffix: ' %' } },
  date: { component: DateInput },
  boolean: { component: BooleanInput },
  select: { component: ChoiceInput, label: 'self' },
  country: {
    component: ChoiceInput,
    // Read when drawn: the names are in the user's language, which the list learns on first use.
    props: {
      get options() {
        return countryOptions();
      },
      placeholder: 'Choose a country…',
      filter: true,
    },
    label: 'self',
  },
  'us-state': {
    component: ChoiceInput,
    props: { options: US_STATE_OPTIONS, placeholder: 'Choose a state…', filter: true },
    label: 'self',
  },
  currency: { component: CurrencyInput },
  money: { component: MoneyInput },
  relation: { component: RelationInput, label: 'self' },
  address: { component: AddressInput },
  target: { component: TargetInput, label: 'self', labelHidden: true },
  file: { component: FileInput },
};

/**
 * The input of a field. A US state is chosen from the list only where the country beside it (in
 * `siblings`, the other values of the form) is the US; elsewhere it is typed.
 */
export function inputOf(field: FormField, siblings: Readonly<Record<string, unknown>>): InputOfKind {
  if (field.input === 'us-state' && !isUs(field.countryField ? siblings[field.countryField] : ''))
    return INPUTS.text;
  return INPUTS[field.input];
}
