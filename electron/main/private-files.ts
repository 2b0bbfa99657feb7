// Folders and files that hold the user's data (settings, the diagnostics log, the browser
// preview's data folder) are theirs alone: folders 0700, files 0600, also when an earlier version
// made them with the umask's 0755 and 0644. (Windows has no such modes; Node ignores them there.)

import { chmodSync, existsSync, mkdirSync } from 'node:fs';

/** Makes `folder` if it is missing (0700, with its missing parents) and makes it private if it was not. */
export function privateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(folder, 0o700);
}

/** Makes an existing file private (0600); a missing one is left to be created 0600 by its writer. */
export function privateFile(file: string): void {
  if (existsSync(file)) chmodSync(file, 0o600);
}
