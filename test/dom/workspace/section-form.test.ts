// @vitest-environment happy-dom
// A section's item form in the workspace: messages in the server's wording as the user types,
// saves that go through the change module (one create, or an update of the changed fields only),
// and the relation picker offering the family by name while storing local ids.

import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { NUMERIC_DATE } from '../../../renderer/src/household/values.ts';
import {
  blur,
  choose,
  click,
  dialog,
  field,
  messagesOf,
  mountSection,
  one,
  openNewItem,
  optionsOpen,
  outbox,
  pick,
  settle,
  syncedItem,
  typeNumber,
  typeText,
} from './harness.ts';

unmountAfterEach();

const input = (name: string) => field(dialog(), name).querySelector('input') as HTMLInputElement;

describe('a section item form', () => {
  it('says what the server would say as the user types, and saves nothing invalid', async () => {
    const { db } = await openNewItem('assets');

    expect(one('item-dialog-title').textContent).toBe('New asset');
    // Required markers on the schema's required fields only.
    expect(field(dialog(), 'name').querySelector('.required')).not.toBeNull();
    expect(field(dialog(), 'original_value').querySelector('.required')).toBeNull();

    // Untouched: no message yet. Typed and cleared: the server's words.
    expect(messagesOf(dialog(), 'name')).toBe('');
    await typeText(input('name'), 'Lake house');
    expect(messagesOf(dialog(), 'name')).toBe('');
    await typeText(input('name'), '');
    expect(messagesOf(dialog(), 'name')).toBe('Name: required, fill it in.');
    await typeText(input('name'), 'Lake house');
    expect(messagesOf(dialog(), 'name')).toBe('');

    // Saving with fields missing shows every message, as the platform names them, and queues nothing.
    await click(one('item-save'));
    expect(messagesOf(dialog(), 'current_value')).toBe('Current value: required, enter an amount.');
    expect(messagesOf(dialog(), 'type')).toBe('Type: required, choose one from the list.');
    expect(messagesOf(dialog(), 'owner')).toBe('Owner: required, choose one from the list.');
    expect(await outbox(db)).toEqual([]);
    // The cursor is put on the first field with a message.
    expect(field(dialog(), 'type').contains(document.activeElement)).toBe(true);
  });

  it('creates the item through the change module, with enum values, relation and currency', async () => {
    const { db, account } = await openNewItem('assets');

    await choose(dialog(), 'type', 'Primary residence');
    await typeText(input('name'), 'Lake house');
    await choose(dialog(), 'owner', 'Joint');
    await typeNumber(dialog(), 'current_value', 450000);
    await click(one('item-save'));

    const ops = await outbox(db);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({
      table: 'sectionItems',
      kind: 'create',
      state: 'queued',
      fields: {
        type: 'primary-residence',
        name: 'Lake house',
        owner: { type: 'joint', id: null },
        current_value: { value: 450000, frequency: 'one-time' },
      },
    });
    const row = await db.sectionItems.get(ops[0]!.recordId);
    expect(row).toMatchObject({ accountId: account.id, section: 'assets', status: 'pending' });

    // The table shows it with its badge, and the cursor is back on "Add" for the next one.
    await vi.waitFor(() => expect(document.body.textContent).toContain('Lake house'));
    expect(one('section-table').querySelector('[data-badge="pending"]')).not.toBeNull();
    await vi.waitFor(() => expect(document.activeElement).toBe(one('add-item')));
  });

  it('updates only the fields the user changed', async () => {
    const { db, held: car } = await mountSection('assets', (db, account) =>
      syncedItem(db, account.id, 'assets', 'a|1', {
        type: 'vehicle',
        name: 'Old car',
        owner: { type: 'client', id: null },
        current_value: 12000,
        original_value: { value: 30000, frequency: 'one-time' },
      }),
    );

    const row = one('section-table').querySelector('tbody tr') as HTMLElement;
    expect(row.textContent).toContain('Old car');
    expect(row.textContent).toContain('$12,000');
    await click(row);
    expect(input('name').value).toBe('Old car');
    await typeText(input('name'), 'Family car');
    await blur(input('name'));
    await click(one('item-save'));

    const ops = await outbox(db);
    expect(ops).toHaveLength(1);
    // The plain number the platform sent is not "changed" into a Currency object.
    expect(ops[0]).toMatchObject({ kind: 'update', recordId: car.id, fields: { name: 'Family car' } });
    expect(Object.keys(ops[0]!.fields)).toEqual(['name']);
  });

  it('offers the family by name in relation pickers and stores their local ids', async () => {
    const { db, held: emma } = await openNewItem('goals', async (db, account) => {
      const emma = await syncedItem(db, account.id, 'family', 'f|1', {
        relationship: 'child',
        first_name: 'Emma',
        last_name: 'Tester',
      });
      await syncedItem(db, account.id, 'family', 'f|2', {
        relationship: 'grandchild',
        first_name: 'Leo',
        last_name: 'Tester',
      });
      return emma;
    });
    const select = field(dialog(), 'beneficiary').querySelector('.p-select') as HTMLElement;
    await click(select);
    const labels = optionsOpen().map((o) => o.textContent?.trim());
    // Beneficiaries are people: the members by name and the family, no "Joint".
    expect(labels).toEqual(['Ann Tester', 'Bob Tester', 'Emma Tester (child)', 'Leo Tester (grandchild)']);
    await pick(optionsOpen().find((o) => o.textContent?.includes('Emma')) as HTMLElement);

    await choose(dialog(), 'type', 'College');
    await typeText(input('name'), 'Emma’s college');
    await choose(dialog(), 'owner', 'Joint');
    await typeNumber(dialog(), 'target', 120000);
    const date = field(dialog(), 'target').querySelectorAll('input')[1] as HTMLInputElement;
    // Typed as the user writes dates; stored in the interface's format.
    await typeText(
      date,
      new Intl.DateTimeFormat(navigator.language, NUMERIC_DATE).format(new Date(2034, 8, 1)),
    );
    await blur(date);
    await click(one('item-save'));

    const [op] = await outbox(db);
    expect(op?.fields).toMatchObject({
      beneficiary: { type: 'FamilyMember', id: emma.id },
      owner: { type: 'joint', id: null },
      target: { value: 120000, date: '2034-09-01' },
    });
    // The table follows the store through a live query: under load that is more than a settle.
    await vi.waitFor(() => expect(one('section-table').textContent).toContain('Emma Tester'));
  });

  it('takes a document’s file with the item: one create carries it, and nothing is saved without one', async () => {
    const { db } = await openNewItem('documents');

    await click(one('item-save'));
    expect(messagesOf(dialog(), 'file')).toBe('File: required, attach a file.');
    expect(await outbox(db)).toEqual([]);

    const picker = field(dialog(), 'file').querySelector('input[type="file"]') as HTMLInputElement;
    const file = new File([new Uint8Array([37, 80, 68, 70, 45, 49, 46, 52])], 'Will 2024.pdf', {
      type: 'application/pdf',
    });
    Object.defineProperty(picker, 'files', { value: [file] });
    picker.dispatchEvent(new Event('change'));
    await settle();
    expect(messagesOf(dialog(), 'file')).toBe('');
    expect(field(dialog(), 'file').textContent).toContain('Will 2024.pdf');
    await choose(dialog(), 'relation', 'Joint');
    await click(one('item-save'));
    await vi.waitFor(() => expect(document.querySelector('[data-testid="item-dialog"]')).toBeNull());

    const ops = await outbox(db);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({
      kind: 'create',
      fields: {
        relation: { type: 'joint', id: null },
        file: { filename: 'Will 2024.pdf', filetype: 'application/pdf', url: null },
      },
    });
    const blob = await db.files.get((ops[0]!.fields.file as { localFile: string }).localFile);
    expect(blob?.name).toBe('Will 2024.pdf');
    await vi.waitFor(() => expect(one('section-table').textContent).toContain('Will 2024.pdf'));
  });
});
