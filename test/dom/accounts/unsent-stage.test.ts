// @vitest-environment happy-dom
// A prospect made offline (issue 23, point 18) showed its stage as "—": version 2 takes no stage
// when an account is created, and the platform places a new account in the first stage of its
// type's pipeline once it has it. Until then the list says that stage, and that it comes when
// the account is sent; an account on the platform without a stage still reads "—".

import { describe, expect, it } from 'vitest';
import { createRecord } from '../../../renderer/src/data/changes/index.ts';
import { account, mountAt, screensPerTest, settle, userConfig } from './harness.ts';

const screen = screensPerTest();

const stageCell = (name: string) =>
  [...document.querySelectorAll<HTMLElement>('.account-row')]
    .find((r) => r.textContent?.includes(name))
    ?.querySelector<HTMLElement>('.c-type')?.nextElementSibling;

describe('the stage of a new account not sent yet', () => {
  it('is the first stage of its pipeline, said to come when it is sent', async () => {
    await userConfig(screen.db);
    // As the account dialog saves a new prospect: no stage among its fields.
    await createRecord(screen.db, 'accounts', {
      fields: {
        type: 'PROSPECT',
        'client.first_name': 'Nia',
        'client.last_name': 'Offline',
        'client.email': 'nia@example.com',
      },
    });
    await account(screen.db, { first: 'Bob', last: 'Xu', type: 'PROSPECT', stage: 'gone' });
    screen.mounted = await mountAt(screen.db, '/accounts');
    await settle();
    const nia = stageCell('Nia Offline');
    expect(nia?.textContent?.trim()).toBe('Onboard (when sent)');
    expect(nia?.querySelector('.stage-cell')?.getAttribute('title')).toBe(
      'The platform places a new account in the first stage of its pipeline once it has it.',
    );
    // On the platform, in a stage the user resource does not list: no stage to name.
    expect(stageCell('Bob Xu')?.textContent?.trim()).toBe('—');
  });
});
