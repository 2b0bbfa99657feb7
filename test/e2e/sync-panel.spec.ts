// The sync status control and its panel in the browser preview, offline at a meeting: a change
// waiting, a change the platform refused and a conflict, each listed in the panel and each leading
// to where it is fixed. The refused change and the conflict are given the states the push engine
// gives them (written into the app's IndexedDB while offline, then the window told to read it again), so the
// panel can be seen with all three kinds at once. Screenshots light and dark.

import type { Page } from '@playwright/test';
import { syncName } from '../../renderer/src/sync/coordinator/index.ts';
import {
  activeAccounts,
  appStore,
  bothThemes,
  expect,
  goOffline,
  localId,
  openList,
  renameClient as rename,
  test,
} from './fixtures.ts';

// The screens are under test here, not a minute's wait for the budget (prepare-meeting.spec.ts
// and delete-account.spec.ts run at the platform's 60 a minute).
test.use({ requestsPerMinute: 1000 });

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return -- raw IndexedDB in the page; this file is typed for Node, without the DOM */
/** Gives the last operation of an account the state the push engine would: refused, or in conflict. */
async function settle(
  page: Page,
  recordId: string,
  as: 'rejected' | 'conflict',
  before: string,
): Promise<void> {
  const store = await appStore(page);
  await page.evaluate(
    ({ recordId, as, before, store }) =>
      new Promise<void>((resolve, reject) => {
        const open: any = (globalThis as any).indexedDB.open(store);
        open.onerror = () => reject(new Error('no database'));
        open.onsuccess = () => {
          const tx: any = open.result.transaction(['outbox', 'accounts', 'conflicts'], 'readwrite');
          const outbox: any = tx.objectStore('outbox');
          const all: any = outbox.index('recordId').getAll(recordId);
          all.onsuccess = () => {
            const op: any = (all.result as any[]).at(-1);
            if (!op) return reject(new Error('no operation'));
            if (as === 'rejected') {
              op.state = 'rejected';
              op.lastError = {
                kind: 'validation',
                status: 422,
                message: 'The given data was invalid.',
                fields: { 'client.first_name': ['The client.first name may not contain digits.'] },
              };
            } else {
              op.state = 'conflict';
              tx.objectStore('conflicts').put({
                id: op.id,
                table: 'accounts',
                recordId,
                fields: {
                  'client.first_name': {
                    base: before,
                    mine: op.fields['client.first_name'],
                    theirs: `${before}ine`,
                  },
                },
                detectedAt: Date.now(),
              });
            }
            outbox.put(op);
            const accounts: any = tx.objectStore('accounts');
            const get: any = accounts.get(recordId);
            get.onsuccess = () => accounts.put({ ...get.result, status: as });
          };
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(new Error('not written'));
        };
      }),
    { recordId, as, before, store },
  );
}
/* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return */

test('the sync panel lists what waits, what was refused and conflicts; each leads to its fix', async ({
  page,
  context,
  servers,
}) => {
  await openList(page, servers);
  const status = page.getByTestId('sync-status');
  await expect(status).toContainText('Online');

  const [a, b, c] = activeAccounts(servers);
  const [idA, idB, idC] = [
    await localId(page, a!.id),
    await localId(page, b!.id),
    await localId(page, c!.id),
  ];

  // The workspace's code is loaded once online (the preview serves it; the desktop app has it on disk).
  await page.evaluate(
    (hash) => ((globalThis as unknown as { location: { hash: string } }).location.hash = hash),
    `#/accounts/${idA}`,
  );
  await expect(page.getByTestId('workspace-title')).toBeVisible();

  await goOffline(context, servers);
  await expect(status).toContainText('Offline');
  await rename(page, idA, 'Waiting');
  await rename(page, idB, 'Ref4sed');
  await rename(page, idC, 'Mine');
  await expect(status).toContainText('3 to send');
  // Offline, the push engine leaves the operations alone: the states written here stay as given.
  await settle(page, idB, 'rejected', b!.client.first_name);
  await settle(page, idC, 'conflict', c!.client.first_name);
  // As the worker tells the other windows after the push moved operations: read the store again.
  await page.evaluate(
    (channel) => {
      const Channel = (
        globalThis as unknown as { BroadcastChannel: new (name: string) => { postMessage(m: unknown): void } }
      ).BroadcastChannel;
      new Channel(channel).postMessage({ type: 'stored' });
    },
    syncName(await appStore(page)),
  );
  await expect(status).toContainText('1 to send');
  await expect(status).toContainText('2 to fix');

  await status.click();
  const panel = page.getByTestId('sync-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('rejected-entry')).toContainText('may not contain digits');
  await expect(panel.getByTestId('conflict-entry')).toContainText('Both changed: client first name');
  await expect(panel.getByTestId('pending-entry')).toContainText('Waiting');
  await bothThemes(page, 'sync-panel');

  // The refused change: the account form, with the platform's words on the field.
  await panel.getByTestId('rejected-entry').getByRole('button').first().click();
  await expect(page.getByTestId('account-form-refused')).toBeVisible();
  await expect(page.locator('#account-client-first_name-messages')).toContainText('may not contain digits');
  await page.keyboard.press('Escape');

  // The conflict: mine and theirs side by side.
  await status.click();
  await panel.getByTestId('conflict-entry').getByRole('button').first().click();
  await expect(page.getByTestId('conflict')).toContainText(`${c!.client.first_name}ine`);
});
