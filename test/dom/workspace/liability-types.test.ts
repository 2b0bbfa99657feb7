// @vitest-environment happy-dom
// A liability's type (issue 23, point 18): "Fixed" and "Adjustable-rate mortgage" read unclear
// beside a car loan, and a type could end up chosen without the advisor choosing it. The 0.0.1
// document's values (arm, fixed, int-only, auto, business, credit-line, personal, school,
// credit-card, other) are kinds of loan, the first three the kinds of mortgage: each is named as
// the loan it is, and a new liability has no type until the advisor picks one.

import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import {
  click,
  dialog,
  field,
  messagesOf,
  one,
  openNewItem,
  optionsOpen,
  outbox,
  press,
  settle,
} from './harness.ts';

unmountAfterEach();

describe('a liability’s type', () => {
  it('names each kind of loan, starts unchosen, and is not saved by default', async () => {
    const { db } = await openNewItem('liabilities');
    const type = field(dialog(), 'type');
    expect(type.querySelector('.p-select-label')?.textContent?.trim()).toBe('Choose…');

    type.querySelector<HTMLElement>('[role="combobox"]')!.focus();
    await press(' ', { code: 'Space' });
    expect(optionsOpen().map((o) => o.textContent?.trim())).toEqual([
      'Mortgage, adjustable rate (ARM)',
      'Mortgage, fixed rate',
      'Mortgage, interest only',
      'Auto loan',
      'Business loan',
      'Line of credit',
      'Personal loan',
      'Student loan',
      'Credit card',
      'Other',
    ]);
    // Opened, nothing is highlighted as if chosen; closed again, nothing is chosen.
    expect(optionsOpen().some((o) => o.getAttribute('aria-selected') === 'true')).toBe(false);
    await press('Escape');
    await settle();
    expect(type.querySelector('.p-select-label')?.textContent?.trim()).toBe('Choose…');
    await click(one('item-save'));
    expect(messagesOf(dialog(), 'type')).toBe('Type: required, choose one from the list.');
    expect(await outbox(db)).toEqual([]);
  });
});
