// File names that come from a server, made safe before they touch the disk: the rules live in
// shared/file-names.ts (the window shows a name as it will be written); a chosen path is Node's.

import { basename, dirname, join } from 'node:path';
import { sanitizeFileName } from '@shared/file-names.ts';

export { MAX_NAME_BYTES, sanitizeFileName, uniqueName } from '@shared/file-names.ts';

/**
 * The path the user chose in a save dialog, with its name made safe too (they chose the folder;
 * the name may still be one Windows would open as a device): `fallback` when nothing is left of it.
 */
export function safeChosenPath(chosen: string, fallback: string): string {
  return join(dirname(chosen), sanitizeFileName(basename(chosen), fallback));
}
