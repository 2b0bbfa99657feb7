// What the account screens need from the user resource: permissions and the pipeline stages.
// The session's user when it was loaded this run (fresh after a team switch), else the copy the
// sync pulled into the local store, so the screens work offline from the first moment.

import { liveQuery } from 'dexie';
import { computed, onScopeDispose, shallowRef, type ComputedRef } from 'vue';
import {
  accountActionReason,
  permissionReason,
  type AccountAction,
  type AccountType,
} from '@shared/account-rules.ts';
import { readWire } from '@shared/wire/parse.ts';
import { User, type TemplateSummary } from '@shared/wire/v2/user.ts';
import type { AdvisorDb } from '../data/db.ts';
import { CONFIG_KEYS, configEntry } from '../data/queries/index.ts';
import { useSessionStore } from '../common/session.ts';

/** One entry of the user's `pipelines`: a stage of the pipeline of its account type. */
export interface PipelineStage {
  id: string;
  type: AccountType;
  title: string;
  description: string;
  icon: string;
  /** 1-based place in its pipeline. */
  position: number;
}

/** The stages of one account type, in the order of the user resource. */
export interface Pipeline {
  type: AccountType;
  /** `prospect` or `client`, as routes name it. */
  key: 'prospect' | 'client';
  label: string;
  stages: PipelineStage[];
}

export function stagesOf(user: User | null): PipelineStage[] {
  const seen: Record<string, number> = {};
  return (user?.pipelines ?? [])
    .filter((p) => p.type === 'CLIENT' || p.type === 'PROSPECT')
    .map((p) => {
      const type = p.type as AccountType;
      seen[type] = (seen[type] ?? 0) + 1;
      return {
        id: p.id,
        type,
        title: p.title || 'Untitled stage',
        description: p.description,
        icon: p.icon,
        position: seen[type],
      };
    });
}

export interface UserConfig {
  /** True when the permission is granted, or when permissions are not known yet (the platform decides). */
  can(key: string): boolean;
  /** Why a permission is missing, or null when granted. */
  reason(key: string): string | null;
  /** Why an action on accounts of a type is not allowed, or null. */
  actionReason(type: AccountType, action: AccountAction): string | null;
  stages: ComputedRef<PipelineStage[]>;
  pipelines: ComputedRef<Pipeline[]>;
  stage(id: string | null | undefined): PipelineStage | undefined;
  /** The user's own phone country, a sensible default for new phone numbers. */
  phoneCountry: ComputedRef<string | null>;
  /** The questionnaire templates the user may send (the user resource's `templates`). */
  templates: ComputedRef<TemplateSummary[]>;
  /** Whether the user resource is known here (signed in now, or read from the store). */
  loaded: ComputedRef<boolean>;
}

export function useUserConfig(db: AdvisorDb): UserConfig {
  const session = useSessionStore();
  const stored = shallowRef<unknown>(null);
  const read = shallowRef(false);
  const sub = liveQuery(() => configEntry(db, CONFIG_KEYS.user)).subscribe({
    next: (entry) => {
      stored.value = entry?.data ?? null;
      read.value = true;
    },
    error: () => {
      stored.value = null;
      read.value = true;
    },
  });
  onScopeDispose(() => sub.unsubscribe());

  const user = computed(() => readWire(User, session.user ?? stored.value));
  const permissions = computed(() => user.value?.permissions ?? null);
  const can = (key: string) => (permissions.value ? permissions.value[key] === true : true);
  const stages = computed(() => stagesOf(user.value));
  const pipelines = computed<Pipeline[]>(() =>
    (['PROSPECT', 'CLIENT'] as const)
      .map((type) => ({
        type,
        key: type === 'CLIENT' ? ('client' as const) : ('prospect' as const),
        label: type === 'CLIENT' ? 'Client pipeline' : 'Prospect pipeline',
        stages: stages.value.filter((s) => s.type === type),
      }))
      .filter((p) => p.stages.length > 0),
  );
  return {
    can,
    reason: (key) => (can(key) ? null : permissionReason(key)),
    actionReason: (type, action) => accountActionReason(can, type, action),
    stages,
    pipelines,
    stage: (id) => (id ? stages.value.find((s) => s.id === id) : undefined),
    phoneCountry: computed(() => (user.value?.phone?.country ?? '').toUpperCase() || null),
    templates: computed(() => user.value?.templates ?? []),
    loaded: computed(() => session.user !== null || read.value),
  };
}
