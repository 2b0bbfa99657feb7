// Paths from a request, resolved inside a folder and never outside it.

import { join, normalize, sep } from 'node:path';

/** The file under `root` a request path names, or null when it would leave `root`. */
export function resolveInside(root: string, requestPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const file = normalize(join(root, decoded === '/' ? '/index.html' : decoded));
  return file === root || file.startsWith(root.endsWith(sep) ? root : root + sep) ? file : null;
}
