// @vitest-environment happy-dom
// A member's photo shows as a thumbnail: the file chosen here at once, while its upload waits (from
// the local store), and the platform's copy once synced, by its File object's address through the
// bridge (`files.preview`, which keeps it in the user's cache: test/integration/files.test.ts).
// Where no copy can be had (never fetched, offline), the card shows the name and size alone. The
// file chosen here is shown from its kept blob, which fake-indexeddb does not keep as a Blob: that
// part, and the card's layout, are asserted in real Chromium (test/e2e/member-photo.spec.ts).

import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import type { Bridge, PreviewRequest, PreviewResult } from '@shared/bridge.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { household, mountWorkspace, one, openDb, syncedSingle, type Mounted } from './harness.ts';

unmountAfterEach();

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);
const URL_OF_PHOTO = 'http://127.0.0.1:4010/api/v0/files/f1/ann-portrait.png';

/** The bridge's file side as the main process answers it: the picture kept for the user, or none. */
function files(answer: PreviewResult) {
  const asked: PreviewRequest[] = [];
  useBridge({
    files: {
      preview: (req: PreviewRequest) => {
        asked.push(req);
        return Promise.resolve(answer);
      },
    },
  } as unknown as Bridge);
  return asked;
}

/** The Members tab of Ann, whose photo (of `kb` KB) the platform has. */
async function membersTabWithPhoto(kb: number): Promise<Mounted> {
  const db = openDb();
  const account = await household(db);
  const photo = {
    type: 'image',
    url: URL_OF_PHOTO,
    filetype: 'image/png',
    filesize: kb,
    filename: 'ann-portrait.png',
  };
  await syncedSingle(db, account.id, 'details:client', {
    first_name: 'Ann',
    email: 'ann@example.com',
    photo,
  });
  return mountWorkspace(db, account.id, { tab: 'members' });
}

const thumbnail = () => one('member-photo').querySelector('img');

describe('a member’s photo', () => {
  it('shows the platform’s copy once synced, by the address of its File object', async () => {
    const asked = files({ ok: true, bytes: PNG });
    await membersTabWithPhoto(1);

    await vi.waitFor(() => expect(thumbnail()?.getAttribute('src')).toMatch(/^blob:/));
    expect(asked).toEqual([{ api: 'v0', url: URL_OF_PHOTO, priority: 'interactive' }]);
    expect(one('member-photo').textContent).toContain('ann-portrait.png');
    expect(one('member-photo').textContent).not.toContain('waiting to upload');
  });

  it('without a copy to be had, says the name and size, and no broken picture', async () => {
    files({
      ok: false,
      error: { ok: false, kind: 'network', status: null, message: 'offline', fields: {}, retryAfterMs: 5000 },
    });
    await membersTabWithPhoto(12);

    await vi.waitFor(() => expect(one('member-photo').textContent).toContain('12 KB'));
    expect(thumbnail()).toBeNull();
  });
});
