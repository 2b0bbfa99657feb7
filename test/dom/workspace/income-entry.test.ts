// @vitest-environment happy-dom
// A single-record section typed field after field: every amount and frequency reaches the save.

import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { choose, field, mountSection, one, outbox, press, settle, typeNumber } from './harness.ts';

unmountAfterEach();

describe('a member’s income', () => {
  it('keeps an amount and its frequency when the next field is typed', async () => {
    const { db } = await mountSection('income:client');
    const editor = one('single-income:client');
    await typeNumber(editor, 'employment', 135_000);
    await choose(editor, 'employment', 'Yearly');
    await typeNumber(editor, 'dividends', 3_200);
    await press('s', { ctrlKey: true });
    await vi.waitFor(async () => expect(await outbox(db)).toHaveLength(1));
    const [op] = await outbox(db);
    expect(op?.fields).toMatchObject({
      employment: { value: 135_000, frequency: 'yearly' },
      dividends: { value: 3_200 },
    });
  });

  it('keeps two amounts committed in the same moment (no change builds on a stale draft)', async () => {
    const { db } = await mountSection('income:client');
    const editor = one('single-income:client');
    const input = (name: string) => field(editor, name).querySelector('input') as HTMLInputElement;
    // Both number inputs commit on blur, one right after the other, before Vue renders again.
    for (const [name, value] of [
      ['employment', '90000'],
      ['dividends', '1200'],
    ] as const) {
      input(name).value = value;
      input(name).dispatchEvent(new FocusEvent('blur'));
    }
    await settle();
    await press('s', { ctrlKey: true });
    await vi.waitFor(async () => expect(await outbox(db)).toHaveLength(1));
    const [op] = await outbox(db);
    expect(op?.fields).toMatchObject({ employment: { value: 90_000 }, dividends: { value: 1_200 } });
  });
});
