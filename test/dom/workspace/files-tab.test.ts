// @vitest-environment happy-dom
// The workspace's Files tab lists every file the local store knows the platform holds for the
// account (members' photos and licences, an employment item's document, a Documents item's file, a
// profile FILE value), never one still waiting to upload; Open goes to the main process through
// the bridge with the download's progress shown as it reports it, and says where the file went;
// offline it asks for this computer's copy only and says "Not downloaded yet — available when
// online" for one never kept. The main process's side (the cache, the viewer) is tested in
// test/unit/files/stored-files.test.ts and against the sandbox in test/integration/stored-files.test.ts.

import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import type {
  Bridge,
  FileTransfer,
  KeptFile,
  OpenFileResult,
  PreviewResult,
  StoredFileRequest,
} from '@shared/bridge.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { useConnectivityStore } from '../../../renderer/src/common/connectivity.ts';
import {
  byTestId,
  click,
  household,
  mountWorkspace,
  openDb,
  syncedItem,
  syncedSingle,
  type Mounted,
} from './harness.ts';

unmountAfterEach();

const V0 = 'http://127.0.0.1:4010/api/v0/files';
const file = (id: string, filename: string, filetype: string, filesize: number) => ({
  type: filetype.startsWith('image/') ? 'image' : 'document',
  url: `${V0}/${id}/${encodeURIComponent(filename)}`,
  filetype,
  filesize,
  filename,
});
const PHOTO = file('f1', 'ann-portrait.png', 'image/png', 3);
const LICENSE = file('f2', 'bob-license.pdf', 'application/pdf', 120);
const PAYSLIP = file('f3', 'payslip march.pdf', 'application/pdf', 2048);
const STATEMENT = file('f4', 'statement.pdf', 'application/pdf', 88);

/** Ann and Bob's household with a file of every kind, and one still waiting to upload. */
async function householdWithFiles(): Promise<Mounted> {
  const db = openDb();
  const account = await household(db);
  await syncedSingle(db, account.id, 'details:client', { first_name: 'Ann', photo: PHOTO });
  await syncedSingle(db, account.id, 'details:coclient', {
    first_name: 'Bob',
    'drivers_license.document': LICENSE,
  });
  await syncedItem(db, account.id, 'employment:coclient', 's1', {
    employer: 'Harbor Bank',
    document: PAYSLIP,
  });
  await syncedItem(db, account.id, 'documents', 's2', { file: STATEMENT });
  // Chosen here, not on the platform yet: nothing to open from it.
  await syncedItem(db, account.id, 'documents', 's3', {
    file: {
      type: 'document',
      url: null,
      filetype: 'text/plain',
      filesize: 1,
      filename: 'draft.txt',
      localFile: 'x',
    },
  });
  await db.profileValues.add({
    id: 'pv1',
    accountServerId: 7,
    memberId: null,
    datasetId: 'el-tax',
    server: {
      id: 'pv1',
      dataset_id: 'el-tax',
      member_id: null,
      row_id: 'r1',
      type: 'FILE',
      value: 'tax 2025.pdf',
    },
    pulledAt: 1,
  });
  return mountWorkspace(db, account.id, { tab: 'files' });
}

/** The main process as the bridge reaches it: what it was asked, kept copies, and an open it answers when told. */
function mainProcess(options: { kept?: string[] } = {}) {
  const asked: StoredFileRequest[] = [];
  const transfers: FileTransfer[] = [];
  let answer: (result: OpenFileResult) => void = () => undefined;
  useBridge({
    files: {
      preview: (): Promise<PreviewResult> =>
        Promise.resolve({ ok: true, bytes: new Uint8Array([137, 80, 78, 71]) }),
      kept: (reqs: { url: string }[]): Promise<KeptFile[]> =>
        Promise.resolve(
          reqs.map(({ url }) => ({ url, kept: options.kept?.includes(url) ?? false, bytes: 90_112 })),
        ),
      transfers: () => Promise.resolve(transfers.map((t) => ({ ...t }))),
      open: (req: StoredFileRequest) => {
        asked.push(req);
        return new Promise<OpenFileResult>((resolve) => (answer = resolve));
      },
    },
  } as unknown as Bridge);
  return { asked, transfers, answer: (result: OpenFileResult) => answer(result) };
}

const rows = () => byTestId('stored-file');
const rowOf = (name: string) => {
  const row = rows().find((r) => r.textContent?.includes(name));
  if (!row) throw new Error(`no row for ${name}`);
  return row;
};
const within = (row: HTMLElement, id: string) => row.querySelector<HTMLElement>(`[data-testid="${id}"]`);

describe('the Files tab', () => {
  it('lists every file of the household the platform holds, with whose it is, its kind and size', async () => {
    mainProcess({ kept: [STATEMENT.url] });
    await householdWithFiles();

    await vi.waitFor(() => expect(rows()).toHaveLength(5));
    const names = rows().map((r) => within(r, 'stored-file-name')?.textContent);
    expect(names).toEqual([
      'ann-portrait.png',
      'bob-license.pdf',
      'payslip march.pdf',
      'statement.pdf',
      'tax 2025.pdf',
    ]);
    expect(rowOf('ann-portrait.png').textContent).toContain('Ann Tester · Member details: Photo');
    expect(rowOf('bob-license.pdf').textContent).toContain("Bob Tester · Member details: Driver's license");
    expect(rowOf('payslip march.pdf').textContent).toContain('Bob Tester · Employment: Harbor Bank');
    expect(rowOf('payslip march.pdf').textContent).toContain('PDF · 2.0 MB');
    expect(rowOf('statement.pdf').textContent).toContain('Household · Documents');
    expect(rowOf('tax 2025.pdf').textContent).toContain('Household · Profile');
    // Kept offline: its size is the kept copy's (88 KB in bytes), and it says so.
    expect(rowOf('statement.pdf').dataset.kept).toBe('true');
    expect(within(rowOf('statement.pdf'), 'file-kept')?.textContent).toContain('Kept offline');
    expect(within(rowOf('payslip march.pdf'), 'file-kept')).toBeNull();
    // The photo shows as a thumbnail.
    await vi.waitFor(() =>
      expect(within(rowOf('ann-portrait.png'), 'file-thumbnail')?.getAttribute('src')).toMatch(/^blob:/),
    );
  });

  it('opens a file through the main process, shows its progress, then says where it went', async () => {
    const main = mainProcess();
    await householdWithFiles();
    await vi.waitFor(() => expect(rows()).toHaveLength(5));

    const row = rowOf('payslip march.pdf');
    await click(within(row, 'file-open')!);
    expect(main.asked).toEqual([
      { api: 'v0', url: PAYSLIP.url, name: 'payslip march.pdf', priority: 'interactive' },
    ]);
    main.transfers.push({ api: 'v0', url: PAYSLIP.url, bytes: 1_048_576, total: 2_097_152 });
    await vi.waitFor(() => expect(within(row, 'file-progress')?.getAttribute('aria-valuenow')).toBe('50'));

    main.transfers.length = 0;
    main.answer({
      ok: true,
      shown: 'viewer',
      path: '/cache/payslip march.pdf',
      bytes: 2_097_152,
      from: 'platform',
    });
    await vi.waitFor(() =>
      expect(within(row, 'file-outcome')?.textContent?.trim()).toBe(
        'Opened payslip march.pdf. It is a copy: to keep changes made in it, use Save As… in the viewer.',
      ),
    );
    expect(within(row, 'file-progress')).toBeNull();
  });

  it('offline, asks for this computer’s copy only, and says a file never kept is not here yet', async () => {
    const main = mainProcess();
    await householdWithFiles();
    useConnectivityStore().networkUp = false;
    await vi.waitFor(() =>
      expect(within(rowOf('statement.pdf'), 'file-not-kept')?.textContent).toBe('Not downloaded yet'),
    );

    const row = rowOf('statement.pdf');
    await click(within(row, 'file-open')!);
    expect(main.asked).toEqual([
      { api: 'v0', url: STATEMENT.url, name: 'statement.pdf', priority: 'interactive', keptOnly: true },
    ]);
    main.answer({
      ok: false,
      notKept: true,
      error: {
        ok: false,
        kind: 'network',
        status: null,
        message: 'Not downloaded yet — available when online.',
        fields: {},
        retryAfterMs: null,
      },
    });
    await vi.waitFor(() =>
      expect(within(row, 'file-outcome')?.textContent?.trim()).toBe(
        'Not downloaded yet — available when online.',
      ),
    );
  });
});
