// The requests of one account's pull (version 0.0.1): each member's details and every section,
// per member where the section is, and what each answer is stored as.

import type { Priority } from '@shared/api/request.ts';
import {
  SECTIONS,
  sectionKey,
  sectionPath,
  type MemberRole,
  type SectionDescriptor,
} from '@shared/sections.ts';
import type { SectionItem } from '@shared/wire/v0/sections.ts';
import { parseDetailsSnapshot, parseSectionItems, parseSingleSnapshot } from '../../data/mappers.ts';
import type { Fields } from '../../data/model.ts';
import { call, type PullContext } from './context.ts';
import { failed, unreadable, type PullReport } from './report.ts';

/** One request of an account pull and where its answer is stored. */
export interface AccountPart {
  key: string;
  kind: 'details' | 'single' | 'collection';
  section: SectionDescriptor | null;
  path: string;
}

/**
 * An answer as its schema read it, with the part it answers: a collection's items (each with its
 * server id), or the fields of member details or a single record.
 */
export type Fetched =
  | { part: AccountPart; kind: 'collection'; items: SectionItem[] }
  | { part: AccountPart; kind: 'record'; fields: Fields };

/** What belongs to one member: their details and the per-member sections. */
export const MEMBER_KEYS = ['details', ...SECTIONS.filter((s) => s.perMember).map((s) => s.path)];

export { membersOf } from '../../data/coverage.ts';

export function accountParts(serverId: number, members: readonly MemberRole[]): AccountPart[] {
  const parts: AccountPart[] = members.map((m) => ({
    key: `details:${m}`,
    kind: 'details',
    section: null,
    path: `/accounts/${serverId}/${m}/details`,
  }));
  for (const section of SECTIONS) {
    for (const member of section.perMember ? members : [undefined]) {
      parts.push({
        key: sectionKey(section, member),
        kind: section.single ? 'single' : 'collection',
        section,
        path: sectionPath(section, serverId, member),
      });
    }
  }
  return parts;
}

export async function fetchPart(
  ctx: PullContext,
  part: AccountPart,
  report: PullReport,
  priority: Priority,
): Promise<Fetched | null> {
  const result = await call(ctx, report, { api: 'v0', method: 'GET', path: part.path, priority });
  if (!result.ok) return failed(report, part.path, result);
  const fetched = readPart(part, result.data);
  if (!fetched) return unreadable(report, part.path);
  report.records += fetched.kind === 'collection' ? fetched.items.length : 1;
  return fetched;
}

/** An answer read by its part's schema; null when it is no list (or no record). A bad item is left out. */
function readPart(part: AccountPart, data: unknown): Fetched | null {
  if (part.kind === 'collection') {
    const read = parseSectionItems(part.section!, data);
    return read.ok ? { part, kind: 'collection', items: read.value } : null;
  }
  const read =
    part.kind === 'details' ? parseDetailsSnapshot(data) : parseSingleSnapshot(part.section!, data);
  return read.ok ? { part, kind: 'record', fields: read.value } : null;
}
