// What every part of the summary reads: the household's data with the date it is written at, and
// the app's own ways of showing values (household/values.ts: currency, dates, a field's value in
// a table), so that the paper says what the screen says.

import { sectionForm } from '@shared/section-forms/build.ts';
import type { SectionItemRow } from '../../data/model.ts';
import { displayValue, isoToDate, money, relationOf } from '../../household/values.ts';
import { memberLabel, relationLabel } from '../../household/workspace.ts';
import type { HouseholdData } from './household-data.ts';

export interface SummaryContext extends HouseholdData {
  now: Date;
}

/** Whole cents as the app shows an amount (`$12,500`). */
export const amount = (ctx: SummaryContext, cents: number): string => money(cents / 100, ctx.currency);

/** An amount that subtracts, with a true minus sign; nothing owed is `$0`, not `-$0`. */
export const signedAmount = (ctx: SummaryContext, cents: number): string =>
  cents < 0 ? `−${amount(ctx, -cents)}` : amount(ctx, Math.abs(cents));

export const itemsOf = (ctx: SummaryContext, section: string): SectionItemRow[] =>
  ctx.items.filter((i) => i.section === section);

export const isMissing = (ctx: SummaryContext, key: string): boolean => ctx.missing.includes(key);

/** A field of an item as the workspace's tables show it (`$1,200 /mo`, `Mar 14, 1980`, `Ann Tester`). */
export function shown(ctx: SummaryContext, path: string, name: string, stored: unknown): string {
  const field = sectionForm(path)?.fields.find((f) => f.name === name);
  if (!field) return typeof stored === 'string' ? stored : '';
  return displayValue(field, stored, (r) => relationLabel(r, ctx.account, ctx.items), ctx.currency);
}

/** Who owns an item: a member by name, Joint, or the relation in words. */
export function ownerOf(ctx: SummaryContext, stored: unknown): string {
  const r = relationOf(stored);
  return r ? relationLabel(r, ctx.account, ctx.items) : '';
}

export const memberNameOf = (ctx: SummaryContext, member: 'client' | 'coclient'): string =>
  memberLabel(ctx.account, member);

/** Whole years lived at `now`, or null without a birth date. */
export function ageAt(birth: unknown, now: Date): number | null {
  const d = isoToDate(birth);
  if (!d) return null;
  let age = now.getFullYear() - d.getFullYear();
  if (now.getMonth() < d.getMonth() || (now.getMonth() === d.getMonth() && now.getDate() < d.getDate()))
    age -= 1;
  return age >= 0 ? age : null;
}
