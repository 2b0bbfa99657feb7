// Values that look implausible (the warnings of shared/input-checks.ts: a date of birth in 1800)
// and the advisor's confirmation that they are right, remembered on this computer per household,
// record and field (data/confirmations.ts). The forms ask for it before saving such a value and
// say it beneath the field afterwards; the overview and the summary show such a value as one to
// check, never as good data (a date of birth "on file").

import { reactive } from 'vue';
import { checkInput } from '@shared/input-checks.ts';
import type { FormField } from '@shared/section-forms/form.ts';
import { MEMBER_FIELDS } from '@shared/section-forms/member-form.ts';
import { QUALITY_RULES } from '@shared/quality.ts';
import type { MemberRole } from '@shared/sections.ts';
import { confirmValues, isConfirmed, type Confirmations } from '../data/confirmations.ts';
import type { Fields } from '../data/model.ts';
import { datePart, formatDate } from './values.ts';
import { useWorkspace } from './workspace.ts';

/**
 * The confirmations of one record's fields in the open workspace. `record`: the record's key
 * (`details:client`, a single record's; an item's local id), null for an item not saved yet: its
 * confirmations are kept in the form until `saved` gives its id.
 */
export function useConfirmations(record: () => string | null) {
  const { db, accountId, data } = useWorkspace();
  const pending = reactive(new Map<string, string>());
  const json = (value: unknown) => JSON.stringify(value ?? null);
  return {
    confirmed(name: string, value: unknown): boolean {
      const key = record();
      if (key === null) return pending.get(name) === json(value);
      return isConfirmed(data.value?.confirmations ?? {}, key, name, value);
    },
    async confirm(name: string, value: unknown): Promise<void> {
      const key = record();
      if (key === null) pending.set(name, json(value));
      else await confirmValues(db, accountId.value, key, { [name]: value });
    },
    /** Remembers what was confirmed in the form of a new item, once it has its id. */
    async saved(id: string, values: Readonly<Fields>): Promise<void> {
      const confirmed = Object.fromEntries(
        Object.entries(values).filter(([name, value]) => pending.get(name) === json(value)),
      );
      pending.clear();
      await confirmValues(db, accountId.value, id, confirmed);
    },
  };
}

const BIRTH_DATE = MEMBER_FIELDS.find((f) => f.name === 'birth_date') as FormField;

/** What looks wrong with a stored date of birth of a member's details, or null when nothing does. */
export interface DoubtfulValue {
  /** The checks' words (`Date of birth is more than 120 years ago: check the year.`). */
  problem: string;
  /** The date as stored (`1800-03-14`). */
  value: string;
  confirmed: boolean;
}

/** A member's date of birth when it looks implausible (or is refused: in the future), with its confirmation. */
export function doubtfulBirthDate(
  details: Readonly<Fields> | undefined,
  confirmations: Confirmations,
  member: MemberRole,
  today = new Date(),
): DoubtfulValue | null {
  const value = datePart(details?.birth_date);
  if (!value) return null;
  const verdict = checkInput('details', [BIRTH_DATE], { birth_date: value }, { today });
  const problem = [...(verdict.errors.birth_date ?? []), ...(verdict.warnings.birth_date ?? [])][0];
  if (!problem) return null;
  return { problem, value, confirmed: isConfirmed(confirmations, `details:${member}`, 'birth_date', value) };
}

/** The quality rules about a member's date of birth, by message (shared/quality.ts). */
const BIRTH_DATE_RULES: ReadonlyMap<string, MemberRole> = new Map(
  QUALITY_RULES.filter((r) => /date of birth/i.test(r.message)).map((r) => [r.message, r.member]),
);

/** A quality rule as the overview shows it: not met while the value it reads looks implausible. */
export interface ShownRule {
  message: string;
  valid: boolean;
  /** What is wrong with the value the rule reads, and whether the advisor confirmed it. */
  doubt: string | null;
}

/**
 * The rules of a score (the platform's, or the estimate) with the dates of birth this computer
 * holds: one that looks implausible is not counted as on file, whatever the score says.
 */
export function rulesShown(
  rules: readonly { message: string; valid: boolean }[],
  singles: Readonly<Record<string, { fields: Readonly<Fields> } | undefined>>,
  confirmations: Confirmations,
): ShownRule[] {
  return rules.map((rule) => {
    const member = BIRTH_DATE_RULES.get(rule.message);
    const doubtful = member
      ? doubtfulBirthDate(singles[`details:${member}`]?.fields, confirmations, member)
      : null;
    if (!doubtful) return { message: rule.message, valid: rule.valid, doubt: null };
    const confirmed = doubtful.confirmed
      ? 'Confirmed as right on this computer; not counted as on file.'
      : 'Check it on the Members tab.';
    return {
      message: rule.message,
      valid: false,
      doubt: `${formatDate(doubtful.value)}: ${doubtful.problem} ${confirmed}`,
    };
  });
}
