// @vitest-environment happy-dom
// Names from the platform with characters that draw nothing or reorder the text (issue 24): the
// Files tab lists a file by the name written on disk, the `_` standing for U+202E marked with its
// code, never as the name it pretends to be ("reportexe.png"); the workspace's title isolates each
// member's name in a <bdi>, so a U+202E in one cannot reverse the title around it.

import { describe, expect, it, vi } from 'vitest';
import type { Bridge, KeptFile, PreviewResult } from '@shared/bridge.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { clientFields } from '../../support/store.ts';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { withoutCodes } from '../../support/dom/platform-text.ts';
import { byTestId, mountWorkspace, one, openDb, pulledInFull, syncedAccount, syncedItem } from './harness.ts';

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
});
