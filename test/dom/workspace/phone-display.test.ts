// @vitest-environment happy-dom
// Phones written one way wherever they are shown (issue 23, point 18): the walk found the same
// kind of number as "+16927088843" (as the platform keeps it), "+1 692 708 8843" (as typed) and
// "+1 6927088843" (an account's calling code and number). Shown, each reads `+1 692 708 8843`;
// a number without its country code stays as typed, as its country is unknown.

import { describe, expect, it } from 'vitest';
import { sectionForm } from '@shared/section-forms/build.ts';
import { phoneText } from '../../../renderer/src/household/phone.ts';
import { displayValue } from '../../../renderer/src/household/values.ts';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { clientFields } from '../../support/store.ts';
import { mountWorkspace, one, openDb, pulledInFull, syncedAccount, syncedSingle } from './harness.ts';

unmountAfterEach();

describe('a phone number shown', () => {
  it('reads one way on the overview, in the summary and the exports', async () => {
    const db = openDb();
    const account = await pulledInFull(
      db,
      await syncedAccount(db, 7, {
        ...clientFields('Ann'),
        'client.phone.code': '+1',
        'client.phone.number': '6927088843',
        'coclient.first_name': 'Bob',
        'coclient.last_name': 'Tester',
        'coclient.email': 'bob@example.com',
        'coclient.phone.code': '+1',
        'coclient.phone.number': '692 708 8844',
      }),
    );
    // As the platform keeps a member's details: the number in one piece.
    await syncedSingle(db, account.id, 'details:client', {
      first_name: 'Ann',
      last_name: 'Tester',
      email: 'ann@example.com',
      phone: '+16927088843',
    });
    await mountWorkspace(db, account.id);
    const member = (m: string) => one('overview-members').querySelector(`[data-member="${m}"]`)?.textContent;
    expect(member('client')).toContain('+1 692 708 8843');
    expect(member('coclient')).toContain('+1 692 708 8844');

    // A contact's phone as the summary and the exports write it (displayValue).
    const phone = sectionForm('contacts')!.fields.find((f) => f.name === 'phone')!;
    expect(displayValue(phone, '+1 692-708-8845', () => '')).toBe('+1 692 708 8845');
  });

  it('keeps a number without its country code as typed, and groups other countries’ numbers', () => {
    expect(phoneText('555-0100')).toBe('555-0100');
    expect(phoneText('+44 7911 123456')).toBe('+44 791 112 3456');
    expect(phoneText('+35312345678')).toBe('+353 1 234 5678');
    expect(phoneText('')).toBe('');
  });
});
