// What the engaged member does on the platform, which no interface of the app can do: opens an
// engagement, fills part of it, completes it with answers, documents and signatures, or is reminded.
// Driven by the control endpoint `POST /__sandbox/engagements/{id}/member`; the same seed and
// engagement give the same answers and files.

import { ApiError, notFound } from './errors.ts';
import type { EngagementRecord } from './model.ts';
import { randomFor } from './random.ts';
import { fillAnswers } from './seed.ts';
import type { Store } from './store.ts';
import { completeEngagement, recordEmail } from './v2/engagements.ts';

export const MEMBER_ACTIONS = ['open', 'fill', 'complete', 'remind'] as const;
export type MemberAction = (typeof MEMBER_ACTIONS)[number];

/** A number from the engagement's id, so that two engagements under one seed differ. */
const idKey = (id: string) =>
  [...id].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0, 0x811c9dc5);

export function actAsMember(store: Store, id: string, action: MemberAction, seed: number): EngagementRecord {
  const e = store.state.engagements.find((x) => x.id === id);
  if (!e) throw notFound('Engagement');
  const account = store.state.accounts.find((a) => a.id === e.account_id);
  const member = account && [account.client, account.coclient].find((m) => m?.id === e.member_id);
  const template = store.state.templates.find((t) => t.id === e.template_id);
  if (!account || !member || !template) throw notFound('Engagement member or template');
  if (action === 'remind') {
    e.reminded_at = store.now();
    if (e.email_reminders) recordEmail(store, e, 'reminder');
    return e;
  }
  // PLATFORM-FACTS.md: a completed engagement cannot be opened by the contact until it is reopened.
  if (e.status === 'COMPLETED')
    throw new ApiError(409, 'The engagement is completed; the member can open it again once it is reopened.');
  e.opened_at ??= store.now();
  if (action === 'open') return e;
  // Filled anew each time: the answers of this seed, a part of them or all.
  e.answers = [];
  e.documents = [];
  e.signatures = [];
  fillAnswers(store.state, e, template, member, randomFor(seed, idKey(e.id)), true, action === 'complete');
  // Filled twice with one seed, an uploaded file's profile value is the same value, kept once.
  const seen = new Set<string>();
  account.profile = account.profile.filter((v) => !seen.has(v.id) && seen.add(v.id));
  if (action === 'complete') {
    // Every question answered, the signature too (which the answers do not list).
    e.filled = 100;
    completeEngagement(store, e, e.name, `${e.name} completed “${e.title}”`);
    if (e.email_completed) recordEmail(store, e, 'completed');
  }
  return e;
}
