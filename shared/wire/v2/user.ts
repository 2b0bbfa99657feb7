// The version 2 user (`/user`, `/user/switch`): settings, permissions, teams, template summaries
// (also `/user/templates`) and the pipeline stages.

import { z } from 'zod';
import { listOf, soft, wireObject } from '../parse.ts';
import { integerId, text, textId } from '../values.ts';
import { Phone } from './account.ts';

/** The permission keys the document lists. */
export const PERMISSION_KEYS = [
  'accounts.prospects',
  'accounts.prospects.create',
  'accounts.prospects.update',
  'accounts.prospects.delete',
  'accounts.clients',
  'accounts.clients.create',
  'accounts.clients.update',
  'accounts.clients.delete',
  'accounts.favorite',
  'accounts.archive',
  'accounts.convert',
  'engagements.in-progress',
  'engagements.completed',
  'engagements.create',
  'engagements.close',
  'engagements.delete',
] as const;

/** Template types seen (LEADGEN, OTHER); security LOW, HIGH. The full sets are not shown. */
export const TEMPLATE_TYPES = ['LEADGEN', 'OTHER'] as const;

export const Team = wireObject('Team', { id: integerId, name: text });
export type Team = z.infer<typeof Team>;

export const TemplateSummary = wireObject('TemplateSummary', {
  id: textId,
  title: text,
  description: text,
  /** Open (`TEMPLATE_TYPES`). */
  type: text,
  /** Open (`SECURITY_LEVELS`). */
  security: text,
  owned: soft(z.boolean(), false),
});
export type TemplateSummary = z.infer<typeof TemplateSummary>;

/** A pipeline stage. `type`: CLIENT seen, PROSPECT by the product; '' when missing. */
export const PipelineStage = wireObject('PipelineStage', {
  id: textId,
  type: text,
  title: text,
  description: text,
  /** An icon name (`ICON_NAMES`). */
  icon: text,
});
export type PipelineStage = z.infer<typeof PipelineStage>;

export const User = wireObject('User', {
  first_name: text,
  last_name: text,
  email: text,
  phone: soft(Phone.nullable(), null),
  /** Address of the photo. */
  photo: text,
  /** IANA name. */
  timezone: text,
  /** ISO 4217 code. */
  currency: text,
  /** The current team. */
  team: soft(Team.nullable(), null),
  teams: soft(listOf(Team, 'User.teams'), () => []),
  /** `PERMISSION_KEYS` → granted; null when the user resource gave none. */
  permissions: soft(z.record(z.string(), soft(z.boolean(), false)).nullable(), null),
  templates: soft(listOf(TemplateSummary, 'User.templates'), () => []),
  pipelines: soft(listOf(PipelineStage, 'User.pipelines'), () => []),
});
export type User = z.infer<typeof User>;

/** `/user/templates`. */
export const TemplateSummaries = listOf(TemplateSummary, 'templates');
