// @vitest-environment happy-dom
// A section item form with the platform's definitions held (the config table, as the pull leaves
// it): the type list is the platform's, in its order, a type the app does not know offered under
// its raw value and saved unchanged; without definitions, a stored type outside the built-in table
// is shown and kept; a stored type in neither list likewise.

import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { CONFIG_KEYS, putConfigEntry } from '../../../renderer/src/data/config.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { outbox } from '../../support/store.ts';
import {
  choose,
  click,
  dialog,
  field,
  household,
  inputOf,
  mountWorkspace,
  one,
  openDb,
  optionsOpen,
  pick,
  settle,
  syncedItem,
  typeNumber,
  typeText,
} from './harness.ts';

unmountAfterEach();

/** The platform's plan types as its `/define` gave them: the document's and a health savings account. */
const PLATFORM_PLAN_TYPES = ['401k', 'roth401k', 'ira', 'roth-ira', 'hsa', 'other'];

async function holdDefinitions(db: AdvisorDb) {
  await putConfigEntry(db, CONFIG_KEYS.definitions, {
    pulledAt: Date.now(),
    data: { Plan: { type: PLATFORM_PLAN_TYPES } },
  });
}

/** What the closed select of a field shows. */
const shown = (name: string) =>
  field(dialog(), name).querySelector('.p-select-label')?.textContent?.trim() ?? '';

/** Opens the type list and reads its options, as the advisor sees them. */
async function openTypeList(): Promise<string[]> {
  await click(field(dialog(), 'type').querySelector('.p-select') as HTMLElement);
  return optionsOpen().map((o) => o.textContent?.trim() ?? '');
}

async function openItem(name: string) {
  const row = [...one('section-table').querySelectorAll('tbody tr')].find((r) =>
    r.textContent?.includes(name),
  );
  await click(row as HTMLElement);
}

describe('a section form’s choices as the platform defines them', () => {
  it('offers the platform’s types in its order, one the app does not know by its raw value, and saves it unchanged', async () => {
    const db = openDb();
    const account = await household(db);
    await holdDefinitions(db);
    await mountWorkspace(db, account.id, { tab: 'financials', section: 'plans' });

    await click(one('add-item'));
    await settle();
    expect(await openTypeList()).toEqual(['401(k)', 'Roth 401(k)', 'IRA', 'Roth IRA', 'hsa', 'Other']);

    await pick(optionsOpen().find((o) => o.textContent?.trim() === 'hsa')!);
    expect(shown('type')).toBe('hsa');
    await typeText(inputOf(dialog(), 'name'), 'Health savings');
    await choose(dialog(), 'owner', 'Ann Tester');
    await typeNumber(dialog(), 'current_value', 3200);
    await click(one('item-save'));

    const ops = await outbox(db);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ kind: 'create', fields: { type: 'hsa', name: 'Health savings' } });
  });

  it('without definitions, shows a stored type the built-in table lacks and keeps it when another field is saved', async () => {
    const db = openDb();
    const account = await household(db);
    const plan = await syncedItem(db, account.id, 'plans', 'p|1', {
      type: 'hsa',
      name: 'Health savings',
      owner: { type: 'client', id: null },
      current_value: { value: 3200, frequency: 'one-time' },
    });
    await mountWorkspace(db, account.id, { tab: 'financials', section: 'plans' });

    await openItem('Health savings');
    expect(shown('type')).toBe('hsa');
    // The built-in table, with the stored value after it.
    expect((await openTypeList()).slice(-2)).toEqual(['Other', 'hsa']);
    await typeText(inputOf(dialog(), 'name'), 'HSA at work');
    await click(one('item-save'));

    const ops = await outbox(db);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ kind: 'update', fields: { name: 'HSA at work' } });
    expect(ops[0]!.fields).not.toHaveProperty('type');
    expect((await db.sectionItems.get(plan.id))?.fields.type).toBe('hsa');
  });

  it('shows and keeps a stored type in neither the platform’s list nor the built-in table', async () => {
    const db = openDb();
    const account = await household(db);
    await holdDefinitions(db);
    const plan = await syncedItem(db, account.id, 'plans', 'p|2', {
      type: 'pension-plan',
      name: 'Old pension',
      owner: { type: 'client', id: null },
      current_value: { value: 90000, frequency: 'one-time' },
    });
    await mountWorkspace(db, account.id, { tab: 'financials', section: 'plans' });

    await openItem('Old pension');
    expect(shown('type')).toBe('pension-plan');
    expect(await openTypeList()).toEqual([
      '401(k)',
      'Roth 401(k)',
      'IRA',
      'Roth IRA',
      'hsa',
      'Other',
      'pension-plan',
    ]);
    await typeText(inputOf(dialog(), 'name'), 'Pension, first employer');
    await click(one('item-save'));

    const ops = await outbox(db);
    expect(ops).toHaveLength(1);
    expect(ops[0]!.fields).toEqual({ name: 'Pension, first employer' });
    expect((await db.sectionItems.get(plan.id))?.fields.type).toBe('pension-plan');
  });
});
