// Downloads of stored files under way, with their bytes so far: the window asks for them
// (`files.transfers`) while it waits on an open, a save or a meeting's files, and shows progress.
// Each is filed under the user it runs for, so a window never sees another user's downloads.

import type { FileTransfer, StoredFileRequest } from '@shared/bridge.ts';
import type { OnBytes } from './file-service.ts';

interface Running extends FileTransfer {
  owner: string | null;
}

export class FileTransfers {
  private readonly running = new Set<Running>();

  /** A download begins for `owner` (the user's cache folder): report its bytes, then end it. */
  start(
    request: Pick<StoredFileRequest, 'api' | 'url'>,
    owner: string | null,
  ): { onBytes: OnBytes; end: () => void } {
    const entry: Running = { api: request.api, url: request.url, bytes: 0, total: null, owner };
    this.running.add(entry);
    return {
      onBytes: (bytes, total) => {
        entry.bytes = bytes;
        entry.total = total;
      },
      end: () => this.running.delete(entry),
    };
  }

  /** The downloads under way for `owner`; none for nobody. */
  of(owner: string | null): FileTransfer[] {
    if (owner === null) return [];
    return [...this.running]
      .filter((t) => t.owner === owner)
      .map(({ api, url, bytes, total }) => ({ api, url, bytes, total }));
  }
}
