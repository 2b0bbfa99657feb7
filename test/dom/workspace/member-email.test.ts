// @vitest-environment happy-dom
// A member's e-mail the account's other member has (issue 23, point 18): the 0.0.1 document
// makes e-mail addresses unique per account, and the platform refused the co-client's with
// "E-mail: enter an e-mail address such as name@example.com", which is not what is wrong. It is
// checked before anything is queued, and both the check and the platform's refusal say what is.

import { describe, expect, it } from 'vitest';
import { MEMBER_FIELDS } from '@shared/section-forms/member-form.ts';
import { readableMessage } from '@shared/section-forms/server-messages.ts';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { outbox } from '../../support/store.ts';
import {
  click,
  household,
  inputOf,
  messagesOf,
  mountWorkspace,
  one,
  openDb,
  syncedSingle,
  typeText,
} from './harness.ts';

unmountAfterEach();

const SAID = 'E-mail: the other member of the account has this address: enter this member’s own.';

describe('a member’s e-mail the other member has', () => {
  it('is refused before it is queued, saying what is wrong', async () => {
    const db = openDb();
    const account = await household(db);
    await syncedSingle(db, account.id, 'details:coclient', {
      first_name: 'Bob',
      last_name: 'Tester',
      email: 'bob@example.com',
    });
    await mountWorkspace(db, account.id, { tab: 'members', member: 'coclient' });
    const page = one('single-details:coclient');
    // The client's address (household(): ann@example.com), typed in another case.
    await typeText(inputOf(page, 'email'), ' Ann@Example.com');
    await click(one('single-save'));
    expect(messagesOf(page, 'email')).toBe(SAID);
    expect(await outbox(db)).toEqual([]);

    await typeText(inputOf(page, 'email'), 'bob.tester@example.com');
    expect(messagesOf(page, 'email')).toBe('');
    await click(one('single-save'));
    expect((await outbox(db))[0]?.fields).toEqual({ email: 'bob.tester@example.com' });
  });

  it('refused by the platform, reads the same', () => {
    expect(
      readableMessage('email is invalid: each member of an account needs their own address.', MEMBER_FIELDS),
    ).toBe(SAID);
    // Any other detail of an invalid e-mail is still given in the platform's words.
    expect(readableMessage('email is invalid.', MEMBER_FIELDS)).toBe(
      'E-mail: enter an e-mail address such as name@example.com.',
    );
  });
});
