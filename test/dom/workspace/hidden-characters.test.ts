// @vitest-environment happy-dom
// Names from the platform with characters that draw nothing or reorder the text (issue 24): the
// Files tab lists a file by the name written on disk, the `_` standing for U+202E marked with its
// code, never as the name it pretends to be ("reportexe.png"); the workspace's title isolates each
// member's name in a <bdi>, so a U+202E in one cannot reverse the title around it. The dialogs
// titled by a platform's name (deleting a household, an item of a section) draw it the same way
// in their own header, which still names the dialog for a screen reader (aria-labelledby).

import { describe, expect, it, vi } from 'vitest';
import type { Bridge, KeptFile, PreviewResult } from '@shared/bridge.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { clientFields } from '../../support/store.ts';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { accessibleName, marksIn, withoutCodes } from '../../support/dom/platform-text.ts';
import { userConfig } from '../accounts/harness-data.ts';
import {
  byTestId,
  click,
  mountWorkspace,
  one,
  openDb,
  pulledInFull,
  syncedAccount,
  syncedItem,
} from './harness.ts';

unmountAfterEach();

/** The main process as the Files tab reaches it: nothing kept here, no download under way. */
function mainProcess() {
  useBridge({
    files: {
      preview: (): Promise<PreviewResult> => Promise.resolve({ ok: true, bytes: new Uint8Array() }),
      kept: (reqs: { url: string }[]): Promise<KeptFile[]> =>
        Promise.resolve(reqs.map(({ url }) => ({ url, kept: false, bytes: null }))),
      transfers: () => Promise.resolve([]),
    },
  } as unknown as Bridge);
}

describe('hidden characters in names from the platform', () => {
  it('lists report\\u202Egnp.exe on the Files tab as report_gnp.exe, its `_` marked U+202E', async () => {
    mainProcess();
    const db = openDb();
    const account = await pulledInFull(db, await syncedAccount(db, 7, clientFields('Ann')));
    await syncedItem(db, account.id, 'documents', 's1', {
      file: {
        type: 'document',
        url: 'http://127.0.0.1:4010/api/v0/files/f1/report%E2%80%AEgnp.exe',
        filetype: 'application/octet-stream',
        filesize: 12,
        filename: 'report\u202Egnp.exe',
      },
    });
    await mountWorkspace(db, account.id, { tab: 'files' });

    await vi.waitFor(() => expect(byTestId('stored-file')).toHaveLength(1));
    const name = one('stored-file-name');
    expect(name.textContent).not.toContain('\u202E');
    expect(withoutCodes(name)).toBe('report_gnp.exe');
    const bdi = name.querySelector('bdi');
    expect(bdi).not.toBeNull();
    const marks = [...name.querySelectorAll<HTMLElement>('[data-testid="hidden-char"]')];
    expect(marks).toHaveLength(1);
    expect(marks[0]!.textContent).toBe('_U+202E');
    expect(marks[0]!.getAttribute('aria-label')).toBe(
      'Hidden character U+202E (right-to-left override), written as “_”',
    );
    expect(marks[0]!.getAttribute('title')).toBe(marks[0]!.getAttribute('aria-label'));
    // Its tooltip spells the name out too.
    expect(name.getAttribute('title')).toBe('report_[U+202E]gnp.exe');
    // Its kind is the written name's: an EXE, not a picture.
    const row = byTestId('stored-file')[0]!;
    expect(row.textContent).toContain('EXE');
    expect(row.textContent).not.toContain('Picture');
    expect(row.querySelector('[data-testid="file-open"]')?.getAttribute('aria-label')).toBe(
      'Open report_[U+202E]gnp.exe',
    );
  });

  it('isolates each member’s name in the workspace title, a U+202E in one shown as a mark', async () => {
    mainProcess();
    const db = openDb();
    const account = await pulledInFull(
      db,
      await syncedAccount(db, 8, {
        ...clientFields('Ann'),
        'client.last_name': '\u202ETester',
        'coclient.first_name': 'Bob',
        'coclient.last_name': 'Lee',
      }),
    );
    await mountWorkspace(db, account.id);

    const title = one('workspace-title');
    await vi.waitFor(() => expect(title.textContent).toContain('Bob'));
    expect(title.textContent).not.toContain('\u202E');
    const names = [...title.querySelectorAll('bdi')];
    expect(names.map(withoutCodes)).toEqual(['Ann Tester', 'Bob Lee']);
    // The joining " & " is the app's, outside both isolates.
    expect(names[0]!.contains(title.querySelector('[data-code="U+202E"]'))).toBe(true);
    expect(names[1]!.querySelector('[data-testid="hidden-char"]')).toBeNull();
    expect(title.textContent?.replace(/\s+/g, ' ').trim()).toBe('Ann U+202ETester & Bob Lee');
  });

  it('titles the delete dialog “Delete” and the household’s name isolated, marked, and names the dialog by it', async () => {
    mainProcess();
    const db = openDb();
    await userConfig(db);
    const account = await pulledInFull(
      db,
      await syncedAccount(db, 9, {
        ...clientFields('Ann'),
        'client.first_name': 'Ann\u200B',
        'client.last_name': '\u202Eretset',
        'coclient.first_name': 'Bob',
        'coclient.last_name': '\u061CLee',
      }),
    );
    await mountWorkspace(db, account.id);
    await click(one('delete-account-open'));
    await vi.waitFor(() => expect(byTestId('delete-title')).toHaveLength(1));

    const title = one('delete-title');
    expect(title.textContent).not.toMatch(/[\u202E\u061C\u200B]/);
    const name = title.querySelector('bdi')!;
    expect(name).not.toBeNull();
    // The app's word outside the isolate, the platform's name inside it, each hidden character a mark.
    expect(title.firstChild?.textContent?.trim()).toBe('Delete');
    expect(name.textContent).toBe('AnnU+200B U+202Eretset & Bob U+061CLee');
    expect(marksIn(name)).toEqual(['U+200B', 'U+202E', 'U+061C']);

    const dialog = title.closest('[role="dialog"]')!;
    expect(dialog.getAttribute('aria-labelledby')).toBe(title.id);
    expect(accessibleName(dialog)).toBe(
      'Delete AnnHidden character U+200B (zero width space) Hidden character U+202E (right-to-left override)retset & Bob Hidden character U+061C (Arabic letter mark)Lee',
    );
  });

  it('titles an item’s dialog by its name isolated, marked, and names the dialog by it', async () => {
    mainProcess();
    const db = openDb();
    const account = await pulledInFull(db, await syncedAccount(db, 10, clientFields('Ann')));
    const item = await syncedItem(db, account.id, 'assets', 'a|1', {
      name: 'Sail\u061Cboat\u200B \u202Etaob',
      type: 'other',
      owner: { type: 'client', id: null },
    });
    await mountWorkspace(db, account.id, { tab: 'financials', section: 'assets', item: item.id });
    await vi.waitFor(() => expect(byTestId('item-dialog-title')).toHaveLength(1));

    const title = one('item-dialog-title');
    expect(title.textContent).not.toMatch(/[\u202E\u061C\u200B]/);
    const name = title.querySelector('bdi')!;
    expect(name).not.toBeNull();
    expect(name.textContent).toBe('SailU+061CboatU+200B U+202Etaob');
    expect(marksIn(name)).toEqual(['U+061C', 'U+200B', 'U+202E']);

    const dialog = title.closest('[role="dialog"]')!;
    expect(dialog.getAttribute('aria-labelledby')).toBe(title.id);
    expect(accessibleName(dialog)).toBe(
      'SailHidden character U+061C (Arabic letter mark)boatHidden character U+200B (zero width space) Hidden character U+202E (right-to-left override)taob',
    );
  });
});
