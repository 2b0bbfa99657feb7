// The app frame as the store tests mount it: the real shell at `/` with a page for every area
// its navigation links to, over a bridge the test gives, signed in as Alex; and the teardown of
// the sync and the store the frame opened.

import { afterEach } from 'vitest';
import { h, type Component } from 'vue';
import type { RouteRecordRaw } from 'vue-router';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { useSyncStore } from '../../../renderer/src/common/sync.ts';
import { AREAS } from '../../../renderer/src/shell/areas.ts';
import AppShell from '../../../renderer/src/shell/ShellView.vue';
import { NO_NETWORK } from '../../support/no-network.ts';

export { NO_NETWORK };

/** The sandbox's advisor as `/user` gives them, in `teams` (the first is the current one). */
export const alex = (teams: { id: number; name: string }[]) => ({
  first_name: 'Alex',
  last_name: 'Morgan',
  email: 'advisor@sandbox.test',
  photo: null,
  timezone: 'UTC',
  currency: 'USD',
  team: teams[0]!,
  teams,
  permissions: {},
});

/** The shell at `/` with a placeholder for every area, and `signIn` at `/sign-in`. */
export function frameRoutes(signIn: Component): RouteRecordRaw[] {
  const placeholder = (name: string) => ({ render: () => h('p', name) });
  return [
    {
      path: '/',
      component: AppShell,
      children: [
        { path: '', name: 'accounts', component: placeholder('the list') },
        // Every area the navigation links to (areas.ts), and the pages reached from them.
        ...[...AREAS.map((a) => a.name).filter((n) => n !== 'accounts'), 'settings', 'account-board'].map(
          (name) => ({ path: name, name, component: placeholder(name) }),
        ),
      ],
    },
    { path: '/sign-in', name: 'sign-in', component: signIn },
  ];
}

/**
 * After each test (and after the unmount: call it before `unmountAfterEach()`), stops the sync and
 * deletes the test's store. The sync's own stop is tested with the coordinator; here it must not
 * hold the next test up (its push pass may still be waiting on a retry when the test ends).
 */
export function stopSyncAfterEach(store: () => AdvisorDb): void {
  afterEach(async () => {
    const mine = store();
    const pause = () => new Promise((r) => setTimeout(r, 2000));
    await Promise.race([useSyncStore().stop(), pause()]);
    await Promise.race([mine.delete(), pause()]);
  });
}
