// The diagnostics log's file, written by electron-log (its plain Node entry, so the Electron app,
// the browser-preview host and the tests write it the same way): one line per entry, and past
// `maxBytes` the file is renamed to `<name>.old.log` (replacing the older one) and begun anew.
// electron-log's own renderer channel is not used: the renderer reports through the Bridge,
// whose schema admits ids, counts, kinds and statuses only. Its folder is made 0700 and its files
// 0600 (private-files.ts).

import { readFile } from 'node:fs/promises';
import { join, parse } from 'node:path';
import log from 'electron-log/node';
import { privateFile, privateFolder } from '../private-files.ts';
import type { LogFile } from './diagnostics-log.ts';

/** About a week of syncing every five minutes; the older file doubles what is kept. */
export const DEFAULT_MAX_BYTES = 1024 * 1024;

let loggers = 0;

/** The log file, until `close()`: after it, entries are dropped (the host is gone). */
export function electronLogFile(file: string, maxBytes = DEFAULT_MAX_BYTES): LogFile & { close(): void } {
  const logger = log.create({ logId: `diagnostics-${++loggers}` });
  // Only the file: nothing on the console, nothing sent anywhere.
  for (const transport of Object.values(logger.transports)) if (transport) transport.level = false;
  logger.transports.file.level = 'info';
  logger.transports.file.resolvePathFn = () => file;
  logger.transports.file.maxSize = maxBytes;
  logger.transports.file.format = '{iso} {level} {text}';
  logger.transports.file.writeOptions = { flag: 'a', mode: 0o600, encoding: 'utf8' };
  const { dir, name, ext } = parse(file);
  const older = join(dir, `${name}.old${ext}`);
  // Before electron-log makes the folder with the umask's mode; files of an earlier run made private.
  privateFolder(dir);
  privateFile(file);
  privateFile(older);
  let open = true;
  return {
    append: (level, line) => {
      if (open) logger[level](line);
    },
    close: () => {
      open = false;
    },
    recent: async () => (await readOrEmpty(older)) + (await readOrEmpty(file)),
  };
}

async function readOrEmpty(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}
