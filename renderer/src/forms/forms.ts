// What the Forms screens share: the forms read live from the local store (the team's or an
// account's), their status and dates in words, the search and filter of the list, and the
// preview: the address the platform gives for a form, opened in the system browser or copied.

import { liveQuery, type Subscription } from 'dexie';
import { onBeforeUnmount, shallowRef, watch, type Ref } from 'vue';
import type { ApiFailure } from '@shared/api/request.ts';
import { readWire } from '@shared/wire/parse.ts';
import { FormPreview } from '@shared/wire/v0/forms.ts';
import { bridge } from '../common/bridge/index.ts';
import type { AdvisorDb } from '../data/db.ts';
import type { FormRow } from '../data/model.ts';
import { formEntries, type FormEntry } from '../data/queries/form-list.ts';
import { formatDate } from '../household/values.ts';

export type { FormEntry };
export * from './form-words.ts';

/** The forms of the account `accountId` (undefined: the team's), live; null until first read. */
export function useFormEntries(db: AdvisorDb, accountId: Ref<string | undefined>): Ref<FormEntry[] | null> {
  const entries = shallowRef<FormEntry[] | null>(null);
  let subscription: Subscription | null = null;
  watch(
    accountId,
    (id) => {
      subscription?.unsubscribe();
      entries.value = null;
      subscription = liveQuery(() => formEntries(db, id)).subscribe({
        next: (value) => (entries.value = value),
        error: (error: unknown) => console.error('The forms could not be read.', error),
      });
    },
    { immediate: true },
  );
  onBeforeUnmount(() => subscription?.unsubscribe());
  return entries;
}

/** A platform timestamp (`2026-11-26 10:00:00`) as the user reads dates; '' when there is none. */
export const formDate = (stamp: string | null) => (stamp ? formatDate(stamp) : '');

export type PreviewAnswer = { ok: true; url: string } | { ok: false; message: string };

/**
 * The preview address the platform gives for a form (`GET …/forms/{key}/preview`, `{url}`).
 * Online only: a preview shows the form as the platform holds it now.
 */
export async function previewAddress(form: FormRow): Promise<PreviewAnswer> {
  const res = await bridge().api.request({
    api: 'v0',
    method: 'GET',
    path: `/accounts/${form.accountServerId}/forms/${encodeURIComponent(form.key)}/preview`,
    priority: 'interactive',
  });
  if (!res.ok) return { ok: false, message: failureWords(res) };
  const read = readWire(FormPreview, res.data);
  if (!read || !/^https?:\/\//.test(read.url))
    return { ok: false, message: 'The platform did not give an address for this form’s preview.' };
  return { ok: true, url: read.url };
}

const failureWords = (failure: ApiFailure) =>
  ['network', 'timeout', 'unavailable'].includes(failure.kind)
    ? 'The preview needs the platform, which cannot be reached now.'
    : failure.kind === 'not-found'
      ? 'The platform no longer has this form.'
      : `The platform did not give the preview: ${failure.message}`;

/**
 * Opens the address in the system browser: the window's open handler lets out https, and the
 * sandbox's loopback http only (electron/main/security.ts `opensExternally`).
 */
export function openInBrowser(url: string): void {
  window.open(url, '_blank', 'noopener');
}
