// Marks a document downloaded from the platform as come from the internet, so the OS treats it as
// such when it is opened: Windows' Mark-of-the-Web (Office opens it in Protected View, SmartScreen
// checks it) and macOS's quarantine (Gatekeeper checks it). Linux has no such mark.
//
// The port is chosen by `process.platform`: Windows writes a `Zone.Identifier` stream
// (`ZoneId=3`, `HostUrl`), macOS the `com.apple.quarantine` attribute (`xattr -w`), Linux nothing.
// A volume that cannot carry the mark keeps the file. Only the choice and the text written are
// tested (on Linux): the Windows and macOS writes have not run in this project's tests.

import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

/** How one OS is told where a file came from; `mark` never throws (a volume without streams or attributes). */
export interface DownloadMarks {
  readonly kind: 'zone-identifier' | 'quarantine' | 'none';
  mark(path: string, source: URL): Promise<void>;
}

/** What the marks do to the system, replaceable in tests (the real writes run only on their OS). */
export interface MarkWriters {
  writeFile(path: string, text: string): Promise<void>;
  run(command: string, args: readonly string[]): Promise<void>;
  now(): number;
  uuid(): string;
}

const systemWriters: MarkWriters = {
  writeFile: (path, text) => writeFile(path, text, { encoding: 'utf8', mode: 0o600 }),
  run: async (command, args) => {
    await promisify(execFile)(command, [...args], { timeout: 10_000 });
  },
  now: () => Date.now(),
  uuid: () => randomUUID(),
};

/**
 * The Zone.Identifier stream's text: zone 3 is the Internet zone; HostUrl is where the file came
 * from (the URL parser has escaped any line break, so it cannot add a line).
 */
export function zoneIdentifier(source: URL): string {
  return `[ZoneTransfer]\r\nZoneId=3\r\nHostUrl=${withoutFragment(source)}\r\n`;
}

/**
 * The com.apple.quarantine value: flags (0083, as a browser's download), the time in hexadecimal
 * seconds, the agent, an event id.
 */
export function quarantineValue(now: number, uuid: string): string {
  const seconds = Math.floor(now / 1000).toString(16);
  return `0083;${seconds};Advisor Desk;${uuid.toUpperCase()}`;
}

/** The marks of `platform` (process.platform): Windows and macOS have theirs; other systems none. */
export function downloadMarksFor(
  platform: NodeJS.Platform,
  writers: MarkWriters = systemWriters,
): DownloadMarks {
  if (platform === 'win32')
    return {
      kind: 'zone-identifier',
      // An alternate data stream of the file, written like a file of its own.
      mark: (path, source) =>
        writers.writeFile(`${path}:Zone.Identifier`, zoneIdentifier(source)).catch(ignore),
    };
  if (platform === 'darwin')
    return {
      kind: 'quarantine',
      mark: (path) =>
        writers
          .run('/usr/bin/xattr', [
            '-w',
            'com.apple.quarantine',
            quarantineValue(writers.now(), writers.uuid()),
            path,
          ])
          .catch(ignore),
    };
  return { kind: 'none', mark: () => Promise.resolve() };
}

function withoutFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  copy.username = '';
  copy.password = '';
  return copy.href;
}

/**
 * A volume that cannot carry the mark (FAT and exFAT have no streams, some network shares no
 * attributes) must not cost the user the file; browsers save there unmarked too.
 */
const ignore = (): void => undefined;
