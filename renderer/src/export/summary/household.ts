// The household part of the summary: who is in it (the members with their ages, the family and
// dependents) and the people the advisor works with for it (contacts).

import type { Content } from 'pdfmake/interfaces';
import { doubtfulBirthDate } from '../../household/confirmations.ts';
import { formatDate } from '../../household/values.ts';
import type { SectionItemRow } from '../../data/model.ts';
import { ageAt, isMissing, itemsOf, memberNameOf, shown, type SummaryContext } from './context.ts';
import { heading, notDownloaded, sentence, subheading, table } from './layout.ts';

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

function ageText(birth: unknown, now: Date): string {
  const age = ageAt(birth, now);
  return age === null ? '' : String(age);
}

function membersTable(ctx: SummaryContext): Content {
  const rows = ctx.members.map((m) => {
    const details = ctx.singles[`details:${m}`]?.fields ?? {};
    const birth = details.birth_date ?? ctx.account.fields[`${m}.birth_date`];
    const here = !isMissing(ctx, `details:${m}`);
    // A date of birth that looks implausible (1800) is printed as one to check, without an age.
    const doubtful = here ? doubtfulBirthDate(details, ctx.confirmations, m, ctx.now) : null;
    const doubt = doubtful
      ? doubtful.confirmed
        ? ' (implausible; confirmed)'
        : ' (implausible; to check)'
      : '';
    return {
      name: memberNameOf(ctx, m),
      role: m === 'client' ? 'Client' : 'Co-client',
      birth: here ? `${formatDate(birth)}${doubt}` : 'Not downloaded yet',
      age: here && !doubtful ? ageText(birth, ctx.now) : '',
      email: text(details.email ?? ctx.account.fields[`${m}.email`]),
    };
  });
  return table(
    [
      { label: 'Name', cell: (r) => r.name },
      { label: 'Role', width: 60, cell: (r) => r.role },
      { label: 'Date of birth', width: 80, cell: (r) => r.birth },
      { label: 'Age', width: 30, amount: true, cell: (r) => r.age },
      { label: 'E-mail', cell: (r) => r.email },
    ],
    rows,
  );
}

function familyPart(ctx: SummaryContext): Content[] {
  if (isMissing(ctx, 'family')) return [subheading('Family and dependents'), notDownloaded('Family')];
  const family = itemsOf(ctx, 'family');
  if (family.length === 0)
    return [subheading('Family and dependents'), sentence('No family members or dependents are recorded.')];
  const cell = (r: SectionItemRow, name: string) => shown(ctx, 'family', name, r.fields[name]);
  return [
    subheading('Family and dependents'),
    table(
      [
        { label: 'Name', cell: (r) => `${text(r.fields.first_name)} ${text(r.fields.last_name)}`.trim() },
        { label: 'Relationship', width: 80, cell: (r) => cell(r, 'relationship') },
        { label: 'Date of birth', width: 80, cell: (r) => cell(r, 'birth_date') },
        { label: 'Age', width: 30, amount: true, cell: (r) => ageText(r.fields.birth_date, ctx.now) },
        { label: 'Dependent', width: 55, cell: (r) => (r.fields.dependent === true ? 'Yes' : 'No') },
      ],
      family,
    ),
  ];
}

export function householdPart(ctx: SummaryContext): Content[] {
  return [heading('Household'), membersTable(ctx), ...familyPart(ctx)];
}

export function contactsPart(ctx: SummaryContext): Content[] {
  if (isMissing(ctx, 'contacts')) return [heading('Contacts'), notDownloaded('Contacts')];
  const contacts = itemsOf(ctx, 'contacts');
  if (contacts.length === 0) return [heading('Contacts'), sentence('No contacts are recorded.')];
  const cell = (r: SectionItemRow, name: string) => shown(ctx, 'contacts', name, r.fields[name]);
  return [
    heading('Contacts'),
    table(
      [
        { label: 'Name', cell: (r) => `${text(r.fields.first_name)} ${text(r.fields.last_name)}`.trim() },
        { label: 'Role', width: 75, cell: (r) => cell(r, 'type') },
        { label: 'Company', cell: (r) => cell(r, 'company') },
        { label: 'E-mail', cell: (r) => cell(r, 'email') },
        { label: 'Phone', width: 80, cell: (r) => cell(r, 'phone') },
      ],
      contacts,
    ),
  ];
}
