// @vitest-environment happy-dom
// Numbers typed into the workspace's forms: letters never wipe a value (the field keeps it and
// says why, and nothing is queued), and an advisor's shorthand is saved as what they meant.

import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import {
  ANN_DETAILS,
  blur,
  choose,
  click,
  dialog,
  inputOf,
  messagesOf,
  mountMemberDetails,
  one,
  openNewItem,
  outbox,
  settle,
  typeText,
} from './harness.ts';

unmountAfterEach();

describe('numbers typed into a form', () => {
  it('letters in Previous marriages keep the number, say why, and queue nothing', async () => {
    const { db, page } = await mountMemberDetails({ ...ANN_DETAILS, previous_marriages: 2 });
    const marriages = inputOf(page, 'previous_marriages');
    expect(marriages.value).toBe('2');

    await typeText(marriages, 'abc');
    await blur(marriages);
    expect(messagesOf(page, 'previous_marriages')).toBe(
      'Previous marriages: “abc” is not a number: type a whole number such as 3. Until then it keeps 2.',
    );
    // Nothing changed, so nothing to save, and nothing was queued.
    expect(page.querySelector('[data-testid="unsaved"]')).toBeNull();
    await click(one('single-save'));
    expect(await outbox(db)).toEqual([]);

    // A number again: the message goes and the number is saved.
    await typeText(marriages, '3');
    await blur(marriages);
    expect(messagesOf(page, 'previous_marriages')).toBe('');
    await click(one('single-save'));
    const [details] = await outbox(db);
    expect(details?.fields).toEqual({ previous_marriages: 3 });
  });

  it('an amount typed as 1.5m is saved as 1,500,000, and “1e6” is refused before any save', async () => {
    const { db } = await openNewItem('assets');

    await choose(dialog(), 'type', 'Primary residence');
    await typeText(inputOf(dialog(), 'name'), 'Lake house');
    await choose(dialog(), 'owner', 'Joint');
    const value = inputOf(dialog(), 'current_value');
    await typeText(value, '1e6');
    // Saving while the field holds a text it could not read: refused, said, nothing queued.
    await click(one('item-save'));
    expect(messagesOf(dialog(), 'current_value')).toBe(
      'Current value: “1e6” is a power of ten: type it in full, such as 1000000, or as 1m. Until then the field stays empty.',
    );
    expect(await outbox(db)).toEqual([]);

    await typeText(value, '1.5m');
    await blur(value);
    expect(value.value).toBe('$1,500,000');
    await typeText(inputOf(dialog(), 'original_value'), '12k');
    await blur(inputOf(dialog(), 'original_value'));
    await click(one('item-save'));
    const [created] = await outbox(db);
    expect(created?.fields).toMatchObject({
      current_value: { value: 1_500_000 },
      original_value: { value: 12_000 },
    });
  });

  it('an amount typed key by key is grouped as it grows, and a mark typed by the user is never dropped', async () => {
    await openNewItem('assets');
    const value = inputOf(dialog(), 'current_value');
    value.focus();
    const key = async (typed: string) => {
      value.value += typed;
      value.setSelectionRange(value.value.length, value.value.length);
      value.dispatchEvent(new Event('input', { bubbles: true }));
      await settle();
    };
    for (const digit of '420000') await key(digit);
    expect(value.value).toBe('$420,000');
    // Backspace at the end regroups too.
    value.value = value.value.slice(0, -1);
    value.dispatchEvent(new Event('input', { bubbles: true }));
    await settle();
    expect(value.value).toBe('$42,000');

    // A comma typed by hand stays, and "1,5" is refused rather than read as 15.
    value.value = '';
    value.dispatchEvent(new Event('input', { bubbles: true }));
    for (const typed of ['1', ',', '5']) await key(typed);
    await blur(value);
    expect(value.value).toBe('$1,5');
    expect(messagesOf(dialog(), 'current_value')).toContain('“$1,5” could be read two ways');
  });
});
