// @vitest-environment happy-dom
// What the workspace shows of a record's sync state and how the user acts on it: a refused record
// shows the server's messages on its form and is sent again once fixed; a conflict is resolved in
// the mine/theirs view (per field, all mine, all theirs); a record deleted on the platform is
// recreated or discarded. The push engine's part is played by writing the outbox as it would.

import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import {
  DELETED_ON_SERVER,
  refreshRow,
  recordOps,
  updateRecord,
} from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import type { Operation, SectionItemRow } from '../../../renderer/src/data/model.ts';
import { outbox } from '../../support/store.ts';
import {
  click,
  dialog,
  field,
  household,
  messagesOf,
  mountWorkspace,
  one,
  openDb,
  settle,
  syncedItem,
  typeNumber,
} from './harness.ts';

unmountAfterEach();

const lakeHouse = {
  type: 'primary-residence',
  name: 'Lake house',
  owner: { type: 'client', id: null },
  current_value: { value: 450000, frequency: 'one-time' },
};

/** Moves the record's last operation to a state, as the push engine does, with the row's badge. */
async function settleOp(db: AdvisorDb, row: SectionItemRow, change: Partial<Operation>): Promise<Operation> {
  const ops = await recordOps(db, 'sectionItems', row.id);
  const op = { ...ops.at(-1)!, ...change };
  await db.outbox.put(op);
  const stored = (await db.sectionItems.get(row.id))!;
  await db.sectionItems.put(refreshRow('sectionItems', stored, await recordOps(db, 'sectionItems', row.id)));
  return op;
}

const tableRow = (text: string) =>
  [...one('section-table').querySelectorAll<HTMLElement>('tbody tr')].find((r) =>
    r.textContent?.includes(text),
  )!;

describe('a refused record', () => {
  it('shows the server’s field messages on its form, and is sent again once fixed', async () => {
    const db = openDb();
    const account = await household(db);
    const item = await syncedItem(db, account.id, 'assets', 'a|1', lakeHouse);
    await updateRecord(db, 'sectionItems', item.id, { current_value: null });
    const op = await settleOp(db, item, {
      state: 'rejected',
      lastError: {
        kind: 'validation',
        status: 422,
        message: 'The given data was invalid.',
        fields: { 'current-value': ['current-value is required.'] },
      },
    });
    await mountWorkspace(db, account.id, { tab: 'financials', section: 'assets' });

    expect(tableRow('Lake house').querySelector('[data-badge="rejected"]')).not.toBeNull();
    // The section list marks the section too.
    expect(document.querySelector('[data-section="assets"] .mark-rejected')).not.toBeNull();

    await click(tableRow('Lake house'));
    // The server's message, on the field it names, before the user touched anything.
    expect(messagesOf(dialog(), 'current_value')).toBe('Current value: required, enter an amount.');
    expect(one('form-error').textContent).toContain('The platform refused this asset');
    expect(field(dialog(), 'current_value').contains(document.activeElement)).toBe(true);

    await typeNumber(dialog(), 'current_value', 425000);
    expect(messagesOf(dialog(), 'current_value')).toBe('');
    await click(one('item-save'));

    const [fixed] = await outbox(db);
    expect(fixed).toMatchObject({
      id: op.id,
      state: 'queued',
      lastError: null,
      fields: { current_value: { value: 425000, frequency: 'one-time' } },
    });
    await vi.waitFor(() =>
      expect(tableRow('Lake house').querySelector('[data-badge="pending"]')).not.toBeNull(),
    );
  });
});

describe('a conflicted record', () => {
  async function conflicted() {
    const db = openDb();
    const account = await household(db);
    const item = await syncedItem(db, account.id, 'assets', 'a|1', lakeHouse);
    await updateRecord(db, 'sectionItems', item.id, {
      name: 'Lake cabin',
      current_value: { value: 480000, frequency: 'one-time' },
    });
    const op = await settleOp(db, item, { state: 'conflict' });
    await db.conflicts.add({
      id: op.id,
      table: 'sectionItems',
      recordId: item.id,
      fields: {
        name: { base: 'Lake house', mine: 'Lake cabin', theirs: 'Lake lodge' },
        current_value: {
          base: { value: 450000, frequency: 'one-time' },
          mine: { value: 480000, frequency: 'one-time' },
          theirs: { value: 470000, frequency: 'one-time' },
        },
      },
      detectedAt: Date.now(),
    });
    await db.sectionItems.update(item.id, { status: 'conflict' });
    await mountWorkspace(db, account.id, { tab: 'financials', section: 'assets' });
    return { db, item, op };
  }

  it('opens side by side, and a choice per field resolves it', async () => {
    const { db, op } = await conflicted();
    expect(tableRow('Lake cabin').querySelector('[data-badge="conflict"]')).not.toBeNull();
    await click(tableRow('Lake cabin'));

    const panel = one('conflict');
    const name = panel.querySelector('tr[data-field="name"]')!;
    expect(name.querySelector('[data-testid="conflict-mine"]')?.textContent).toBe('Lake cabin');
    expect(name.querySelector('[data-testid="conflict-theirs"]')?.textContent).toBe('Lake lodge');
    const value = panel.querySelector('tr[data-field="current_value"]')!;
    expect(value.querySelector('[data-testid="conflict-mine"]')?.textContent).toBe('$480,000');
    expect(value.querySelector('[data-testid="conflict-theirs"]')?.textContent).toBe('$470,000');
    // No save while the conflict waits.
    expect(document.querySelector('[data-testid="item-save"]')).toBeNull();

    // Theirs for the name, mine for the value.
    await click(name.querySelectorAll('input[type="radio"]')[1]!);
    await click(one('conflict-apply'));

    expect(await db.conflicts.count()).toBe(0);
    const [after] = await outbox(db);
    expect(after).toMatchObject({ id: op.id, state: 'queued', fields: { current_value: { value: 480000 } } });
    expect(after?.fields).not.toHaveProperty('name');
    // Mine goes over theirs: its base is now theirs, so the next check passes.
    expect(after?.base.current_value).toEqual({ value: 470000, frequency: 'one-time' });
    // Resolved, the form is back.
    await vi.waitFor(() => expect(document.querySelector('[data-testid="conflict"]')).toBeNull());
    expect(one('item-save')).toBeTruthy();
  });

  it('takes all of theirs in one go', async () => {
    const { db } = await conflicted();
    await click(tableRow('Lake cabin'));
    await click(one('conflict-theirs-all'));
    expect(await db.conflicts.count()).toBe(0);
    // Nothing of mine is left to send.
    expect(await outbox(db)).toEqual([]);
  });
});

describe('a record deleted on the platform', () => {
  async function deleted() {
    const db = openDb();
    const account = await household(db);
    const item = await syncedItem(db, account.id, 'assets', 'a|1', lakeHouse);
    await updateRecord(db, 'sectionItems', item.id, { name: 'Lake cabin' });
    const op = await settleOp(db, item, { state: 'conflict' });
    await db.conflicts.add({
      id: op.id,
      table: 'sectionItems',
      recordId: item.id,
      fields: { [DELETED_ON_SERVER]: { base: null, mine: null, theirs: null } },
      detectedAt: Date.now(),
    });
    await db.sectionItems.update(item.id, { status: 'conflict', deletedOnServer: Date.now() });
    await mountWorkspace(db, account.id, { tab: 'financials', section: 'assets' });
    return { db, item, op };
  }

  it('is recreated from my values', async () => {
    const { db, item, op } = await deleted();
    expect(tableRow('Lake cabin').querySelector('[data-badge="deleted"]')).not.toBeNull();
    await click(tableRow('Lake cabin'));
    expect(one('conflict').textContent).toContain('was deleted on the platform');
    await click(one('conflict-recreate'));

    expect(await db.conflicts.count()).toBe(0);
    const [after] = await outbox(db);
    expect(after).toMatchObject({
      id: op.id,
      kind: 'create',
      state: 'queued',
      fields: { name: 'Lake cabin' },
    });
    expect(await db.sectionItems.get(item.id)).toMatchObject({ serverId: null, status: 'pending' });
  });

  it('or discarded', async () => {
    const { db, item } = await deleted();
    await click(tableRow('Lake cabin'));
    await click(one('conflict-discard'));
    expect(await outbox(db)).toEqual([]);
    expect(await db.sectionItems.get(item.id)).toBeUndefined();
    await settle();
    expect(document.querySelector('[data-testid="item-dialog"]')).toBeNull();
    expect(one('section-table').textContent).not.toContain('Lake cabin');
  });
});

describe('a record deleted on the platform with its file', () => {
  const mk53 = {
    type: 'document',
    url: 'https://platform.example/api/v0/files/0b6c3f1e-2a7d-4e1b-9c55-6f0e8d1a2b3c/mk53.pdf',
    filetype: 'application/pdf',
    filesize: 84,
    filename: 'mk53.pdf',
  };

  /** A Documents item the platform held with its file, changed here while another user deleted it there. */
  async function deletedDocument() {
    const db = openDb();
    const account = await household(db);
    const item = await syncedItem(db, account.id, 'documents', 'd|1', {
      file: mk53,
      relation: { type: 'client', id: null },
    });
    await updateRecord(db, 'sectionItems', item.id, { relation: { type: 'joint', id: null } });
    const row = (await db.sectionItems.get(item.id))!;
    const op = await settleOp(db, item, { state: 'conflict' });
    await db.conflicts.add({
      id: op.id,
      table: 'sectionItems',
      recordId: item.id,
      fields: { [DELETED_ON_SERVER]: { base: row.server, mine: op.fields, theirs: null } },
      detectedAt: Date.now(),
    });
    await db.sectionItems.update(item.id, { status: 'conflict', deletedOnServer: Date.now() });
    await mountWorkspace(db, account.id, { tab: 'financials', section: 'documents' });
    return { db, item, op };
  }

  it('names the file before the choice; recreated, the form shows it missing and asks for it again', async () => {
    const { db, item, op } = await deletedDocument();
    await click(tableRow('mk53.pdf'));
    await vi.waitFor(() =>
      expect(one('conflict-files-gone').textContent?.trim()).toBe(
        'The file “mk53.pdf” was deleted with it: choose the file again after recreating it.',
      ),
    );

    await click(one('conflict-recreate'));
    // The recreate sends my values, not a file the platform no longer has.
    const [after] = await outbox(db);
    expect(after).toMatchObject({
      id: op.id,
      kind: 'create',
      fields: { relation: { type: 'joint', id: null } },
    });
    expect(after?.fields).not.toHaveProperty('file');
    expect((await db.sectionItems.get(item.id))?.fields).not.toHaveProperty('file');

    await vi.waitFor(() => expect(document.querySelector('[data-testid="conflict"]')).toBeNull());
    const file = field(dialog(), 'file');
    expect(file.querySelector('[data-testid="file-name"]')).toBeNull();
    expect(file.querySelector('[data-testid="file-choose"]')?.textContent).toContain('Choose file');
    expect(messagesOf(dialog(), 'file')).toBe(
      '“mk53.pdf” was deleted on the platform with this document: choose the file again.',
    );

    // Chosen again, the file rides in the recreate; the note has done its work.
    const picker = file.querySelector('input[type="file"]') as HTMLInputElement;
    const chosen = new File([new Uint8Array([37, 80, 68, 70])], 'mk53.pdf', { type: 'application/pdf' });
    Object.defineProperty(picker, 'files', { value: [chosen] });
    picker.dispatchEvent(new Event('change'));
    await settle();
    expect(messagesOf(dialog(), 'file')).toBe('');
    await click(one('item-save'));
    await vi.waitFor(async () =>
      expect((await outbox(db))[0]?.fields.file).toMatchObject({ filename: 'mk53.pdf', url: null }),
    );
    expect(await outbox(db)).toHaveLength(1);
  });

  it('says nothing of files when the record held none', async () => {
    const db = openDb();
    const account = await household(db);
    const item = await syncedItem(db, account.id, 'assets', 'a|1', lakeHouse);
    await updateRecord(db, 'sectionItems', item.id, { name: 'Lake cabin' });
    const op = await settleOp(db, item, { state: 'conflict' });
    await db.conflicts.add({
      id: op.id,
      table: 'sectionItems',
      recordId: item.id,
      fields: { [DELETED_ON_SERVER]: { base: null, mine: null, theirs: null } },
      detectedAt: Date.now(),
    });
    await db.sectionItems.update(item.id, { status: 'conflict', deletedOnServer: Date.now() });
    await mountWorkspace(db, account.id, { tab: 'financials', section: 'assets' });
    await click(tableRow('Lake cabin'));
    expect(one('conflict').textContent).toContain('was deleted on the platform');
    expect(document.querySelector('[data-testid="conflict-files-gone"]')).toBeNull();
  });
});
