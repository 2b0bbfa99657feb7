// A form's field as the columns and typed cells of an export: an amount as a currency number
// (with a "how often" column where the amount may recur), a rate as a percent, a date as a date, a
// goal's target as its amount and its date, a relation as the name it points to, everything else
// as the text the workspace shows for it (displayValue), so that a sheet reads like the screen.

import type { FormField } from '@shared/section-forms/form.ts';
import { valueLabel } from '@shared/section-forms/labels.ts';
import type { Fields } from '../data/model.ts';
import {
  displayValue,
  toDraft,
  type CurrencyDraft,
  type RelationValue,
  type TargetDraft,
} from '../household/values.ts';
import { text, type Cell } from './table.ts';

export interface Column {
  label: string;
  cell: (fields: Readonly<Fields>) => Cell;
}

/** How the export names what a relation points to (a member's or an item's name). */
export type RelationNamer = (relation: RelationValue) => string;

const orEmpty = (s: string): Cell => (s === '' ? null : text(s));
const num = (kind: 'number' | 'year' | 'currency' | 'percent', v: unknown): Cell =>
  typeof v === 'number' && Number.isFinite(v) ? { kind, value: v } : null;

function currencyOf(field: FormField, stored: unknown): CurrencyDraft {
  return toDraft(field, stored) as CurrencyDraft;
}

/**
 * Whether an amount column needs its frequency beside it: the field usually recurs, or one of the
 * records holds it at a frequency other than once (a balance entered monthly says so).
 */
function recurs(field: FormField, records: readonly Readonly<Fields>[]): boolean {
  if ((field.usualFrequency ?? field.frequency ?? 'one-time') !== 'one-time') return true;
  return records.some((r) => {
    const c = currencyOf(field, r[field.name]);
    return c.value !== null && c.frequency !== 'one-time';
  });
}

/** The frequency of an amount in words ("Monthly", "One time"), empty when there is no amount. */
export function frequencyCell(field: FormField, stored: unknown): Cell {
  const c = currencyOf(field, stored);
  return c.value === null ? null : text(valueLabel(c.frequency));
}

/** The typed cell of one field's stored value (a single column). */
export function fieldCell(field: FormField, stored: unknown, nameOf: RelationNamer, currency: string): Cell {
  switch (field.input) {
    case 'currency':
      return num('currency', currencyOf(field, stored).value);
    case 'money':
      return num('currency', toDraft(field, stored));
    case 'percent':
      return num('percent', toDraft(field, stored));
    case 'integer':
    case 'number':
      return num('number', toDraft(field, stored));
    case 'year':
      return num('year', toDraft(field, stored));
    case 'date': {
      const date = toDraft(field, stored) as string | null;
      return date ? { kind: 'date', value: date } : null;
    }
    case 'target':
      return num('currency', (toDraft(field, stored) as TargetDraft).value);
    default:
      return orEmpty(displayValue(field, stored, nameOf, currency));
  }
}

/** The columns of a field across these records: one, or two for a recurring amount and a target. */
export function fieldColumns(
  field: FormField,
  records: readonly Readonly<Fields>[],
  nameOf: RelationNamer,
  currency: string,
): Column[] {
  const own: Column = { label: field.label, cell: (f) => fieldCell(field, f[field.name], nameOf, currency) };
  if (field.input === 'currency' && recurs(field, records))
    return [own, { label: `${field.label}: how often`, cell: (f) => frequencyCell(field, f[field.name]) }];
  if (field.input === 'target')
    return [
      { label: `${field.label} amount`, cell: own.cell },
      {
        label: `${field.label} date`,
        cell: (f) => {
          const date = (toDraft(field, f[field.name]) as TargetDraft).date;
          return date ? { kind: 'date', value: date } : null;
        },
      },
    ];
  return [own];
}
