// Which mark each OS gets and what it would write. The writes themselves (an NTFS stream, xattr)
// run only on Windows and macOS; here they go to recording writers.

import { describe, expect, it } from 'vitest';
import {
  downloadMarksFor,
  quarantineValue,
  zoneIdentifier,
  type MarkWriters,
} from '../../../electron/main/files/download-marks.ts';

function recorder(fail = false) {
  const files: { path: string; text: string }[] = [];
  const commands: { command: string; args: readonly string[] }[] = [];
  const writers: MarkWriters = {
    writeFile: (path, text) => {
      files.push({ path, text });
      return fail ? Promise.reject(new Error('EINVAL: no streams on FAT')) : Promise.resolve();
    },
    run: (command, args) => {
      commands.push({ command, args });
      return fail ? Promise.reject(new Error('xattr failed')) : Promise.resolve();
    },
    now: () => Date.UTC(2026, 2, 14, 9, 30),
    uuid: () => '3b9296c0-c6f4-49b3-bac1-bcb229ffe7d6',
  };
  return { writers, files, commands };
}

const source = new URL('https://platform.example/api/v0/files/abc/Statement%20March.pdf#page=2');

describe('downloadMarksFor', () => {
  it('Windows: a Zone.Identifier stream beside the file, Internet zone, with the address it came from', async () => {
    const { writers, files, commands } = recorder();
    const marks = downloadMarksFor('win32', writers);
    expect(marks.kind).toBe('zone-identifier');
    await marks.mark('C:\\Users\\a\\Downloads\\.Ab3_x-9Z.part', source);
    expect(files).toEqual([
      {
        path: 'C:\\Users\\a\\Downloads\\.Ab3_x-9Z.part:Zone.Identifier',
        text: '[ZoneTransfer]\r\nZoneId=3\r\nHostUrl=https://platform.example/api/v0/files/abc/Statement%20March.pdf\r\n',
      },
    ]);
    expect(commands).toEqual([]);
  });

  it('macOS: the com.apple.quarantine attribute through xattr -w, as a browser download', async () => {
    const { writers, files, commands } = recorder();
    const marks = downloadMarksFor('darwin', writers);
    expect(marks.kind).toBe('quarantine');
    await marks.mark('/Users/a/Downloads/.Ab3_x-9Z.part', source);
    const seconds = (Date.UTC(2026, 2, 14, 9, 30) / 1000).toString(16);
    expect(commands).toEqual([
      {
        command: '/usr/bin/xattr',
        args: [
          '-w',
          'com.apple.quarantine',
          `0083;${seconds};Advisor Desk;3B9296C0-C6F4-49B3-BAC1-BCB229FFE7D6`,
          '/Users/a/Downloads/.Ab3_x-9Z.part',
        ],
      },
    ]);
    expect(files).toEqual([]);
  });

  it('Linux and the others: no mark, nothing written', async () => {
    for (const platform of ['linux', 'freebsd', 'openbsd'] as const) {
      const { writers, files, commands } = recorder();
      const marks = downloadMarksFor(platform, writers);
      expect(marks.kind).toBe('none');
      await marks.mark('/home/a/.x.part', source);
      expect([...files, ...commands]).toEqual([]);
    }
  });

  it('a volume that cannot carry the mark does not cost the file', async () => {
    for (const platform of ['win32', 'darwin'] as const) {
      const { writers } = recorder(true);
      await expect(downloadMarksFor(platform, writers).mark('/x/.y.part', source)).resolves.toBeUndefined();
    }
  });

  it('the process platform picks the port', () => {
    const expected = { win32: 'zone-identifier', darwin: 'quarantine' } as Record<string, string>;
    expect(downloadMarksFor(process.platform).kind).toBe(expected[process.platform] ?? 'none');
  });
});

describe('what the marks say', () => {
  it('HostUrl is one line without credentials or fragment', () => {
    const text = zoneIdentifier(new URL('https://u:p@platform.example/api/v0/files/a/b%0D%0AZoneId=0.pdf#x'));
    expect(text.split('\r\n')).toEqual([
      '[ZoneTransfer]',
      'ZoneId=3',
      'HostUrl=https://platform.example/api/v0/files/a/b%0D%0AZoneId=0.pdf',
      '',
    ]);
  });

  it('the quarantine time is hexadecimal seconds', () => {
    expect(quarantineValue(0x59b926ad * 1000 + 999, 'abc')).toBe('0083;59b926ad;Advisor Desk;ABC');
  });
});
