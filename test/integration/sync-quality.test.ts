// The quality score estimated offline and the sandbox platform's answer agree: both come from the
// rules of shared/quality.ts. A household made offline with its members' details is estimated at
// once; pushed over real HTTP and pulled back, the platform's answer takes the estimate's place
// with the same score and rules.

import { expect, it } from 'vitest';
import { createRecord } from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { PullEngine } from '../../renderer/src/sync/pull/index.ts';
import { PushEngine } from '../../renderer/src/sync/push/index.ts';
import { sandbox } from '../support/sandbox.ts';
import { storePerTest } from '../support/store.ts';
import { ADVISOR, sandboxUser } from '../support/sandbox-client.ts';

const platform = sandbox({ accounts: 5 });
const advisor = sandboxUser(platform, ADVISOR, { perTest: true });
let db: AdvisorDb;

storePerTest((fresh) => (db = fresh));

it('estimates a household made offline as the platform then scores it', async () => {
  const stamp = Date.now();
  const { id } = await createRecord(db, 'accounts', {
    fields: {
      type: 'PROSPECT',
      'client.first_name': 'Iris',
      'client.last_name': 'Quality',
      'client.email': `iris-${stamp}@example.com`,
      'coclient.first_name': 'Ivo',
      'coclient.last_name': 'Quality',
      'coclient.email': `ivo-${stamp}@example.com`,
    },
  });
  await createRecord(db, 'singles', {
    accountId: id,
    key: 'details:client',
    fields: {
      phone: '+15125550111',
      birth_date: '1975-09-30',
      marital_status: 'married',
      'citizenship.country': 'US',
      'address.line1': '5 Park Pl',
      'address.city': 'Albany',
      'address.state': 'NY',
      'address.zip': '12207',
      'address.country': 'US',
      risk_score: 7,
    },
  });
  await createRecord(db, 'singles', {
    accountId: id,
    key: 'details:coclient',
    fields: { birth_date: '1977-01-02' },
  });
  const estimate = (await db.accounts.get(id))?.meta.quality;
  // Everything but the client's driver's license (6 of 69).
  expect(estimate).toMatchObject({ score: Math.round((100 * 63) / 69), estimated: true });

  const pushed = await new PushEngine({ db, send: advisor.send, backoff: { baseMs: 0 } }).run();
  expect(await db.outbox.count(), JSON.stringify(pushed)).toBe(0);
  await new PullEngine({ db, send: advisor.send }).pullAccount(id);

  const answered = (await db.accounts.get(id))?.meta.quality;
  expect(answered?.estimated).toBeUndefined();
  const { estimated: _estimated, ...estimated } = estimate!;
  expect(answered).toEqual(estimated);
});
