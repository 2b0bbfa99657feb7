// What the account dialog holds while the advisor types, and its checks: the type, the client and
// optional co-client fields, the platform's rules (shared/account-rules.ts) and phone checks
// (shared/input-checks.ts) said in the advisor's words, and what the platform refused last time on
// the fields it named. A field shows its messages once left (or a save tried), then follows every
// keystroke; typing over a field drops the platform's message about its old value. And the members
// typed, for the warning that one is already in another account.

import { computed, reactive, ref, watch } from 'vue';
import {
  CALLING_CODES,
  MEMBER_FIELDS,
  checkAccount,
  givesCoclient,
  type AccountFields,
  type AccountType,
  type FieldMessages,
  type MemberRole,
} from '@shared/account-rules.ts';
import { accountMessage, checkAccountPhones, mergeMessages } from '@shared/input-checks.ts';
import type { AdvisorDb } from '../data/db.ts';
import type { AccountRow } from '../data/model.ts';
import { pendingOps, type TypedMember } from '../data/queries/index.ts';

export const ROLES: MemberRole[] = ['client', 'coclient'];
export const NAME_FIELDS = [
  { field: 'first_name', label: 'First name', autocomplete: 'given-name', wide: false },
  { field: 'last_name', label: 'Last name', autocomplete: 'family-name', wide: false },
  { field: 'email', label: 'Email', autocomplete: 'email', wide: false },
] as const;

/** A member's field as the flat account fields name it: `coclient.phone.number`. */
export const key = (role: MemberRole, field: string) => `${role}.${field}`;
export const inputId = (k: string) => `account-${k.replace(/\./g, '-')}`;
export const messageId = (k: string) => `${inputId(k)}-messages`;
export const textOf = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** The draft of `account` (null: a new one), which cannot be changed when `readOnly`. */
export function useAccountDraft(
  db: AdvisorDb,
  { account, readOnly }: { account: () => AccountRow | null; readOnly: () => boolean },
) {
  const mode = computed(() => (account() ? 'update' : 'create'));
  const draft = reactive<Record<string, string>>({});
  const type = ref<AccountType>('PROSPECT');
  const withCoclient = ref(false);
  const touched = reactive(new Set<string>());
  const submitted = ref(false);
  const serverMessages = ref<FieldMessages>({});
  const serverSummary = ref<string | null>(null);

  const hadCoclient = computed(() => {
    const row = account();
    return row ? givesCoclient(row.fields) || row.meta.coclientId !== null : false;
  });

  /** Fills the draft from the account, or for a new one of `start.type` (its phone in the user's country). */
  function fill(start: { type: AccountType; phoneCountry: string | null }): void {
    const row = account();
    for (const role of ROLES)
      for (const f of MEMBER_FIELDS) draft[key(role, f)] = textOf(row?.fields[key(role, f)]);
    type.value = row?.type ?? start.type;
    withCoclient.value = hadCoclient.value;
    if (!row && start.phoneCountry) setPhoneCountry('client', start.phoneCountry);
    touched.clear();
    submitted.value = false;
    serverMessages.value = {};
    serverSummary.value = null;
  }

  function setPhoneCountry(role: MemberRole, country: string): void {
    draft[key(role, 'phone.country')] = country;
    draft[key(role, 'phone.code')] = CALLING_CODES[country] ?? '';
  }

  /** What the platform refused last time (a rejected operation), shown on the fields it named. */
  async function loadRefusal(id: string): Promise<void> {
    const ops = (await pendingOps(db, 'accounts', [id])).get(id) ?? [];
    const refused = ops.find((op) => op.state === 'rejected' && op.lastError);
    if (!refused?.lastError || account()?.id !== id) return;
    serverMessages.value = refused.lastError.fields;
    serverSummary.value = refused.lastError.message;
  }

  /** The flat fields a save would write: no co-client means every co-client field empty. */
  const prepared = computed<AccountFields>(() => {
    const fields: AccountFields = { type: type.value };
    for (const role of ROLES)
      for (const f of MEMBER_FIELDS)
        fields[key(role, f)] =
          role === 'coclient' && !withCoclient.value ? null : (draft[key(role, f)] ?? '');
    // A new phone without a number is no phone: the country chosen by default is not sent alone.
    if (mode.value === 'create')
      for (const role of ROLES)
        if (!textOf(fields[key(role, 'phone.number')]).trim()) {
          fields[key(role, 'phone.code')] = null;
          fields[key(role, 'phone.country')] = null;
        }
    return fields;
  });

  const messages = computed<FieldMessages>(() =>
    mergeMessages(
      checkAccount(
        prepared.value,
        mode.value === 'create' ? { mode: 'create' } : { mode: 'update', hadCoclient: hadCoclient.value },
      ),
      checkAccountPhones(prepared.value, labelOf),
    ),
  );

  /** A field as its messages name it: `Email`, `Co-client email`, `Phone`. */
  function labelOf(k: string): string {
    const [role, ...rest] = k.split('.');
    const part = rest.join('.');
    const label = part.startsWith('phone.')
      ? 'Phone'
      : (NAME_FIELDS.find((f) => f.field === part)?.label ?? (k === 'type' ? 'Type' : part));
    return role === 'coclient' ? `Co-client ${label.toLowerCase()}` : label;
  }

  /**
   * The messages a field shows, in the advisor's words: the rules once it was left (or a save
   * tried), and what the platform said.
   */
  function shown(k: string): string[] {
    const local = touched.has(k) || submitted.value ? (messages.value[k] ?? []) : [];
    return [
      ...new Set([...local, ...(serverMessages.value[k] ?? [])].map((m) => accountMessage(k, m, labelOf(k)))),
    ];
  }
  const invalid = (k: string) => shown(k).length > 0;
  const phoneMessages = (role: MemberRole) =>
    (['phone.country', 'phone.code', 'phone.number'] as const).flatMap((f) => shown(key(role, f)));

  function edited(k: string): void {
    // The platform's message was about the old value.
    if (serverMessages.value[k]) {
      const { [k]: _gone, ...rest } = serverMessages.value;
      serverMessages.value = rest;
    }
  }
  watch(
    () => ({ ...draft }),
    (now, before) => {
      for (const k of Object.keys(now)) if (now[k] !== before[k]) edited(k);
    },
  );

  function touch(role: MemberRole, field: string): void {
    touched.add(key(role, field));
  }

  /**
   * The members compared with the other accounts (DuplicateWarning.vue): every one typed in a new
   * account; in an edit, one added or whose name or email changed (the others were there before).
   */
  const typedMembers = computed(() => {
    const members: Partial<Record<MemberRole, TypedMember>> = {};
    if (readOnly()) return members;
    for (const role of ROLES) {
      if (role === 'coclient' && !withCoclient.value) continue;
      const typed = (f: string) => draft[key(role, f)] ?? '';
      const saved = account()?.fields;
      if (
        saved &&
        NAME_FIELDS.every(({ field: f }) => typed(f).trim() === textOf(saved[key(role, f)]).trim())
      )
        continue;
      members[role] = {
        first_name: typed('first_name'),
        last_name: typed('last_name'),
        email: typed('email'),
      };
    }
    return members;
  });

  return {
    mode,
    draft,
    type,
    withCoclient,
    touched,
    submitted,
    serverSummary,
    prepared,
    messages,
    fill,
    loadRefusal,
    shown,
    invalid,
    phoneMessages,
    touch,
    typedMembers,
  };
}
