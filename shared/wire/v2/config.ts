// Version 2 configuration: icon names (`/config/icons`) and the structure of the dataset and of a
// template (`/config/dataset/{mode?}`, `/config/template/{id}/{mode?}`), flat or nested.

import { z } from 'zod';
import { listOf, soft, wireObject } from '../parse.ts';
import { count, maybeText, text } from '../values.ts';

/** The complete list the document gives of `/config/icons`. */
export const ICON_NAMES = [
  'i_archive',
  'i_award',
  'i_badge',
  'i_building',
  'i_bullseye',
  'i_child',
  'i_coins',
  'i_comments',
  'i_crown',
  'i_diamond',
  'i_dollar',
  'i_download',
  'i_engagement_check',
  'i_engagement_minus',
  'i_engagement_plus',
  'i_engagement_shield',
  'i_engagement_tag',
  'i_envelope',
  'i_female',
  'i_globe',
  'i_heart',
  'i_lightbulb',
  'i_male',
  'i_medal',
  'i_money',
  'i_pen',
  'i_search',
  'i_spade',
  'i_star',
  'i_umbrella',
  'i_upload',
  'i_user',
  'i_user_check',
  'i_user_clock',
  'i_user_cog',
  'i_user_friends',
  'i_user_graduate',
  'i_user_lock',
  'i_user_minus',
  'i_user_plus',
  'i_user_shield',
  'i_user_slash',
  'i_user_tag',
  'i_user_tie',
  'i_user_times',
  'i_users',
  'i_users_cog',
] as const;

/** `/config/icons`: icon names; anything else in the list is left out. */
export const IconNames = listOf(z.string(), 'icons');

/** Type values seen: panels INDIVIDUAL, ACCOUNT; groups SINGLE; elements STRING. The full sets are not shown. */
export const PANEL_TYPES = ['INDIVIDUAL', 'ACCOUNT'] as const;

export const Panel = wireObject('Panel', {
  id: text,
  type: text,
  title: text,
  description: maybeText,
  position: count,
});
export type Panel = z.infer<typeof Panel>;

export const Group = wireObject('Group', {
  id: text,
  panel_id: text,
  type: text,
  title: text,
  description: maybeText,
  position: count,
});
export type Group = z.infer<typeof Group>;

export const Element = wireObject('Element', {
  id: text,
  group_id: text,
  type: text,
  title: text,
  description: maybeText,
  size: count,
  /** Two comma-separated integers (`"0,1"`). */
  position: text,
});
export type Element = z.infer<typeof Element>;

/** The flat mode (the default): three lists. */
export const FlatStructure = wireObject('Structure', {
  panels: soft(listOf(Panel, 'panels'), () => []),
  groups: soft(listOf(Group, 'groups'), () => []),
  elements: soft(listOf(Element, 'elements'), () => []),
});
export type FlatStructure = z.infer<typeof FlatStructure>;

export const NestedGroup = wireObject('NestedGroup', {
  ...Group.shape,
  elements: soft(listOf(Element, 'elements'), () => []),
});
export const NestedPanel = wireObject('NestedPanel', {
  ...Panel.shape,
  groups: soft(listOf(NestedGroup, 'groups'), () => []),
});
/** The nested mode: panels with their groups, groups with their elements. */
export const NestedStructure = wireObject('NestedStructure', {
  panels: soft(listOf(NestedPanel, 'panels'), () => []),
});
export type NestedStructure = z.infer<typeof NestedStructure>;
