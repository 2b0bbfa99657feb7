// Queries and bookkeeping over the state that both interfaces share: visibility by team,
// permissions, the quality score, activity records, stored files, and change notification.

import {
  qualityRules,
  qualityScore,
  type MemberQualityInput,
  type QualityInput,
  type QualityRule,
  type QualityScore,
} from '@shared/quality.ts';
import type { Permission } from './catalog.ts';
import type { Clock } from './clock.ts';
import { forbidden, notFound } from './errors.ts';
import type {
  AccountRecord,
  MemberRecord,
  MemberRole,
  SectionItem,
  State,
  StoredFile,
  UserRecord,
} from './model.ts';
import { seedSections } from './seed.ts';
import type { Random } from './random.ts';

/** What the quality rules look at of a stored member. */
function memberQuality(m: MemberRecord): MemberQualityInput {
  return {
    email: m.email,
    mobileNumber: m.phone.number,
    birthDate: m.birth_date,
    address: {
      line1: m.address.line1 ?? null,
      city: m.address.city ?? null,
      zip: m.address.zip ?? null,
      country: m.address.country ?? null,
    },
    citizenship: m.citizenship.country,
    maritalStatus: m.marital_status,
    driversLicense: { number: m.drivers_license.number, expireDate: m.drivers_license.expire_date },
    riskScore: m.risk_score,
  };
}

const qualityInput = (account: AccountRecord): QualityInput => ({
  client: memberQuality(account.client),
  coclient: account.coclient ? memberQuality(account.coclient) : null,
});

export class Store {
  private listeners: (() => void)[] = [];

  constructor(
    public state: State,
    readonly clock: Clock,
    readonly random: Random,
  ) {}

  /**
   * Counts writes: bumped by `written()` and `changed()`, so that what is kept over the records
   * (the account list's orders, account-order.ts) knows when to read them again.
   */
  revision = 0;

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** A request that may have written has run; it is counted before its answer is sent. */
  written(): void {
    this.revision++;
  }

  changed(): void {
    this.revision++;
    for (const l of this.listeners) l();
  }

  userById(id: number): UserRecord | undefined {
    return this.state.users.find((u) => u.id === id);
  }

  require(user: UserRecord, permission: Permission): void {
    if (!user.permissions[permission]) throw forbidden(permission);
  }

  visibleAccounts(user: UserRecord): AccountRecord[] {
    return this.state.accounts.filter((a) => a.teamId === user.currentTeamId);
  }

  /** An account of the user's current team; others are reported as not found, never as forbidden. */
  account(user: UserRecord, id: string | number): AccountRecord {
    const n = typeof id === 'number' ? id : /^\d{1,12}$/.test(id) ? Number(id) : NaN;
    const account = this.state.accounts.find((a) => a.id === n);
    if (!account || account.teamId !== user.currentTeamId) throw notFound('Account');
    return account;
  }

  /** Permission key of an account action for the account's type (`accounts.clients.update` …). */
  accountPermission(
    type: AccountRecord['type'],
    action: 'view' | 'create' | 'update' | 'delete',
  ): Permission {
    const base = type === 'CLIENT' ? 'accounts.clients' : 'accounts.prospects';
    return action === 'view' ? base : `${base}.${action}`;
  }

  member(account: AccountRecord, role: string): MemberRecord {
    if (role === 'client') return account.client;
    if (role === 'coclient' && account.coclient) return account.coclient;
    throw notFound(role === 'coclient' ? 'Co-client' : 'Member');
  }

  roleOf(account: AccountRecord, memberId: number): MemberRole | null {
    if (account.client.id === memberId) return 'client';
    if (account.coclient?.id === memberId) return 'coclient';
    return null;
  }

  /** Sections are generated from the seed on first use (seed.ts). */
  sections(account: AccountRecord): {
    sections: Record<string, SectionItem[]>;
    singles: Record<string, Record<string, unknown>>;
  } {
    if (!account.sections || !account.singles) {
      const seeded = seedSections(this.state.seed, account);
      account.sections ??= seeded.sections;
      account.singles ??= seeded.singles;
    }
    return { sections: account.sections, singles: account.singles };
  }

  items(account: AccountRecord, path: string): SectionItem[] {
    const { sections } = this.sections(account);
    if (path === 'employment')
      return [...(sections['employment:client'] ?? []), ...(sections['employment:coclient'] ?? [])];
    return (sections[path] ??= []);
  }

  newItemId(account: AccountRecord): string {
    return `${account.uuid}|${this.random.uuid()}`;
  }

  touch(account: AccountRecord): void {
    account.updated_at = this.clock.after(account.updated_at);
  }

  now(): string {
    return this.clock.stamp();
  }

  /** Records an activity; an account change is recorded at the account's new `updated_at`. */
  accountActivity(
    account: AccountRecord,
    type: string,
    description: string,
    options: Record<string, string>,
    at = this.now(),
  ): void {
    this.state.accountActivities.push({
      id: ++this.state.counters.accountActivity,
      accountId: account.id,
      type,
      description,
      options,
      created_at: at,
    });
  }

  userActivity(user: UserRecord, teamId: number, type: string, description: string): void {
    this.state.userActivities.push({
      id: ++this.state.counters.userActivity,
      userId: user.id,
      teamId,
      type,
      description,
      created_at: this.now(),
    });
  }

  saveFile(name: string, mime: string, bytes: Buffer, kind: StoredFile['kind'], teamId: number): StoredFile {
    let id = this.random.uuid();
    // Stored bytes are never replaced, even by a stream that repeats itself.
    while (Object.hasOwn(this.state.files, id)) id = this.random.uuid();
    const file: StoredFile = {
      id,
      name,
      mime,
      kind,
      teamId,
      data: bytes.toString('base64'),
      size: bytes.length,
      created_at: this.now(),
    };
    this.state.files[id] = file;
    return file;
  }

  file(id: string | null | undefined): StoredFile | null {
    return id && Object.hasOwn(this.state.files, id) ? (this.state.files[id] ?? null) : null;
  }

  /** Know-your-customer rules weighted 1–10 (PLATFORM-FACTS.md), from the table the app estimates with. */
  qualityRules(account: AccountRecord): QualityRule[] {
    return qualityRules(qualityInput(account));
  }

  quality(account: AccountRecord): QualityScore {
    return qualityScore(qualityInput(account));
  }

  memberName(m: MemberRecord | null): string {
    return m ? `${m.first_name} ${m.last_name}`.trim() : '';
  }

  newMemberId(): number {
    return ++this.state.counters.member;
  }

  templatesOf(user: UserRecord) {
    return this.state.templates.filter((t) => t.teamId === user.currentTeamId);
  }
}

export { notFound };
