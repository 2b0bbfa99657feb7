// Every file the platform holds for an account, as this computer's rows name them: each member's
// photo and driver's licence (0.0.1 member details), the document of an employment item and the
// file of a Documents item (0.0.1 File objects, full addresses below `{base_url_v0}/files/`), the
// profile's FILE and IMAGE values (version 2 `/accounts/{id}/file/…`) and the engagements' uploaded
// documents and signatures (version 2 `/engagements/{id}/documents|signatures/…`).

import type { ApiName } from '@shared/api/request.ts';
import type { StoredFileRequest } from '@shared/bridge.ts';
import { fieldsOfKind, sectionOfKey, type MemberRole } from '@shared/sections.ts';
import { CONFIG_KEYS, configEntry } from './config.ts';
import type { AdvisorDb } from './db.ts';
import type { AccountRow, EngagementPartRow, ProfileValueRow, SectionItemRow, SingleRow } from './model.ts';

export type StoredFileSource = 'member' | 'employment' | 'documents' | 'profile' | 'engagement';

export interface StoredFile {
  /** Unique within the account: the interface and the address. */
  key: string;
  api: ApiName;
  /** A full address, or a path below the interface's base (profile files). */
  url: string;
  /** The file's name as its record gives it. */
  name: string;
  /** MIME type, when the record gives one. */
  type: string | null;
  /** Size in KB, when the record gives one (File objects do). */
  kb: number | null;
  image: boolean;
  source: StoredFileSource;
  /** What it is ("Photo", "Driver's license", the employer, the engagement's title). */
  label: string;
  member: MemberRole | null;
  /** The record holding it (its local id), to open it in the workspace. */
  recordId: string | null;
  /** The profile value's dataset element (profile files), to name it by the dataset's title. */
  element?: string;
}

const MEMBERS: readonly MemberRole[] = ['client', 'coclient'];
const DETAILS_FILES = [
  { field: 'photo', label: 'Photo', image: true },
  { field: 'drivers_license.document', label: "Driver's license", image: false },
] as const;

/** The files of one account (its local id), members' first, then sections, profile, engagements. */
export async function accountFiles(db: AdvisorDb, accountId: string): Promise<StoredFile[]> {
  const account = await db.accounts.get(accountId);
  if (!account) return [];
  const [singles, items] = await Promise.all([
    db.singles.where('accountId').equals(accountId).toArray(),
    db.sectionItems.where('accountId').equals(accountId).toArray(),
  ]);
  const serverId = typeof account.serverId === 'number' ? account.serverId : null;
  const [profile, parts] = serverId === null ? [[], []] : await serverFiles(db, serverId);
  const found = [
    ...memberFiles(singles),
    ...sectionFiles(items),
    ...profileFiles(account, profile),
    ...engagementFiles(parts),
  ];
  // One address listed once, even when two records name it.
  return [...new Map(found.map((f) => [f.key, f])).values()];
}

async function serverFiles(
  db: AdvisorDb,
  serverId: number,
): Promise<[ProfileValueRow[], { title: string; row: EngagementPartRow }[]]> {
  const [profile, engagements] = await Promise.all([
    db.profileValues.where('accountServerId').equals(serverId).toArray(),
    db.engagements.where('accountServerId').equals(serverId).toArray(),
  ]);
  const parts = await Promise.all(
    engagements.map(async (e) => {
      const rows = await db.engagementParts
        .where('engagementId')
        .equals(e.id)
        .filter((p) => p.kind === 'documents' || p.kind === 'signatures')
        .sortBy('position');
      return rows.map((row) => ({ title: e.server.title, row }));
    }),
  );
  return [profile, parts.flat()];
}

/** A File object of the 0.0.1 interface (type, url, filetype, filesize in KB, filename). */
function fileObject(
  value: unknown,
): { url: string; name: string; type: string | null; kb: number | null } | null {
  if (typeof value !== 'object' || value === null) return null;
  const f = value as { url?: unknown; filename?: unknown; filetype?: unknown; filesize?: unknown };
  // A file still waiting to upload has no address: it is in the local store, not the platform.
  if (typeof f.url !== 'string' || f.url === '') return null;
  return {
    url: f.url,
    name: typeof f.filename === 'string' ? f.filename : '',
    type: typeof f.filetype === 'string' && f.filetype !== '' ? f.filetype : null,
    kb: typeof f.filesize === 'number' ? f.filesize : null,
  };
}

const v0File = (
  file: NonNullable<ReturnType<typeof fileObject>>,
  rest: Omit<StoredFile, 'key' | 'api' | 'url' | 'name' | 'type' | 'kb'>,
): StoredFile => ({ key: `v0 ${file.url}`, api: 'v0', ...file, ...rest });

function memberFiles(singles: readonly SingleRow[]): StoredFile[] {
  const out: StoredFile[] = [];
  for (const member of MEMBERS) {
    const row = singles.find((s) => s.key === `details:${member}`);
    if (!row) continue;
    for (const { field, label, image } of DETAILS_FILES) {
      const file = fileObject(row.fields[field]);
      if (file) out.push(v0File(file, { image, source: 'member', label, member, recordId: row.id }));
    }
  }
  return out;
}

function sectionFiles(items: readonly SectionItemRow[]): StoredFile[] {
  const out: StoredFile[] = [];
  for (const item of items) {
    const found = sectionOfKey(item.section);
    if (!found) continue;
    const employment = found.section.path === 'employment';
    for (const field of fieldsOfKind(found.section, 'file')) {
      const file = fileObject(item.fields[field]);
      if (!file) continue;
      const employer = typeof item.fields.employer === 'string' ? item.fields.employer : '';
      out.push(
        v0File(file, {
          image: file.type?.startsWith('image/') ?? false,
          source: employment ? 'employment' : 'documents',
          label: employment ? employer || 'Employment' : 'Documents',
          member: found.member ?? null,
          recordId: item.id,
        }),
      );
    }
  }
  // The index gives items in the order of their ids: employment first, then Documents, each by name.
  const rank = (f: StoredFile) => (f.source === 'employment' ? 0 : 1);
  return out.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/**
 * Profile values of type FILE or IMAGE name a file the account's file endpoints serve: an image by
 * its element and name, a document also by an index. The document does not say what the index
 * counts; the platform counts the account's values of that element, and this computer does not
 * keep the profile's order, so they are counted by member id, then by value id.
 */
function profileFiles(account: AccountRow, profile: readonly ProfileValueRow[]): StoredFile[] {
  const serverId = account.serverId as number;
  const files = profile
    .filter((p) => (p.server.type === 'FILE' || p.server.type === 'IMAGE') && p.server.value !== '')
    .sort((a, b) => (a.memberId ?? 0) - (b.memberId ?? 0) || a.id.localeCompare(b.id));
  const counted = new Map<string, number>();
  const memberOf = (id: number | null): MemberRole | null =>
    id === null
      ? null
      : id === account.meta.clientId
        ? 'client'
        : id === account.meta.coclientId
          ? 'coclient'
          : null;
  return files.map((p) => {
    const name = encodeURIComponent(p.server.value);
    const image = p.server.type === 'IMAGE';
    const index = counted.get(p.datasetId) ?? 0;
    if (!image) counted.set(p.datasetId, index + 1);
    const url = image
      ? `/accounts/${serverId}/file/image/${p.datasetId}/${name}`
      : `/accounts/${serverId}/file/document/${p.datasetId}/${index}/${name}`;
    return {
      key: `v2 ${url}`,
      api: 'v2',
      url,
      name: p.server.value,
      type: null,
      kb: null,
      image,
      source: 'profile',
      label: 'Profile',
      member: memberOf(p.memberId),
      recordId: null,
      element: p.datasetId,
    };
  });
}

function engagementFiles(parts: readonly { title: string; row: EngagementPartRow }[]): StoredFile[] {
  const out: StoredFile[] = [];
  for (const { title, row } of parts) {
    const named =
      row.kind === 'documents'
        ? (row.server as { files: { name: string; url: string }[] }).files
        : [{ name: '', url: (row.server as { file: string }).file }];
    for (const file of named) {
      if (!file.url) continue;
      const last = fileNameOf(file.url);
      out.push({
        key: `v2 ${file.url}`,
        api: 'v2',
        url: file.url,
        name: file.name || last,
        type: null,
        kb: null,
        image: row.kind === 'signatures' || /\.(png|jpe?g|gif|webp)$/i.test(file.name),
        source: 'engagement',
        label: row.kind === 'signatures' ? `${title}: signature` : title,
        member: null,
        recordId: null,
      });
    }
  }
  return out;
}

/** The address's last part, as a name ('' when it is not one): a signature's file is named so. */
export function fileNameOf(url: string): string {
  try {
    return decodeURIComponent(url.split(/[?#]/)[0]?.split('/').pop() ?? '');
  } catch {
    return '';
  }
}

/**
 * The firm's logo (version 0.0.1 `/user` `company_logo`, a File object) as last pulled, or null when
 * the platform gives none. A prepared household keeps it offline with its files, for the summary.
 */
export async function firmLogoFile(db: AdvisorDb): Promise<StoredFileRequest | null> {
  const user = (await configEntry<Record<string, unknown>>(db, CONFIG_KEYS.userV0))?.data;
  const file = fileObject(user?.company_logo);
  return file ? { api: 'v0', url: file.url, name: file.name || 'logo' } : null;
}
