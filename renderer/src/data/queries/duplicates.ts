// Accounts that may already be the household being typed: a member of any account with the same
// email, or the same first and last name (and the same date of birth where both are known). Read
// from the local store only, through the account index's search terms (lower-cased names and emails).

import type { MemberRole } from '@shared/sections.ts';
import { accountsWithTerms } from '../account-index/store.ts';
import type { AdvisorDb } from '../db.ts';
import { singleRowId } from '../mappers.ts';
import type { AccountRow } from '../model.ts';

const ROLES: readonly MemberRole[] = ['client', 'coclient'];

/** A member as typed: names and email, and a date of birth where the form has one. */
export interface TypedMember {
  first_name: string;
  last_name: string;
  email: string;
  birth_date?: string | null;
}

export interface DuplicateQuery {
  members: Partial<Record<MemberRole, TypedMember>>;
  /** The account being edited, never a duplicate of itself. */
  exclude?: string | null;
}

/** A member of an existing account who may be one being typed. */
export interface Duplicate {
  /** The member of the form that matched. */
  typed: MemberRole;
  account: AccountRow;
  /** The member of the existing account. */
  member: MemberRole;
  /** Same email (trimmed, case ignored). */
  email: boolean;
  /** Same first and last name. */
  name: boolean;
  /**
   * For a name: true when both dates of birth are known and equal; false when they are not (none
   * typed, or the existing member's details are not on this computer). Known and different, the
   * name is another person's and is no match.
   */
  sameBirthDate: boolean;
}

/** As the search terms hold a name or an email (accounts.ts, searchColumn). */
const folded = (v: unknown): string => (typeof v === 'string' ? v.trim().toLowerCase() : '');
/** `1980-03-14` from `1980-03-14` or `1980-03-14 00:00:00`; null when it is no date. */
const day = (v: unknown): string | null =>
  typeof v === 'string' ? (/^\s*(\d{4}-\d{2}-\d{2})/.exec(v)?.[1] ?? null) : null;

/**
 * Members of other accounts on this computer who may be the ones typed, the strongest first (an
 * email or a name with the same date of birth before a name alone). An account gone from the
 * server (kept here only for its unsent changes) is left out; an archived one is not.
 */
export async function findDuplicates(db: AdvisorDb, query: DuplicateQuery): Promise<Duplicate[]> {
  const typed = ROLES.flatMap((role) => {
    const m = query.members[role];
    if (!m) return [];
    const first = folded(m.first_name);
    const last = folded(m.last_name);
    return [
      {
        role,
        email: folded(m.email),
        first,
        last,
        named: first !== '' && last !== '',
        birth: day(m.birth_date),
      },
    ];
  });
  const keys = [...new Set(typed.flatMap((t) => [t.email, t.named ? t.last : ''].filter(Boolean)))];
  if (keys.length === 0) return [];
  const rows = await accountsWithTerms(db, keys);

  const found: Duplicate[] = [];
  for (const account of rows) {
    if (account.id === query.exclude || account.deletedOnServer) continue;
    for (const t of typed)
      for (const member of ROLES) {
        const f = account.fields;
        const email = t.email !== '' && folded(f[`${member}.email`]) === t.email;
        const name =
          t.named &&
          folded(f[`${member}.first_name`]) === t.first &&
          folded(f[`${member}.last_name`]) === t.last;
        if (email || name) found.push({ typed: t.role, account, member, email, name, sameBirthDate: false });
      }
  }
  await compareBirthDates(db, found, new Map(typed.map((t) => [t.role, t.birth])));
  const strength = (d: Duplicate) => (d.email ? 2 : 0) + (d.sameBirthDate ? 1 : 0);
  return found.filter((d) => d.email || d.name).sort((a, b) => strength(b) - strength(a));
}

/** Of each name match whose both dates of birth are known: the same person, or no match by name. */
async function compareBirthDates(
  db: AdvisorDb,
  found: Duplicate[],
  typedBirth: Map<MemberRole, string | null>,
): Promise<void> {
  const named = found.filter((d) => d.name && typedBirth.get(d.typed));
  if (named.length === 0) return;
  const details = await db.singles.bulkGet(
    named.map((d) => singleRowId(d.account.id, `details:${d.member}`)),
  );
  named.forEach((d, i) => {
    const theirs = day(details[i]?.fields.birth_date);
    if (!theirs) return;
    d.sameBirthDate = theirs === typedBirth.get(d.typed);
    d.name = d.sameBirthDate;
  });
}
