// Copies of stored files handed to the system's viewer. The viewer never gets the kept copy itself:
// an annotation saved in Preview or Acrobat would change this computer's copy, which exports and
// previews go on reading. Each Open gets a fresh copy at `<user folder>/.opened/<random>/<name>`,
// removed with the rest of the user's folder at sign-out (FileService.forgetUser) and at start once
// a day old (a viewer may still show one from the last run).

import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { USER_KEY } from './file-service.ts';

const OPENED = '.opened';
/** How long a copy handed to a viewer stays after the run that opened it. */
export const OPENED_COPY_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Where the next copy of `name` (already made safe) goes: a folder of its own, so the viewer sees
 * the file's real name and a second Open never meets the first copy, which may be open and edited.
 */
export function openedCopyPath(userFolder: string, name: string): string {
  return join(userFolder, OPENED, randomBytes(8).toString('hex'), name);
}

/**
 * Removes every user's opened copies older than `maxAgeMs` (by their folder's time); the number
 * removed. A copy that cannot be removed now (a viewer holds it, on Windows) goes at a later start.
 */
export async function removeOldOpenedCopies(
  cacheRoot: string,
  now = Date.now(),
  maxAgeMs = OPENED_COPY_AGE_MS,
): Promise<number> {
  let removed = 0;
  const users = (await readdir(cacheRoot).catch(() => [] as string[])).filter((name) => USER_KEY.test(name));
  for (const user of users) {
    const opened = join(cacheRoot, user, OPENED);
    for (const copy of await readdir(opened).catch(() => [] as string[])) {
      const at = join(opened, copy);
      const changed = (await stat(at).catch(() => null))?.mtimeMs;
      if (changed === undefined || now - changed < maxAgeMs) continue;
      const gone = await rm(at, { recursive: true, force: true }).then(
        () => true,
        () => false,
      );
      if (gone) removed++;
    }
  }
  return removed;
}
