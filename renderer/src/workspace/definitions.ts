// A section form's fields with the allowed values the platform defines (`/define`, kept in the
// config table by sync/pull/definitions.ts), read live so that a pull shows in an open form; the
// built-in table's until one is held (shared/allowed-values.ts says how the two combine).

import { computed, type ComputedRef } from 'vue';
import { definedFields, type AllowedByEntity } from '@shared/allowed-values.ts';
import type { FormField, SectionForm } from '@shared/forms.ts';
import { useLiveRead } from '../common/live-read.ts';
import type { AdvisorDb } from '../data/db.ts';
import { CONFIG_KEYS, configEntry } from '../data/queries.ts';

export function useDefinedFields(db: AdvisorDb, form: () => SectionForm): ComputedRef<readonly FormField[]> {
  const held = useLiveRead(
    async () => (await configEntry<AllowedByEntity>(db, CONFIG_KEYS.definitions))?.data,
    [],
    'The allowed values',
  );
  return computed(() => definedFields(form(), held.value?.[form().entity]));
}
