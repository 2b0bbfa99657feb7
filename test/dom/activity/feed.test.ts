// The advisor's feed as the Activity screens show it, from rows as the feed pull stores them:
// each of the document's 20 types named in plain words with an icon and a colour, the filter by
// type, the account an entry is about (by the name its description gives), and "as of" the pull.

import { describe, expect, it } from 'vitest';
import { USER_ACTIVITY_TYPES } from '@shared/wire/v0/user.ts';
import { FEED_TYPES, activityType, typeOptions } from '../../../renderer/src/activity-feed/activity-types.ts';
import {
  feedPage as readPage,
  feedPulledAt,
  withAccounts,
} from '../../../renderer/src/activity-feed/feed.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { userActivityRow } from '../../../renderer/src/data/records.ts';
import { USER_ACTIVITY_STATE } from '../../../renderer/src/sync/pull/feed.ts';
import { clientFields, openDb, syncedAccount } from '../../support/store.ts';

/** A page as the screens show it: read, then linked to accounts. */
const feedPage = async (db: AdvisorDb, q: { type?: string; limit: number }) =>
  withAccounts(db, await readPage(db, q));

let nextId = 1;
/** A feed item as `/user/activities` sends it, stored as the pull stores it. */
async function feedItem(db: AdvisorDb, type: string, description: string, created_at: string) {
  const id = nextId++;
  const row = userActivityRow(
    { id, type, icon: 'mdi-x', icon_color: 'primary', title: 'T', description, created_at },
    1,
  );
  await db.userActivity.put(row!);
  return id;
}

describe('activity types', () => {
  it('names each of the document’s 20 feed types in plain words, with an icon and a colour of its own', () => {
    expect(FEED_TYPES.map((t) => t.type)).toEqual([...USER_ACTIVITY_TYPES]);
    expect(FEED_TYPES).toHaveLength(20);
    const labels = FEED_TYPES.map((t) => t.label);
    expect(new Set(labels).size).toBe(20);
    for (const t of FEED_TYPES) {
      // Words, not the platform's key.
      expect(t.label).not.toMatch(/\./);
      expect(t.icon).toMatch(/^pi pi-[a-z-]+$/);
      expect(['added', 'removed', 'changed', 'sent', 'done', 'warning', 'neutral']).toContain(t.tone);
    }
    expect(activityType('form.sent').label).toBe('Form sent');
    expect(activityType('form.closed').label).toBe('Form closed');
    expect(activityType('account.security.reset').label).toBe('Form access reset');
  });

  it('shows a type a newer platform adds in its own words, and offers it in the filter', () => {
    const kind = activityType('form.archived');
    expect(kind.label).toBe('Form archived');
    expect(kind.tone).toBe('neutral');
    const options = typeOptions(['form.sent'], ['form.archived', 'form.sent']);
    expect(options.map((o) => o.label)).toEqual(['Form sent', 'Form archived']);
  });
});

describe('the feed', () => {
  it('names a section as its heading does, never by the platform’s type name (issue 23)', async () => {
    const db = openDb();
    const ann = await syncedAccount(db, 13, clientFields('Ann'));
    // As the platform describes these (the sandbox's wording).
    await feedItem(
      db,
      'account.currentdata.updated',
      'ExpenseFixed data of Ann Tester was updated',
      '2026-03-04 10:00:00',
    );
    await feedItem(
      db,
      'account.currentdata.updated',
      'FamilyMember data of Ann Tester was updated',
      '2026-03-03 10:00:00',
    );
    await feedItem(
      db,
      'account.currentdata.updated',
      'Plan data of Ann Tester was updated',
      '2026-03-02 10:00:00',
    );
    const page = await feedPage(db, { limit: 10 });
    expect(page.entries.map((e) => e.description)).toEqual([
      'Fixed expenses data of Ann Tester was updated',
      'Family data of Ann Tester was updated',
      'Retirement and college plans data of Ann Tester was updated',
    ]);
    expect(page.entries.every((e) => e.accountId === ann.id)).toBe(true);
  });

  it('lists entries newest first, filtered by type, each linked to the account its description names', async () => {
    const db = openDb();
    const jonas = await syncedAccount(db, 11, { ...clientFields('Jonas'), 'client.last_name': 'Lindqvist' });
    await syncedAccount(db, 12, { ...clientFields('Maria'), 'client.last_name': 'Berg' });
    await feedItem(db, 'form.sent', '“Risk profile” was sent to Jonas Lindqvist', '2026-03-01 10:00:00');
    await feedItem(db, 'form.closed', '“Risk profile” of Jonas Lindqvist was closed', '2026-03-03 10:00:00');
    await feedItem(db, 'form.sent', '“Goals” was sent to Someone Elsewhere', '2026-03-02 10:00:00');

    const all = await feedPage(db, { limit: 10 });
    expect(all.total).toBe(3);
    expect(all.entries.map((e) => e.kind.label)).toEqual(['Form closed', 'Form sent', 'Form sent']);
    expect(all.entries[0]?.accountId).toBe(jonas.id);
    // An account not on this computer: no link rather than a wrong one.
    expect(all.entries[1]?.accountId).toBeNull();

    const sent = await feedPage(db, { type: 'form.sent', limit: 10 });
    expect(sent.total).toBe(2);
    expect(sent.entries.every((e) => e.kind.type === 'form.sent')).toBe(true);
    expect(sent.entries[1]?.description).toBe('“Risk profile” was sent to Jonas Lindqvist');
    expect(sent.entries[1]?.accountId).toBe(jonas.id);

    // Paged: the newest first, the rest on demand.
    const first = await feedPage(db, { limit: 1 });
    expect(first.entries).toHaveLength(1);
    expect(first.total).toBe(3);
  });

  it('links to no account when two accounts bear the name, nor on a name inside another word', async () => {
    const db = openDb();
    await syncedAccount(db, 21, {
      ...clientFields('Ann'),
      'client.last_name': 'Lee',
      'client.email': 'a1@x.test',
    });
    await syncedAccount(db, 22, {
      ...clientFields('Ann'),
      'client.last_name': 'Lee',
      'client.email': 'a2@x.test',
    });
    const leeds = await syncedAccount(db, 23, { ...clientFields('Joann'), 'client.last_name': 'Leeds' });
    await feedItem(db, 'form.sent', '“Goals” was sent to Ann Lee', '2026-03-01 10:00:00');
    await feedItem(db, 'form.sent', '“Goals” was sent to Joann Leeds', '2026-03-02 10:00:00');
    const page = await feedPage(db, { limit: 10 });
    expect(page.entries.map((e) => e.accountId)).toEqual([leeds.id, null]);
  });

  it('says when the feed was pulled, and that it never was', async () => {
    const db = openDb();
    expect(await feedPulledAt(db)).toBeNull();
    expect((await feedPage(db, { limit: 10 })).total).toBe(0);
    await db.meta.put({
      key: USER_ACTIVITY_STATE,
      value: { newestCreatedAt: '2026-03-01 10:00:00', pulledAt: 1_700_000_000_000, sweptAt: 1 },
    });
    expect(await feedPulledAt(db)).toBe(1_700_000_000_000);
  });
});
