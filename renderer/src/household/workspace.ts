// Everything an account's workspace shows, read live from the local store: the account, its
// section items and single records, and what remains queued for each record (its badge, the
// server's messages of a refused change, a conflict waiting for the user). The screens never ask
// the network; a pull or a push that changes the store shows up here by itself (Dexie liveQuery).

import Dexie, { liveQuery, type Subscription } from 'dexie';
import {
  inject,
  onScopeDispose,
  provide,
  reactive,
  shallowRef,
  watch,
  type InjectionKey,
  type Ref,
} from 'vue';
import { SECTION_FORMS, formOfKey } from '@shared/section-forms/build.ts';
import type { RelationChoice } from '@shared/section-forms/form.ts';
import { RELATION_TYPE_LABELS } from '@shared/section-forms/labels.ts';
import { RELATION_SECTION, type MemberRole } from '@shared/sections.ts';
import { readWire } from '@shared/wire/parse.ts';
import { ActivityTypes } from '@shared/wire/v2/activity.ts';
import { FlatStructure } from '@shared/wire/v2/config.ts';
import { DELETED_ON_SERVER } from '../data/changes/index.ts';
import { readConfirmations, type Confirmations } from '../data/confirmations.ts';
import { accountCoverage, type AccountCoverage } from '../data/coverage.ts';
import type { AdvisorDb } from '../data/db.ts';
import type {
  AccountActivityRow,
  AccountRow,
  ConflictRow,
  MemberSecurityRow,
  Operation,
  OperationError,
  ProfileValueRow,
  SectionItemRow,
  SingleRow,
} from '../data/model.ts';
import { CONFIG_KEYS, configEntry, getAccount, pendingOps } from '../data/queries/index.ts';
import { displayValue, relationKey, type Fields, type RelationValue } from './values.ts';

export type RecordBadge = 'synced' | 'pending' | 'rejected' | 'conflict' | 'deleted';

/** What the sync state of one record means for the screen. */
export interface RecordState {
  badge: RecordBadge;
  ops: Operation[];
  /** The operation that waits for the user: refused, or in conflict. */
  waiting: Operation | null;
  conflict: ConflictRow | null;
  /** Refused by the server: its message and field messages (keyed as the server names fields). */
  error: OperationError | null;
}

export interface WorkspaceData {
  account: AccountRow | null;
  /** Items of every section, without those whose delete is queued. */
  items: SectionItemRow[];
  singles: Record<string, SingleRow>;
  states: Record<string, RecordState>;
  /** Read-only data of an account on the platform (none before its first pull). */
  security: MemberSecurityRow[];
  profile: ProfileValueRow[];
  /** Newest first. */
  activity: AccountActivityRow[];
  config: WorkspaceConfig;
  /** Which parts of the account are on this computer (a part never pulled is unknown, not empty). */
  coverage: AccountCoverage;
  /** Odd values the advisor confirmed as right (data/confirmations.ts). */
  confirmations: Confirmations;
}

/** Configuration the workspace reads (version 2 `/config/*`), as last pulled. */
export interface WorkspaceConfig {
  /** Activity type → its icon name and option names. */
  activities: Record<string, { icon?: string; options?: string[] }>;
  /** Dataset elements by id (profile values name them by `dataset_id`). */
  elements: Record<string, { title: string; group: string }>;
}

const ACTIVITY_PAGE = 100;

const SYNCED: RecordState = { badge: 'synced', ops: [], waiting: null, conflict: null, error: null };

export function recordState(
  row: { status: string; deletedOnServer?: number | null } | undefined,
  ops: readonly Operation[] = [],
  conflict: ConflictRow | null = null,
): RecordState {
  const waiting =
    ops.find((op) => op.state === 'conflict') ?? ops.find((op) => op.state === 'rejected') ?? null;
  const deleted = Boolean(conflict?.fields[DELETED_ON_SERVER]) || Boolean(row?.deletedOnServer);
  const badge: RecordBadge = deleted
    ? 'deleted'
    : waiting?.state === 'conflict'
      ? 'conflict'
      : waiting?.state === 'rejected'
        ? 'rejected'
        : ops.length
          ? 'pending'
          : 'synced';
  return {
    badge,
    ops: [...ops],
    waiting,
    conflict,
    error: waiting?.state === 'rejected' ? waiting.lastError : null,
  };
}

/** One read of an account's whole workspace. */
export async function readWorkspace(db: AdvisorDb, accountId: string): Promise<WorkspaceData> {
  const account = (await getAccount(db, accountId)) ?? null;
  const allItems = await db.sectionItems.where('accountId').equals(accountId).toArray();
  const singleRows = await db.singles.where('accountId').equals(accountId).toArray();
  const [accountOps, itemOps, singleOps] = await Promise.all([
    pendingOps(db, 'accounts', [accountId]),
    pendingOps(
      db,
      'sectionItems',
      allItems.map((r) => r.id),
    ),
    pendingOps(
      db,
      'singles',
      singleRows.map((r) => r.id),
    ),
  ]);
  const ids = [accountId, ...allItems.map((r) => r.id), ...singleRows.map((r) => r.id)];
  const conflicts = await db.conflicts.where('recordId').anyOf(ids).toArray();
  const conflictOf = (ops: readonly Operation[] | undefined) =>
    conflicts.find((c) => ops?.some((op) => op.id === c.id)) ?? null;

  const states: Record<string, RecordState> = {};
  if (account)
    states[account.id] = recordState(
      account,
      accountOps.get(account.id),
      conflictOf(accountOps.get(account.id)),
    );
  for (const r of allItems) states[r.id] = recordState(r, itemOps.get(r.id), conflictOf(itemOps.get(r.id)));
  for (const r of singleRows)
    states[r.id] = recordState(r, singleOps.get(r.id), conflictOf(singleOps.get(r.id)));
  const serverId = typeof account?.serverId === 'number' ? account.serverId : null;
  const [security, profile, activity, config, confirmations] = await Promise.all([
    serverId === null ? [] : db.memberSecurity.where('accountServerId').equals(serverId).toArray(),
    serverId === null ? [] : db.profileValues.where('accountServerId').equals(serverId).toArray(),
    serverId === null
      ? []
      : db.accountActivity
          .where('[accountServerId+createdAt]')
          .between([serverId, Dexie.minKey], [serverId, Dexie.maxKey])
          .reverse()
          .limit(ACTIVITY_PAGE)
          .toArray(),
    readConfig(db),
    readConfirmations(db, accountId),
  ]);
  return {
    account,
    security,
    profile,
    activity,
    config,
    coverage: accountCoverage(account),
    items: allItems
      .filter((r) => itemOps.get(r.id)?.at(-1)?.kind !== 'delete')
      .sort(
        (a, b) =>
          a.changedAt - b.changedAt || String(a.serverId ?? '~').localeCompare(String(b.serverId ?? '~')),
      ),
    singles: Object.fromEntries(singleRows.map((r) => [r.key, r])),
    states,
    confirmations,
  };
}

async function readConfig(db: AdvisorDb): Promise<WorkspaceConfig> {
  const [activities, dataset] = await Promise.all([
    configEntry(db, CONFIG_KEYS.activities),
    configEntry(db, CONFIG_KEYS.dataset),
  ]);
  const set = readWire(FlatStructure, dataset?.data);
  const groups = new Map((set?.groups ?? []).map((g) => [g.id, g.title]));
  const elements = Object.fromEntries(
    (set?.elements ?? []).map((e) => [e.id, { title: e.title, group: groups.get(e.group_id) ?? '' }]),
  );
  return { activities: readWire(ActivityTypes, activities?.data) ?? {}, elements };
}

// ---- the workspace context ---------------------------------------------------------------------

export interface Workspace {
  db: AdvisorDb;
  accountId: Ref<string>;
  data: Ref<WorkspaceData | null>;
  /** Unsaved edits of single-record forms, by record key, kept while the user moves around the workspace. */
  drafts: Map<string, Fields>;
  /** Currency of the user (ISO code) for amounts. */
  currency: Ref<string>;
  /** Whether the user may change this account's data, and why not. */
  readOnly: Ref<string | null>;
}

const KEY: InjectionKey<Workspace> = Symbol('workspace');

/** Reads the account's workspace live and offers it to the components below. */
export function provideWorkspace(
  db: AdvisorDb,
  accountId: Ref<string>,
  options: { currency: Ref<string>; readOnly: Ref<string | null> },
): Workspace {
  const data = shallowRef<WorkspaceData | null>(null);
  let subscription: Subscription | null = null;
  watch(
    accountId,
    (id) => {
      subscription?.unsubscribe();
      data.value = null;
      subscription = liveQuery(() => readWorkspace(db, id)).subscribe({
        next: (value) => (data.value = value),
        error: (error: unknown) =>
          console.error('The workspace could not be read from the local store.', error),
      });
    },
    { immediate: true },
  );
  onScopeDispose(() => subscription?.unsubscribe());
  const workspace: Workspace = { db, accountId, data, drafts: reactive(new Map()), ...options };
  provide(KEY, workspace);
  return workspace;
}

export function useWorkspace(): Workspace {
  const workspace = inject(KEY);
  if (!workspace) throw new Error('useWorkspace() is used outside an account workspace.');
  return workspace;
}

export const stateOf = (data: WorkspaceData | null, id: string | undefined): RecordState =>
  (id && data?.states[id]) || SYNCED;

// ---- members and sections ----------------------------------------------------------------------

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

export function memberName(account: AccountRow | null, member: MemberRole): string {
  if (!account) return '';
  const f = account.fields;
  return `${text(f[`${member}.first_name`])} ${text(f[`${member}.last_name`])}`.trim();
}

export function hasCoclient(account: AccountRow | null): boolean {
  if (!account) return false;
  const f = account.fields;
  return (
    account.meta.coclientId !== null ||
    ['first_name', 'last_name', 'email'].some((k) => text(f[`coclient.${k}`]) !== '')
  );
}

export function membersOf(account: AccountRow | null): MemberRole[] {
  return hasCoclient(account) ? ['client', 'coclient'] : ['client'];
}

/** The label of a member: their name, or their role while the name is empty. */
export function memberLabel(account: AccountRow | null, member: MemberRole): string {
  return memberName(account, member) || (member === 'client' ? 'Client' : 'Co-client');
}

/** A section of this account, as the navigation lists it. */
export interface SectionEntry {
  /** Storage key (`assets`, `employment:client`). */
  key: string;
  title: string;
  /** For the narrow section list. */
  short: string;
  group: string;
  member?: MemberRole;
}

const SHORT_TITLES: Readonly<Record<string, string>> = { plans: 'Retirement & college' };

function firstName(account: AccountRow | null, member: MemberRole): string {
  return text(account?.fields[`${member}.first_name`]) || memberLabel(account, member);
}

/** Sections in the order an advisor walks through a household. */
const GROUPS: readonly { title: string; paths: readonly string[] }[] = [
  { title: 'Household', paths: ['family', 'contacts'] },
  {
    title: 'Income and expenses',
    paths: ['employment', 'income', 'expenses-fixed', 'expenses-tax', 'expenses-variable'],
  },
  { title: 'Assets', paths: ['assets', 'cash', 'taxable', 'plans', 'annuities', 'insurance'] },
  { title: 'Liabilities and goals', paths: ['liabilities', 'goals'] },
  { title: 'Files', paths: ['documents'] },
];

export function sectionEntries(account: AccountRow | null): SectionEntry[] {
  const out: SectionEntry[] = [];
  for (const group of GROUPS) {
    for (const path of group.paths) {
      const form = SECTION_FORMS.find((f) => f.path === path);
      if (!form) continue;
      if (!form.perMember) {
        out.push({
          key: path,
          title: form.title,
          short: SHORT_TITLES[path] ?? form.title,
          group: group.title,
        });
        continue;
      }
      for (const member of membersOf(account))
        out.push({
          key: `${path}:${member}`,
          title: `${form.title} · ${memberLabel(account, member)}`,
          short: `${form.title} · ${firstName(account, member)}`,
          group: group.title,
          member,
        });
    }
  }
  return out;
}

// ---- relation choices --------------------------------------------------------------------------

export interface RelationOption {
  key: string;
  label: string;
  group: string;
  value: RelationValue;
}

/** The section of an item relation's type (`FamilyMember` → `family`). */
const sectionOfType = (type: string): string | undefined => RELATION_SECTION[type];

/** The relation type that names items of a section (`family` → `FamilyMember`). */
function typeOfSection(path: string): string | undefined {
  return SECTION_FORMS.find((f) => f.path === path)?.entity;
}

function itemLabel(item: SectionItemRow): string {
  const found = formOfKey(item.section);
  return found ? found.form.describe(item.fields) : 'Item';
}

function familyLabel(item: SectionItemRow): string {
  const relationship = text(item.fields.relationship);
  const name = itemLabel(item);
  return relationship ? `${name} (${relationship})` : name;
}

/**
 * What a relation picker offers: the members (and joint, when there are two), the family, and for
 * a document every item of the account. Values carry LOCAL ids. `exceptId` leaves out the item
 * being edited.
 */
export function relationOptions(
  choice: RelationChoice,
  account: AccountRow | null,
  items: readonly SectionItemRow[],
  exceptId?: string,
): RelationOption[] {
  const two = hasCoclient(account);
  const people: RelationOption[] = [
    {
      key: 'client:',
      label: memberLabel(account, 'client'),
      group: 'Members',
      value: { type: 'client', id: null },
    },
  ];
  if (two) {
    people.push({
      key: 'coclient:',
      label: memberLabel(account, 'coclient'),
      group: 'Members',
      value: { type: 'coclient', id: null },
    });
    if (choice !== 'people')
      people.push({ key: 'joint:', label: 'Joint', group: 'Members', value: { type: 'joint', id: null } });
  }
  const others = items.filter((i) => i.id !== exceptId);
  const family = others
    .filter((i) => i.section === 'family')
    .map((i) => ({
      key: `FamilyMember:${i.id}`,
      label: familyLabel(i),
      group: 'Family',
      value: { type: 'FamilyMember', id: i.id },
    }));
  if (choice !== 'items') return [...people, ...family];
  const rest = others
    .filter((i) => i.section !== 'family')
    .flatMap((i) => {
      const found = formOfKey(i.section);
      const type = typeOfSection(i.section.split(':')[0] ?? '');
      if (!found || !type) return [];
      return [
        { key: `${type}:${i.id}`, label: itemLabel(i), group: found.form.title, value: { type, id: i.id } },
      ];
    });
  return [...people, ...family, ...distinguished(rest, others, account)];
}

/**
 * Items of one section that read the same (two goals named "Retirement") told apart in a picker:
 * by the first of the section's columns whose values differ between them (the target), else by
 * their place in the list ("Retirement (2)").
 */
function distinguished(
  options: RelationOption[],
  items: readonly SectionItemRow[],
  account: AccountRow | null,
): RelationOption[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  const shown = (item: SectionItemRow | undefined, name: string): string => {
    const field = item ? formOfKey(item.section)?.form.fields.find((f) => f.name === name) : undefined;
    const named = (r: RelationValue) => relationLabel(r, account, items);
    return item && field ? displayValue(field, item.fields[name], named) : '';
  };
  return options.map((option, _, all) => {
    const same = all.filter((o) => o.group === option.group && o.label === option.label);
    if (same.length < 2) return option;
    const item = byId.get(option.value.id ?? '');
    const columns = item ? (formOfKey(item.section)?.form.columns ?? []) : [];
    const telling = columns.find(
      (c) => new Set(same.map((o) => shown(byId.get(o.value.id ?? ''), c))).size === same.length,
    );
    const detail = telling ? shown(item, telling) : '';
    return {
      ...option,
      label: detail ? `${option.label} · ${detail}` : `${option.label} (${same.indexOf(option) + 1})`,
    };
  });
}

/** How a stored relation reads: the member's name, the item's label, or the type in words. */
export function relationLabel(
  value: RelationValue,
  account: AccountRow | null,
  items: readonly SectionItemRow[],
): string {
  if (value.type === 'client' || value.type === 'coclient') return memberLabel(account, value.type);
  if (value.type === 'joint') return 'Joint';
  if (value.id && sectionOfType(value.type)) {
    const item = items.find((i) => i.id === value.id);
    if (item) return itemLabel(item);
    return `${RELATION_TYPE_LABELS[value.type] ?? value.type} (not on this computer yet)`;
  }
  return RELATION_TYPE_LABELS[value.type] ?? value.type;
}

export { relationKey };
