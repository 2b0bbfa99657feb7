// @vitest-environment happy-dom
// The workspace's Export menu and palette commands, through the real export service into a
// temporary folder: the menu's entries by their accessible names; the financial summary saved
// from the menu (read back with pdftotext) and the household data as CSV from the palette's
// command (read back with unzip), with no request to the platform; a save that fails says what
// failed and what to do and leaves nothing; a cancel while saving leaves nothing either.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Toast from 'primevue/toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { withoutCodes } from '../../support/dom/platform-text.ts';
import type { ApiRequest } from '@shared/api/request.ts';
import type { Bridge } from '@shared/bridge.ts';
import { localDay } from '@shared/export/file-name.ts';
import { ExportService } from '../../../electron/main/exports/export-service.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { CONFIG_KEYS, putConfigEntries } from '../../../renderer/src/data/config.ts';
import { meetingSummaryAccount } from '../../../renderer/src/commands/meeting-summary.ts';
import CommandPalette from '../../../renderer/src/shell/CommandPalette.vue';
import { commandAvailable } from '../../../renderer/src/commands/keyboard.ts';
import {
  click,
  household,
  mountWorkspace,
  one,
  openDb,
  press,
  settle,
  syncedItem,
  typeText,
} from './harness.ts';

let dir: string;
let service: ExportService;
let requests: ApiRequest[];
/** Holds the save's start until released (a save dialog the advisor has not answered yet). */
let gate: Promise<void> | null;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'workspace-export-'));
  service = new ExportService((name) => Promise.resolve(join(dir, name)));
  requests = [];
  gate = null;
  useBridge({
    api: {
      request: (req: ApiRequest) => {
        requests.push(req);
        return Promise.resolve({ ok: false, kind: 'network', status: null, message: 'offline' });
      },
    },
    exports: {
      begin: async (name: string) => {
        await gate;
        return service.begin(name);
      },
      write: (id: string, chunk: Uint8Array) => service.write(id, chunk),
      finish: (id: string) => service.finish(id),
      cancel: (id: string) => service.cancel(id),
    },
  } as unknown as Bridge);
});
afterEach(() => {
  meetingSummaryAccount.value = null;
  rmSync(dir, { recursive: true, force: true });
});
unmountAfterEach();

/**
 * Ann and Bob Tester with one joint asset, and the advisor's firm as the 0.0.1 `/user` gave it, in
 * their workspace as the shell shows it: with the command palette and the toasts.
 */
async function open(lastName?: string): Promise<string> {
  const db = openDb();
  await putConfigEntries(db, [
    [CONFIG_KEYS.userV0, { pulledAt: 1, data: { company: 'Main Street Advisors' } }],
  ]);
  let account = await household(db);
  if (lastName !== undefined) {
    const fields = { ...account.fields, 'client.last_name': lastName, 'coclient.last_name': lastName };
    await db.accounts.update(account.id, { fields });
    account = { ...account, fields };
  }
  await syncedItem(db, account.id, 'assets', 'a1', {
    type: 'Real estate',
    name: 'Family home',
    owner: { type: 'joint', id: null },
    current_value: { value: 450000, frequency: 'one-time' },
  });
  await mountWorkspace(db, account.id, {}, { beside: [CommandPalette, Toast] });
  await settle();
  return account.id;
}

/** Ctrl+K, the command's words, Enter: as the advisor runs it. */
async function fromPalette(words: string): Promise<void> {
  await press('k', { ctrlKey: true });
  const input = one('palette-input') as HTMLInputElement;
  await vi.waitFor(() => expect(document.activeElement).toBe(input));
  await typeText(input, words);
  await press('Enter', {}, input);
  await settle();
}

const menuItems = () => [
  ...document.querySelectorAll<HTMLElement>('#workspace-export-menu [role="menuitem"]'),
];
const toast = () => document.querySelector('.p-toast-message')?.textContent ?? '';
const today = localDay(new Date());

describe('the workspace’s Export menu', () => {
  it('lists the household’s exports, named for assistive technology, and offers them in the palette', async () => {
    const accountId = await open();
    const button = one('export-open');
    expect(button.textContent?.trim()).toBe('Export');
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await click(button);
    await vi.waitFor(() => expect(menuItems()).toHaveLength(5));
    expect(document.querySelector('#workspace-export-menu [role="menu"]')?.getAttribute('aria-label')).toBe(
      'Export',
    );
    expect(menuItems().map((i) => i.getAttribute('aria-label'))).toEqual([
      'Financial summary (PDF)…',
      'Household data (Excel)…',
      'Household data (CSV, zip)…',
      'Meeting summary…',
      'Platform report…',
    ]);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(commandAvailable('workspace.export-summary')).toBe(true);
    expect(commandAvailable('workspace.export-data')).toBe(true);
    // The meeting summary is for this household: its dialog opens on it.
    expect(meetingSummaryAccount.value).toBeNull();
    await click(menuItems()[3]!.querySelector('a') ?? menuItems()[3]!);
    expect(meetingSummaryAccount.value).toBe(accountId);
  });

  it('saves the financial summary from the menu, with the firm and the figures, and says where', async () => {
    await open();
    await click(one('export-open'));
    await vi.waitFor(() => expect(menuItems()).toHaveLength(5));
    await click(menuItems()[0]!.querySelector('a') ?? menuItems()[0]!);
    const name = `Tester household – financial summary – ${today}.pdf`;
    await vi.waitFor(() => expect(toast()).toContain(`Saved ${name}`), { timeout: 20_000 });
    expect(toast()).toContain(`in ${join(dir, name)}`);
    expect(readdirSync(dir)).toEqual([name]);
    const text = execFileSync('pdftotext', ['-layout', join(dir, name), '-'], { encoding: 'utf8' });
    expect(text).toContain('Main Street Advisors');
    expect(text).toContain('Ann Tester and Bob Tester');
    expect(text).toMatch(/Family home\s+.*\$450,000/);
    expect(requests).toEqual([]);
  });

  it('asks Excel or CSV for the palette’s household data, and saves the CSV zip', async () => {
    await open();
    await fromPalette('Export household data');
    const dialog = one('export-household');
    expect(dialog.textContent).toContain('Export the household data');
    const formats = [...one('export-format').querySelectorAll<HTMLElement>('[role="radio"], button')];
    expect(formats.map((f) => f.textContent?.trim())).toEqual(['Excel (XLSX)', 'CSV files (zip)']);
    expect(readdirSync(dir)).toEqual([]);
    await click(formats[1]!);
    await click(one('export-start'));
    const name = `Tester household – household data – ${today}.zip`;
    await vi.waitFor(() => expect(toast()).toContain(`Saved ${name}`), { timeout: 20_000 });
    const listing = execFileSync('unzip', ['-Z1', join(dir, name)], { encoding: 'utf8' });
    expect(listing).toMatch(/summary\.csv/);
    expect(listing).toMatch(/assets\.csv/);
    const assets = execFileSync(
      'unzip',
      ['-p', join(dir, name), listing.split('\n').find((f) => /assets/.test(f))!],
      {
        encoding: 'utf8',
      },
    );
    expect(assets).toContain('Family home');
    expect(assets).toContain('450000');
    expect(requests).toEqual([]);
  });

  it('shows the file’s name as the disk gets it, a hidden character’s `_` marked, and saves it so', async () => {
    await open('Te\u202Ester');
    await fromPalette('Export household data');
    const shown = one('export-file-name');
    const mark = shown.querySelector<HTMLElement>('[data-testid="hidden-char"]')!;
    expect(mark.textContent).toBe('_U+202E');
    expect(shown.textContent).not.toContain('\u202E');
    const written = `Te_ster household – household data – ${today}.xlsx`;
    expect(withoutCodes(shown.querySelector('bdi')!)).toBe(written);
    await click(one('export-start'));
    await vi.waitFor(() => expect(toast()).toContain(`Saved ${written}`), { timeout: 20_000 });
    expect(readdirSync(dir)).toEqual([written]);
  });

  it('says what failed and what to do when the file cannot be saved, and leaves nothing', async () => {
    await open();
    // A folder that cannot be: its place holds a file.
    writeFileSync(join(dir, 'not-a-folder'), '');
    service = new ExportService((name) => Promise.resolve(join(dir, 'not-a-folder', name)));
    await fromPalette('Export financial summary');
    await vi.waitFor(
      () => expect(one('export-problem').textContent).toContain('financial summary was not saved'),
      {
        timeout: 20_000,
      },
    );
    expect(one('export-problem').textContent).toMatch(
      /Choose another folder or free some space, then try again/,
    );
    expect(one('export-start').textContent).toContain('Try again');
    expect(readdirSync(dir)).toEqual(['not-a-folder']);
    expect(toast()).toBe('');
  });

  it('leaves no file when cancelled while the save is under way', async () => {
    await open();
    let release = () => {};
    gate = new Promise((r) => (release = r));
    await fromPalette('Export financial summary');
    expect(one('export-progress').textContent).toContain('Choosing where to save…');
    await click(one('export-cancel'));
    release();
    await vi.waitFor(() => expect(document.querySelector('[data-testid="export-household"]')).toBeNull());
    expect(readdirSync(dir)).toEqual([]);
    expect(toast()).toBe('');
  });
});
