// @vitest-environment happy-dom
// Choosing from a drop-down by keyboard (issue 23, point 16): typing in a long list's filter and
// Enter picks the match the list highlights (the only one, or the first); Enter on a closed
// drop-down moves to the next field, as the dialog's hint "Enter next field" says, whether the
// list can be filtered or not, and a frequency select beside an amount moves on too.

import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import {
  dialog,
  field,
  mountMemberDetails,
  mountSection,
  one,
  optionsOpen,
  outbox,
  press,
  settle,
  typeText,
} from './harness.ts';

unmountAfterEach();

const combobox = (name: string) =>
  field(dialog(), name).querySelector<HTMLElement>('[role="combobox"]') as HTMLElement;
const shown = (name: string) => field(dialog(), name).querySelector('.p-select-label')?.textContent?.trim();
const filterInput = () =>
  [...document.body.querySelectorAll<HTMLInputElement>('.p-select-overlay input')].at(-1) as HTMLInputElement;

describe('a drop-down by keyboard', () => {
  it('Enter in the filter picks the only match, and Enter on the closed list moves on', async () => {
    const { page } = await mountMemberDetails();
    const country = field(page, 'citizenship.country');
    const select = country.querySelector<HTMLElement>('[role="combobox"]') as HTMLElement;

    // Closed, with a filter (a long list): Enter moves on to the next field and chooses nothing.
    select.focus();
    await press('Enter');
    await vi.waitFor(() => expect(field(page, 'email').contains(document.activeElement)).toBe(true));
    expect(optionsOpen()).toEqual([]);
    expect(country.querySelector('.p-select-label')?.textContent?.trim()).toBe('Choose a country…');

    select.focus();
    await press(' ', { code: 'Space' });
    await vi.waitFor(() => expect(optionsOpen().length).toBeGreaterThan(12));
    await typeText(filterInput(), 'austri');
    expect(optionsOpen().map((o) => o.textContent?.trim())).toEqual(['Austria']);
    await press('Enter', {}, filterInput());
    await vi.waitFor(() => expect(optionsOpen()).toEqual([]));
    expect(country.querySelector('.p-select-label')?.textContent?.trim()).toBe('Austria');
    expect(document.activeElement).toBe(select);
  });

  it('with several matches, Enter picks the first, the one highlighted', async () => {
    const { db } = await mountSection('expenses-variable');
    await press('n', { altKey: true }, document.body);
    await vi.waitFor(() => expect(one('item-dialog')).toBeTruthy());
    expect(document.body.textContent).toContain('Enter next field');
    combobox('type').focus();
    await press(' ', { code: 'Space' });
    await vi.waitFor(() => expect(optionsOpen().length).toBeGreaterThan(12));
    // As a user types: not within the 100 ms the closed box takes to let go of the cursor.
    await new Promise((r) => setTimeout(r, 150));
    await typeText(filterInput(), 'g');
    const matches = optionsOpen();
    expect(matches.length).toBeGreaterThan(1);
    expect(matches.every((o) => /^g/i.test(o.textContent?.trim() ?? ''))).toBe(true);
    expect(matches[0]?.classList.contains('p-focus')).toBe(true);
    const first = matches[0]?.textContent?.trim();
    await press('Enter', {}, filterInput());
    await vi.waitFor(() => expect(optionsOpen()).toEqual([]));
    expect(shown('type')).toBe(first);
    await settle();
    expect(await outbox(db)).toEqual([]);
  });

  it('a frequency beside an amount moves on with Enter, keeping its value', async () => {
    await mountSection('insurance');
    await press('n', { altKey: true }, document.body);
    const premium = field(dialog(), 'premium_value');
    const frequency = premium.querySelector<HTMLElement>('[role="combobox"]') as HTMLElement;
    frequency.focus();
    await press('Enter');
    await vi.waitFor(() => expect(premium.contains(document.activeElement)).toBe(false));
    expect(optionsOpen()).toEqual([]);
    expect(premium.querySelector('.p-select-label')?.textContent?.trim()).toBe('Monthly');
  });
});
