// Report metadata of the 0.0.1 interface (`/user/reports`); the reports themselves are files.

import type { z } from 'zod';
import { soft, wireObject } from '../parse.ts';
import { anyId, text, textId, texts, timestamp } from '../values.ts';

export const REPORT_TYPES = ['FORMDEFINITION', 'DATADEFINITION'] as const;
export const REPORT_SOURCES = ['ALL', 'CLIENT', 'PROSPECT'] as const;
export const REPORT_FORMATS = ['PDF', 'XLS', 'CSV'] as const;

export const Report = wireObject('Report', {
  id: textId,
  /** Declared integer in the paths; text in the resource. Null when missing. */
  key: soft(anyId.nullable(), null),
  /** Open (`REPORT_TYPES`). */
  type: text,
  /** The identifier of the source form. */
  source: text,
  title: text,
  description: text,
  created_at: timestamp,
  updated_at: timestamp,
  tags: texts,
});
export type Report = z.infer<typeof Report>;
