// Templates and forms of the 0.0.1 interface (`/user/templates`, `/user/forms`,
// `/accounts/{id}/forms` and the form actions).

import { z } from 'zod';
import { listOf, soft, wireObject } from '../parse.ts';
import { anyId, flag, maybeInteger, maybeTimestamp, text, texts, timestamp } from '../values.ts';

/** Template `type` (how a contact authenticates): passwordless seen; the product names these. */
export const TEMPLATE_AUTH_TYPES = ['passwordless', 'password', 'email-pin', 'sms-pin'] as const;
/** Form statuses the document lists. */
export const FORM_STATUSES = ['CLOSED', 'IN_PROGRESS', 'NEW'] as const;

/** A template as this interface gives it; `/user/templates` adds `id`. */
export const FormTemplate = wireObject('FormTemplate', {
  id: soft(z.string().optional(), undefined),
  key: text,
  /** Open (`TEMPLATE_AUTH_TYPES`). */
  type: text,
  title: text,
  description: text,
  /** Open: published seen. */
  status: text,
  modified: flag,
  default: flag,
  tags: texts,
});
export type FormTemplate = z.infer<typeof FormTemplate>;

/** `/user/templates`. */
export const FormTemplates = listOf(FormTemplate, 'templates');

export const Recipient = wireObject('Recipient', { role: text, name: text });

export const Form = wireObject('Form', {
  /** Forms listed below an account may leave it out: the account is known from the path. */
  account_id: maybeInteger,
  /** Text or integer in the document's examples. */
  key: anyId,
  /** A uuid. */
  definition_key: text,
  /** Open (`FORM_STATUSES`). */
  status: text,
  template: soft(FormTemplate.nullable(), null),
  recipients: soft(listOf(Recipient, 'Form.recipients'), () => []),
  created_at: timestamp,
  updated_at: timestamp,
  opened_at: maybeTimestamp,
  reminded_at: maybeTimestamp,
  closed_at: maybeTimestamp,
  /** Address of the form preview. */
  urls: text,
});
export type Form = z.infer<typeof Form>;

/** `/accounts/{id}/forms/{key}/preview`. */
export const FormPreview = wireObject('FormPreview', { url: z.string() });
