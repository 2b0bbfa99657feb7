// @vitest-environment happy-dom
// A date of birth in 1800 (issue 23, point 2): it was saved in one click, its warning vanished
// once saved, and Data quality counted it as on file. Now the advisor confirms it first; the
// confirmation is remembered on this computer per household and field and survives a reload; the
// warning stays on the field and on the overview; and the quality rule does not count it.

import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import {
  ANN_DETAILS,
  click,
  confirmBox,
  confirmedOf,
  inputOf,
  mountMemberDetails,
  mountWorkspace,
  notesOf,
  one,
  outbox,
  settle,
  typeDate,
  typeText,
} from './harness.ts';

unmountAfterEach();

const WARNING = 'Date of birth is more than 120 years ago: check the year.';

describe('an implausible date of birth', () => {
  it('is confirmed once, remembered across a reload, and not counted as on file', async () => {
    const first = await mountMemberDetails();
    const { db, account } = first;
    let page = first.page;
    await typeDate(page, 'birth_date', 1800, 1, 1);
    await click(one('single-save'));
    expect(await outbox(db)).toEqual([]);
    confirmBox(page, 'birth_date')!.click();
    await settle();
    await click(one('single-save'));
    expect((await outbox(db))[0]?.fields).toEqual({ birth_date: '1800-01-01' });

    // A reload: the workspace read again from the store.
    first.wrapper.unmount();
    document.body.innerHTML = '';
    const mounted = await mountWorkspace(db, account.id, { tab: 'members', member: 'client' });
    await settle();
    page = one('single-details:client');
    expect(notesOf(page, 'birth_date')).toBe(WARNING);
    expect(confirmedOf(page, 'birth_date')).toBe('Confirmed as right on this computer.');
    expect(confirmBox(page, 'birth_date')).toBeNull();

    // The overview: the rule is not met, and says why.
    await mounted.router.replace({ query: { tab: 'overview' } });
    await settle();
    const rule = [...one('quality').querySelectorAll('li')].find((li) =>
      li.textContent?.includes('Client date of birth'),
    );
    expect(rule?.getAttribute('data-rule')).toBe('missing');
    expect(rule?.querySelector('.rule-state')?.textContent).toBe('To check');
    expect(rule?.querySelector('[data-testid="quality-doubt"]')?.textContent).toBe(
      `${new Intl.DateTimeFormat(navigator.language, { dateStyle: 'medium' }).format(new Date(1800, 0, 1))}: ${WARNING} Confirmed as right on this computer; not counted as on file.`,
    );
    // The estimate made after the change does not count it either.
    const quality = (await db.accounts.get(account.id))?.meta.quality;
    expect(quality?.rules.find((r) => r.message === 'Client date of birth is on file')?.valid).toBe(false);
  });

  it('held from the platform is said on its field, and another field saves without confirming it', async () => {
    const { db, page } = await mountMemberDetails({ ...ANN_DETAILS, birth_date: '1800-01-01 00:00:00' });
    expect(notesOf(page, 'birth_date')).toBe(WARNING);
    expect(confirmBox(page, 'birth_date')).not.toBeNull();
    await typeText(inputOf(page, 'comments'), 'Prefers mornings.');
    await click(one('single-save'));
    expect((await outbox(db))[0]?.fields).toEqual({ comments: 'Prefers mornings.' });

    // Confirmed without a change: remembered at once, nothing queued.
    confirmBox(page, 'birth_date')!.click();
    await settle();
    expect(confirmedOf(page, 'birth_date')).toBe('Confirmed as right on this computer.');
    expect(await outbox(db)).toHaveLength(1);
  });
});
