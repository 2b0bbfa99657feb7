// @vitest-environment happy-dom
// The member details form and an amount's frequency with the platform's definitions held (the
// config table, as the pull leaves it): the marital status list is the platform's, in its order, a
// value the app does not know offered under its raw value and saved unchanged; without
// definitions a stored value outside the document's table is shown raw and kept when another
// field is saved; an income's frequency list is the platform's, and a stored frequency the app
// does not know is shown and kept, never replaced.

import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { CONFIG_KEYS, putConfigEntry } from '../../../renderer/src/data/config.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import type { Fields } from '../../../renderer/src/data/model.ts';
import {
  choose,
  click,
  field,
  inputOf,
  mountHousehold,
  mountSection,
  one,
  optionsOpen,
  outbox,
  press,
  settle,
  shownIn,
  syncedSingle,
  typeText,
} from './harness.ts';

unmountAfterEach();

/**
 * What `/define` gave: the document's marital statuses with `separated` among them, and an
 * income whose Social Security may also come quarterly (a nested list: `social_security.frequency`).
 */
async function holdDefinitions(db: AdvisorDb) {
  await putConfigEntry(db, CONFIG_KEYS.definitions, {
    pulledAt: Date.now(),
    data: {
      FullMember: {
        gender: ['male', 'female'],
        marital_status: ['single', 'married', 'separated', 'divorced', 'widowed', 'other', 'partner'],
      },
      Income: { 'social_security.frequency': ['one-time', 'monthly', 'quarterly', 'yearly'] },
    },
  });
}

/** The document's marital statuses, as the form words them. */
const DOCUMENTED = ['Single', 'Married', 'Divorced', 'Widowed', 'Other', 'Partner'];

const details = () => one('single-details:client');

async function openList(root: ParentNode, name: string, which = 0): Promise<string[]> {
  const selects = field(root, name).querySelectorAll<HTMLElement>('.p-select');
  await click(selects[which] as HTMLElement);
  const labels = optionsOpen().map((o) => o.textContent?.trim() ?? '');
  await press('Escape');
  await vi.waitFor(() => expect(optionsOpen()).toEqual([]));
  return labels;
}

/** The Members tab, the platform holding the client's `details` and what `hold` writes. */
async function openMembers(details: Fields, hold?: (db: AdvisorDb) => Promise<unknown>) {
  const mounted = await mountHousehold({ tab: 'members' }, async (db, account) => {
    const row = await syncedSingle(db, account.id, 'details:client', details);
    await hold?.(db);
    return row;
  });
  await settle();
  return mounted;
}

describe('the member details form’s lists as the platform defines them', () => {
  it('offers the platform’s marital statuses in its order, one the app does not know by its raw value, and saves it unchanged', async () => {
    const { db } = await openMembers({ first_name: 'Ann', email: 'ann@example.com' }, holdDefinitions);

    expect(await openList(details(), 'marital_status')).toEqual([
      'Single',
      'Married',
      'separated',
      'Divorced',
      'Widowed',
      'Other',
      'Partner',
    ]);
    await choose(details(), 'marital_status', 'separated');
    expect(shownIn(details(), 'marital_status')).toBe('separated');
    await click(one('single-save'));

    const ops = await outbox(db);
    expect(ops).toHaveLength(1);
    expect(ops[0]!.fields).toEqual({ marital_status: 'separated' });
  });

  it('without definitions, shows a stored marital status the document lacks by its raw value and keeps it when another field is saved', async () => {
    const { db, held: row } = await openMembers({
      first_name: 'Ann',
      email: 'ann@example.com',
      marital_status: 'separated',
      gender: 'nonbinary',
    });

    expect(shownIn(details(), 'marital_status')).toBe('separated');
    expect(shownIn(details(), 'gender')).toBe('nonbinary');
    // The document's table, with the stored value after it.
    expect(await openList(details(), 'marital_status')).toEqual([...DOCUMENTED, 'separated']);
    expect(await openList(details(), 'gender')).toEqual(['Male', 'Female', 'nonbinary']);

    await typeText(inputOf(details(), 'middle_initial'), 'J');
    await click(one('single-save'));
    const ops = await outbox(db);
    expect(ops).toHaveLength(1);
    expect(ops[0]!.fields).toEqual({ middle_initial: 'J' });
    const kept = (await db.singles.get(row.id))!.fields;
    expect(kept).toMatchObject({ marital_status: 'separated', gender: 'nonbinary', middle_initial: 'J' });
  });
});

describe('an amount’s frequency as the platform defines it', () => {
  it('offers the platform’s frequencies, shows a stored one the app does not know, and keeps it when another amount is saved', async () => {
    const { db, held: row } = await mountSection('income:client', async (db, account) => {
      const row = await syncedSingle(db, account.id, 'income:client', {
        social_security: { value: 2400, frequency: 'quarterly' },
        dividends: { value: 300, frequency: 'biweekly' },
      });
      await holdDefinitions(db);
      return row;
    });
    await settle();
    const income = one('single-income:client');

    // The platform's list for Social Security, the stored value in it; shown as it is.
    expect(shownIn(income, 'social_security')).toBe('quarterly');
    expect(await openList(income, 'social_security')).toEqual(['One time', 'Monthly', 'quarterly', 'Yearly']);
    // Dividends: the definition says nothing, so the document's three, and the stored one after them.
    expect(shownIn(income, 'dividends')).toBe('biweekly');
    expect(await openList(income, 'dividends')).toEqual(['One time', 'Monthly', 'Yearly', 'biweekly']);

    await typeText(inputOf(income, 'comments'), 'Checked with the statement.');
    await click(one('single-save'));
    const ops = await outbox(db);
    expect(ops).toHaveLength(1);
    expect(ops[0]!.fields).toEqual({ comments: 'Checked with the statement.' });
    expect((await db.singles.get(row.id))!.fields).toMatchObject({
      social_security: { value: 2400, frequency: 'quarterly' },
      dividends: { value: 300, frequency: 'biweekly' },
    });

    // Chosen from the platform's list and saved: the amount goes with the new frequency.
    const frequency = field(income, 'social_security').querySelectorAll<HTMLElement>('.p-select')[0]!;
    await click(frequency);
    const monthly = optionsOpen().find((o) => o.textContent?.trim() === 'Monthly')!;
    monthly.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    monthly.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await settle();
    await click(one('single-save'));
    const after = await outbox(db);
    expect(after.at(-1)!.fields.social_security).toEqual({ value: 2400, frequency: 'monthly' });
    expect((await db.singles.get(row.id))!.fields.dividends).toEqual({ value: 300, frequency: 'biweekly' });
  });
});
