// The export service writing real files in a temporary folder: whole or not at all, private to
// the user, under a safe name, and refusing calls whose arguments are not an export's.

import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dispatch } from '../../electron/main/bridge/handlers.ts';
import { ExportService } from '../../electron/main/exports/export-service.ts';
import { MAX_NAME_BYTES } from '../../electron/main/files/file-names.ts';
import { createServices } from '../../electron/main/services.ts';
import { MemorySecretStore } from '../../electron/main/auth/memory-secret-store.ts';
import { EXPORT_CHUNK_BYTES } from '@shared/bridge-schema.ts';
import type { ExportBeginResult } from '@shared/bridge.ts';
import { exportFileName } from '@shared/export/file-name.ts';
import { fileNameParts } from '@shared/platform-text.ts';

let dir: string;
/** What the save dialog was offered, and where the user "chose" (null: they cancelled). */
let offered: string[];
let choose: (name: string) => string | null;

const service = (idleMs?: number) =>
  new ExportService((name) => {
    offered.push(name);
    return Promise.resolve(choose(name));
  }, idleMs);

const bytesOf = (text: string) => new TextEncoder().encode(text);
const posix = process.platform !== 'win32';

function begun(result: ExportBeginResult): string {
  if (!result.ok) throw new Error(`the export did not begin: ${JSON.stringify(result)}`);
  return result.exportId;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'exports-'));
  offered = [];
  choose = (name) => join(dir, name);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('export service', () => {
  it('writes the chunks in order into a file that appears only when finished, 0600, progress growing', async () => {
    const exports = service();
    const id = begun(await exports.begin('Smith household – financial summary – 2026-11-25.pdf'));
    const target = join(dir, 'Smith household – financial summary – 2026-11-25.pdf');
    const progress: number[] = [];
    for (const part of ['%PDF-1.7\n', 'middle\n', '%%EOF\n']) {
      const written = await exports.write(id, bytesOf(part));
      if (!written.ok) throw new Error(written.error.message);
      progress.push(written.bytes);
      // Nothing under the final name until the end; the temporary file is hidden.
      expect(existsSync(target)).toBe(false);
      expect(readdirSync(dir).every((n) => n.startsWith('.') && n.endsWith('.part'))).toBe(true);
    }
    expect(progress).toEqual([9, 16, 22]);
    const done = await exports.finish(id);
    expect(done).toEqual({ ok: true, path: target, bytes: 22 });
    expect(readFileSync(target, 'utf8')).toBe('%PDF-1.7\nmiddle\n%%EOF\n');
    expect(readdirSync(dir)).toEqual(['Smith household – financial summary – 2026-11-25.pdf']);
    if (posix) expect(statSync(target).mode & 0o777).toBe(0o600);
    // Finished is finished: the id writes nothing more.
    expect(await exports.write(id, bytesOf('x'))).toMatchObject({ ok: false, error: { kind: 'io' } });
  });

  it('keeps the order of writes sent without waiting for each other', async () => {
    const exports = service();
    const id = begun(await exports.begin('list.csv'));
    const parts = Array.from({ length: 50 }, (_, i) => `${i},`);
    await Promise.all(parts.map((p) => exports.write(id, bytesOf(p))));
    await exports.finish(id);
    expect(readFileSync(join(dir, 'list.csv'), 'utf8')).toBe(parts.join(''));
  });

  it('leaves nothing when cancelled, and an existing file of that name as it was', async () => {
    writeFileSync(join(dir, 'accounts.csv'), 'the advisor’s own file');
    const exports = service();
    const id = begun(await exports.begin('accounts.csv'));
    await exports.write(id, bytesOf('half of a'));
    await exports.cancel(id);
    expect(readdirSync(dir)).toEqual(['accounts.csv']);
    expect(readFileSync(join(dir, 'accounts.csv'), 'utf8')).toBe('the advisor’s own file');
    expect(await exports.finish(id)).toMatchObject({ ok: false });
    expect(readFileSync(join(dir, 'accounts.csv'), 'utf8')).toBe('the advisor’s own file');
  });

  it('replaces a file the user chose to replace only with the whole new one', async () => {
    writeFileSync(join(dir, 'accounts.csv'), 'old');
    const exports = service();
    const id = begun(await exports.begin('accounts.csv'));
    await exports.write(id, bytesOf('new, '));
    expect(readFileSync(join(dir, 'accounts.csv'), 'utf8')).toBe('old');
    await exports.write(id, bytesOf('whole'));
    await exports.finish(id);
    expect(readFileSync(join(dir, 'accounts.csv'), 'utf8')).toBe('new, whole');
  });

  it('answers a dialog cancelled with cancelled, writing nothing', async () => {
    choose = () => null;
    expect(await service().begin('accounts.csv')).toEqual({ ok: false, cancelled: true });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('removes the temporary file when it cannot be put in place, and says where and why', async () => {
    // A folder holds the chosen name: the rename fails.
    mkdirSync(join(dir, 'accounts.csv'));
    const exports = service();
    const id = begun(await exports.begin('accounts.csv'));
    await exports.write(id, bytesOf('a,b\n'));
    const done = await exports.finish(id);
    expect(done).toMatchObject({ ok: false, error: { kind: 'io' } });
    if (!done.ok) expect(done.error.message).toContain(dir);
    expect(readdirSync(dir)).toEqual(['accounts.csv']);
    expect(statSync(join(dir, 'accounts.csv')).isDirectory()).toBe(true);
  });

  it('says so when the folder cannot be written', async () => {
    choose = (name) => join(dir, 'a-file', name);
    writeFileSync(join(dir, 'a-file'), '');
    const result = await service().begin('accounts.csv');
    expect(result).toMatchObject({ ok: false, cancelled: false, error: { kind: 'io' } });
    if (!result.ok && !result.cancelled) expect(result.error.message).toMatch(/part of the path is a file/);
  });

  it('makes names safe: path parts, reserved names, characters Windows refuses, the 200-byte bound', async () => {
    const exports = service();
    const first = await exports.begin('../../etc/Smith: plan?.csv');
    expect(offered.at(-1)).toBe('Smith_ plan_.csv');
    expect(first).toMatchObject({ ok: true, name: 'Smith_ plan_.csv' });
    await exports.begin('CON.csv');
    expect(offered.at(-1)).toBe('export.csv');
    await exports.begin(`${'Łódź household – '.repeat(30)}summary.pdf`);
    const long = offered.at(-1) ?? '';
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(long.endsWith('.pdf')).toBe(true);
    // The name typed in the dialog is made safe too; the folder chosen is kept.
    choose = () => join(dir, 'nul.pdf');
    const typed = await exports.begin('summary.pdf');
    expect(typed).toMatchObject({ ok: true, name: 'summary.pdf' });
    await exports.cancelAll();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes a name made from a household with hidden characters under the name the window shows', async () => {
    // The subject is the platform's: a client's last name starting with RIGHT-TO-LEFT OVERRIDE.
    const suggested = exportFileName(
      'Ann \u202ERetsel household',
      'financial summary',
      new Date(2026, 10, 25),
      'pdf',
    );
    const exports = service();
    const id = begun(await exports.begin(suggested));
    // On disk the override is `_`: the window lists the file by the same name, the `_` marked.
    const written = 'Ann _Retsel household – financial summary – 2026-11-25.pdf';
    expect(offered.at(-1)).toBe(written);
    expect(
      fileNameParts(suggested)
        .map((p) => (p.kind === 'text' ? p.text : p.shown))
        .join(''),
    ).toBe(written);
    await exports.write(id, bytesOf('%PDF'));
    expect(await exports.finish(id)).toMatchObject({ ok: true, path: join(dir, written) });
    expect(readdirSync(dir)).toEqual([written]);
  });

  it('refuses a second export to a file already being written', async () => {
    const exports = service();
    begun(await exports.begin('accounts.csv'));
    expect(await exports.begin('accounts.csv')).toMatchObject({ ok: false, cancelled: false });
    await exports.cancelAll();
  });

  it('drops an export left without writes, and its temporary file', async () => {
    const exports = service(40);
    const id = begun(await exports.begin('accounts.csv'));
    // Dropped once idle for 40 ms: its temporary file goes (under load, a while after the 40 ms).
    await vi.waitFor(() => expect(readdirSync(dir)).toEqual([]));
    expect(await exports.write(id, bytesOf('late'))).toMatchObject({ ok: false, error: { kind: 'io' } });
  });
});

describe('export channels', () => {
  const handlers = () =>
    createServices({
      settingsStore: { get: () => undefined, set: () => undefined },
      secrets: new MemorySecretStore('test'),
      openExternal: () => Promise.resolve(false),
      chooseSavePath: (name) => Promise.resolve(join(dir, name)),
      confirmAddressChange: () => Promise.resolve(true),
      cacheDir: join(dir, 'cache'),
    }).handlers;

  it('write through the service and name every argument they refuse', async () => {
    const h = handlers();
    const start = (await dispatch(h, 'exports.begin', ['accounts.csv'])) as ExportBeginResult;
    const id = begun(start);
    expect(await dispatch(h, 'exports.write', [id, bytesOf('a')])).toEqual({ ok: true, bytes: 1 });

    const refusals: [string, unknown[], string][] = [
      ['exports.begin', ['run.exe'], 'suggestedName'],
      ['exports.begin', [''], 'suggestedName'],
      ['exports.begin', [42], 'suggestedName'],
      ['exports.write', ['../../etc/passwd', bytesOf('a')], 'exportId'],
      ['exports.write', [id, 'text, not bytes'], 'chunk'],
      ['exports.write', [id, [1, 2, 3]], 'chunk'],
      ['exports.write', [id, new Uint8Array(EXPORT_CHUNK_BYTES + 1)], 'chunk'],
      ['exports.finish', [{ id }], 'exportId'],
    ];
    for (const [channel, args, field] of refusals) {
      const answer = (await dispatch(h, channel, args)) as {
        ok: boolean;
        error: { kind: string; fields: object; message: string };
      };
      expect(answer.ok, `${channel} ${field}`).toBe(false);
      expect(answer.error.kind).toBe('validation');
      expect(Object.keys(answer.error.fields)).toEqual([field]);
      expect(answer.error.message).toContain(`${field} (`);
    }
    await expect(dispatch(h, 'exports.cancel', ['no'])).rejects.toThrow(/exports.cancel/);
    expect(await dispatch(h, 'exports.finish', [id])).toMatchObject({ ok: true, bytes: 1 });
    expect(readFileSync(join(dir, 'accounts.csv'), 'utf8')).toBe('a');
  });
});
