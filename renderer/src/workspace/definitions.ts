// A form's fields with the allowed values the platform defines (`/define`, kept in the config
// table by sync/pull/definitions.ts), read live so that a pull shows in an open form; the built-in
// table's until one is held (shared/allowed-values.ts says how the two combine).

import { computed, type ComputedRef } from 'vue';
import { definedFieldList, type AllowedByEntity } from '@shared/allowed-values.ts';
import type { FormField, SectionForm } from '@shared/section-forms/form.ts';
import { useLiveRead } from '../common/live-read.ts';
import type { AdvisorDb } from '../data/db.ts';
import { CONFIG_KEYS, configEntry } from '../data/queries/index.ts';
import type { FieldGroup } from '../household/values.ts';

function useHeldDefinitions(db: AdvisorDb) {
  return useLiveRead(
    async () => (await configEntry<AllowedByEntity>(db, CONFIG_KEYS.definitions))?.data,
    [],
    'The allowed values',
  );
}

/** A section form's fields (its entity's definition: `Plan`, `Income` …); none without a form. */
export function useDefinedFields(
  db: AdvisorDb,
  form: () => SectionForm | undefined,
): ComputedRef<readonly FormField[]> {
  const held = useHeldDefinitions(db);
  return computed(() => {
    const f = form();
    return f ? definedFieldList(f.fields, held.value?.[f.entity]) : [];
  });
}

/** A form's groups of fields, as the definition of `entity` (`FullMember`) gives their lists. */
export function useDefinedGroups(
  db: AdvisorDb,
  entity: string,
  groups: readonly FieldGroup[],
): ComputedRef<readonly FieldGroup[]> {
  const held = useHeldDefinitions(db);
  return computed(() =>
    groups.map((g) => ({ ...g, fields: definedFieldList(g.fields, held.value?.[entity]) })),
  );
}
