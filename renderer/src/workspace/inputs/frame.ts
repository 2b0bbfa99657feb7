// What a field's frame (FieldInput.vue) hands the input of its kind: the ids that tie the input to
// its label, hint and messages, and the form's context. Every input takes it as its `frame` prop
// and emits `update:modelValue` and `touch` (left the field).

import type { FormField } from '@shared/section-forms/form.ts';
import type { RelationOption } from '../../household/workspace.ts';

export interface InputFrame {
  field: FormField;
  /** The id of the input the field's label names (a group's first part). */
  id: string;
  /** The id of the field's label, for inputs that label themselves by reference (selects). */
  labelId: string;
  /** The ids of the hint and the messages, when shown. */
  describedBy: string | undefined;
  invalid: boolean;
  disabled: boolean;
  /** The account's currency (ISO 4217), for amounts. */
  currency: string;
  /** Relation pickers: the choices the form offers. */
  relations: readonly RelationOption[];
}

export interface InputEmits {
  'update:modelValue': [value: unknown];
  touch: [];
}

/**
 * What an input binds from its frame (`v-bind`): marked invalid and disabled with its field,
 * described by the field's hint and messages, as wide as the field, small like every form input.
 */
export function frameBindings(frame: InputFrame) {
  return {
    invalid: frame.invalid,
    disabled: frame.disabled,
    'aria-describedby': frame.describedBy,
    fluid: true,
    size: 'small' as const,
  };
}

/** The same for a select, which labels itself by reference and focuses an element of the frame's id. */
export function selectFrameBindings(frame: InputFrame) {
  return { ...frameBindings(frame), labelId: frame.id, 'aria-labelledby': frame.labelId };
}
