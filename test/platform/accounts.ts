// Account operations both interfaces share, with their permissions and the activities they
// record; each interface only reads its own body shape and renders its own response shape.

import { invalid } from './errors.ts';
import type { SortKeys } from './listing.ts';
import type { AccountRecord, MemberRecord, MemberRole, Phone, UserRecord } from './model.ts';
import type { Store } from './store.ts';

export interface MemberInput {
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  phone?: Phone;
}

const emptyPhone = (): Phone => ({ code: null, number: null, country: null });

export function newMember(store: Store, input: MemberInput): MemberRecord {
  return {
    id: store.newMemberId(),
    first_name: input.first_name ?? '',
    middle_initial: null,
    last_name: input.last_name ?? '',
    email: input.email ?? '',
    phone: input.phone ?? emptyPhone(),
    home_phone: null,
    work_phone: null,
    gender: null,
    birth_date: null,
    marital_status: null,
    previous_marriages: null,
    citizenship: { country: null },
    address: {},
    photo: null,
    risk_score: null,
    comments: null,
    drivers_license: {
      number: null,
      issue_date: null,
      expire_date: null,
      jurisdiction: { state: null, country: null },
      document: null,
    },
    status: 'NEW',
    pin: store.random.digits(6),
  };
}

const authorOf = (user: UserRecord) => `${user.first_name} ${user.last_name}`;

export function firstStage(store: Store, type: AccountRecord['type']): string {
  const stage = store.state.pipelines
    .filter((p) => p.type === type)
    .sort((a, b) => a.position - b.position)[0];
  return stage?.id ?? '';
}

export function createAccount(
  store: Store,
  user: UserRecord,
  type: AccountRecord['type'],
  client: MemberInput,
  coclient: MemberInput | null,
): AccountRecord {
  store.require(user, store.accountPermission(type, 'create'));
  const now = store.now();
  const account: AccountRecord = {
    id: ++store.state.counters.account,
    uuid: store.random.uuid(),
    teamId: user.currentTeamId,
    type,
    client: newMember(store, client),
    coclient: coclient ? newMember(store, coclient) : null,
    pipelineId: firstStage(store, type),
    favorited: false,
    archived: false,
    created_at: now,
    updated_at: now,
    sections: {},
    singles: {},
    profile: [],
  };
  checkDistinctEmails(account);
  store.state.accounts.push(account);
  const name = store.memberName(account.client);
  store.accountActivity(
    account,
    'account.created',
    `${authorOf(user)} created the account of ${name}`,
    { author: authorOf(user), type, name },
    now,
  );
  store.userActivity(
    user,
    account.teamId,
    'account.client.created',
    `${name} was added as a ${type === 'CLIENT' ? 'client' : 'prospect'}`,
  );
  if (account.coclient)
    store.userActivity(
      user,
      account.teamId,
      'account.coclient.created',
      `${store.memberName(account.coclient)} was added as co-client of ${name}`,
    );
  return account;
}

/** E-mail addresses are unique per account (0.0.1 document). */
export function checkDistinctEmails(account: AccountRecord, field = 'coclient.email'): void {
  if (
    account.coclient?.email &&
    account.coclient.email.toLowerCase() === account.client.email.toLowerCase()
  ) {
    throw invalid([
      `${field} must differ from the client's email address; each member of an account needs their own.`,
    ]);
  }
}

export function updateMember(member: MemberRecord, input: MemberInput): void {
  if (input.first_name !== undefined) member.first_name = input.first_name ?? '';
  if (input.last_name !== undefined) member.last_name = input.last_name ?? '';
  if (input.email !== undefined) member.email = input.email ?? '';
  if (input.phone !== undefined) member.phone = input.phone;
}

export function requireUpdate(store: Store, user: UserRecord, account: AccountRecord): void {
  store.require(user, store.accountPermission(account.type, 'update'));
}

/** Adds, changes or (with null) removes the co-client. */
export function setCoclient(
  store: Store,
  user: UserRecord,
  account: AccountRecord,
  input: MemberInput | null,
): void {
  if (input === null) {
    if (!account.coclient) return;
    store.userActivity(
      user,
      account.teamId,
      'account.coclient.deleted',
      `${store.memberName(account.coclient)} was removed from the account of ${store.memberName(account.client)}`,
    );
    account.coclient = null;
    if (account.sections) delete account.sections['employment:coclient'];
    if (account.singles) delete account.singles['income:coclient'];
    return;
  }
  if (account.coclient) updateMember(account.coclient, input);
  else {
    account.coclient = newMember(store, input);
    store.userActivity(
      user,
      account.teamId,
      'account.coclient.created',
      `${store.memberName(account.coclient)} was added as co-client of ${store.memberName(account.client)}`,
    );
  }
}

export function convert(
  store: Store,
  user: UserRecord,
  account: AccountRecord,
  type: AccountRecord['type'],
): void {
  if (type === account.type) return;
  store.require(user, 'accounts.convert');
  account.type = type;
  account.pipelineId = firstStage(store, type);
  store.userActivity(
    user,
    account.teamId,
    'account.converted',
    `${store.memberName(account.client)} became a ${type === 'CLIENT' ? 'client' : 'prospect'}`,
  );
}

export function recordUpdate(store: Store, user: UserRecord, account: AccountRecord): void {
  store.touch(account);
  const name = store.memberName(account.client);
  store.accountActivity(
    account,
    'account.updated',
    `${authorOf(user)} updated the account of ${name}`,
    { author: authorOf(user), name },
    account.updated_at,
  );
}

export function deleteAccount(store: Store, user: UserRecord, account: AccountRecord): void {
  store.require(user, store.accountPermission(account.type, 'delete'));
  const s = store.state;
  s.accounts = s.accounts.filter((a) => a.id !== account.id);
  s.engagements = s.engagements.filter((e) => e.account_id !== account.id);
  s.forms = s.forms.filter((f) => f.account_id !== account.id);
  s.accountActivities = s.accountActivities.filter((a) => a.accountId !== account.id);
  store.userActivity(
    user,
    account.teamId,
    'account.client.deleted',
    `The account of ${store.memberName(account.client)} was deleted`,
  );
}

export function roleName(role: MemberRole): string {
  return role === 'client' ? 'client' : 'co-client';
}

/** Sort keys both interfaces give their account lists. */
export const ACCOUNT_SORT_KEYS: SortKeys<AccountRecord> = {
  type: (a) => a.type,
  created_at: (a) => a.created_at,
  updated_at: (a) => a.updated_at,
  'client.first_name': (a) => a.client.first_name,
  'client.last_name': (a) => a.client.last_name,
  'client.email': (a) => a.client.email,
  'coclient.first_name': (a) => a.coclient?.first_name,
  'coclient.last_name': (a) => a.coclient?.last_name,
  'coclient.email': (a) => a.coclient?.email,
};
