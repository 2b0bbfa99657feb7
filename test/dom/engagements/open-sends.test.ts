// What a member already has open, which the send dialogs ask about before sending the same again
// (issue 23: "Annual review" sent twice to Ella without a word): a questionnaire of that template
// to that member not completed, and not with a close of it waiting here; another member, another
// template or a completed one is not asked about. Over the local store (fake-indexeddb), written
// as a pull and the change module leave it.

import { describe, expect, it } from 'vitest';
import { queueCloseEngagement, queueReopenEngagement } from '../../../renderer/src/data/changes/index.ts';
import { openEngagements } from '../../../renderer/src/data/queries/index.ts';
import { INTAKE, RISK, engagement, user } from './harness.ts';
import { household, openDb } from '../workspace/harness.ts';

describe('the questionnaires a member already has open', () => {
  it('are those of the template to that member, not completed, with no close waiting', async () => {
    const db = openDb();
    await user(db);
    const account = await household(db);
    await db.accounts.update(account.id, { meta: { ...account.meta, clientId: 71, coclientId: 72 } });
    await db.engagements.bulkPut([
      engagement('e-open', 7, 71, { created_at: '2026-11-20 09:00:00' }),
      engagement('e-older', 7, 71, { created_at: '2026-11-02 09:00:00', opened_at: '2026-11-03 09:00:00' }),
      engagement('e-done', 7, 71, { status: 'COMPLETED', completed_at: '2026-11-05 09:00:00' }),
      engagement('e-coclient', 7, 72, {}),
      engagement('e-intake', 7, 71, { template_id: INTAKE.id, title: INTAKE.title }),
    ]);
    const ids = async () => (await openEngagements(db, account.id, 'client', RISK.id)).map((e) => e.id);
    // Oldest first; the completed one, the co-client's and another template's are not asked about.
    expect(await ids()).toEqual(['e-older', 'e-open']);
    expect((await openEngagements(db, account.id, 'coclient', RISK.id)).map((e) => e.id)).toEqual([
      'e-coclient',
    ]);

    // Closed here (waiting to be sent), the advisor has ended it; reopened again, it is open.
    await queueCloseEngagement(db, 'e-older');
    expect(await ids()).toEqual(['e-open']);
    await queueReopenEngagement(db, 'e-older');
    expect(await ids()).toEqual(['e-older', 'e-open']);
  });

  it('are none for a household not on the platform yet', async () => {
    const db = openDb();
    await user(db);
    const account = await household(db);
    await db.accounts.update(account.id, { serverId: null });
    expect(await openEngagements(db, account.id, 'client', RISK.id)).toEqual([]);
  });
});
