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
import { call, isObject, type PullContext } from './context.ts';
import { failed, unreadable, type PullReport } from './report.ts';

/** One request of an account pull and where its answer is stored. */
export interface AccountPart {
  key: string;
  kind: 'details' | 'single' | 'collection';
  section: SectionDescriptor | null;
  path: string;
}

/** An answer of the expected shape, with the part it answers. */
export interface Fetched {
  part: AccountPart;
  data: unknown;
}

/** What belongs to one member: their details and the per-member sections. */
export const MEMBER_KEYS = ['details', ...SECTIONS.filter((s) => s.perMember).map((s) => s.path)];

/** The members of an account as the platform has them: the client, and the co-client when there is one. */
export const membersOf = (meta: { coclientId: unknown }): MemberRole[] =>
  meta.coclientId !== null ? ['client', 'coclient'] : ['client'];

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
  const readable = part.kind === 'collection' ? Array.isArray(result.data) : isObject(result.data);
  if (!readable) return unreadable(report, part.path);
  report.records += Array.isArray(result.data) ? result.data.length : 1;
  return { part, data: result.data };
}
