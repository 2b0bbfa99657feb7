// The outputs of a version 2 engagement: its data (once completed), documents, signatures and
// earlier versions (history), each a list below `/engagements/{id}/`.

import { z } from 'zod';
import { soft, wireObject } from '../parse.ts';
import { integerId, maybeText, text, textId, texts, timestamp } from '../values.ts';
import { PROFILE_VALUE_SHAPE } from './profile.ts';

/** A profile value with where it sits in the template; not every element is in the dataset. */
export const EngagementDataItem = wireObject('EngagementDataItem', {
  ...PROFILE_VALUE_SHAPE,
  dataset_id: maybeText,
  title: text,
  description: maybeText,
  /** Panel title, group title, element title. */
  path: texts,
});
export type EngagementDataItem = z.infer<typeof EngagementDataItem>;

export const EngagementFile = wireObject('EngagementFile', { name: text, url: text });

export const EngagementDocument = wireObject('EngagementDocument', {
  id: textId,
  field_id: text,
  title: text,
  files: soft(z.array(EngagementFile), () => []),
  updated_at: timestamp,
});
export type EngagementDocument = z.infer<typeof EngagementDocument>;

export const EngagementSignature = wireObject('EngagementSignature', {
  id: integerId,
  field_id: text,
  title: text,
  name: text,
  email: text,
  ip: text,
  signed_at: timestamp,
  /** Address of the signature file. */
  file: text,
});
export type EngagementSignature = z.infer<typeof EngagementSignature>;

export const EngagementHistoryItem = wireObject('EngagementHistoryItem', {
  id: textId,
  /** Preview address of that version. */
  url: text,
  author: text,
  created_at: timestamp,
  completed_at: timestamp,
});
export type EngagementHistoryItem = z.infer<typeof EngagementHistoryItem>;

/** The four outputs, by the endpoint each is read from. */
export const ENGAGEMENT_PARTS = {
  data: EngagementDataItem,
  documents: EngagementDocument,
  signatures: EngagementSignature,
  history: EngagementHistoryItem,
} as const;
