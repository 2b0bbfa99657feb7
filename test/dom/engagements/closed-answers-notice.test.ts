// @vitest-environment happy-dom
// After a questionnaire is closed and the account pulled again, the workspace says which parts of
// the household the answers changed, each a link to where the advisor reads it, until dismissed;
// and says so plainly when nothing held here changed or when it cannot be told.

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import type { Bridge } from '@shared/bridge.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { useConnectivityStore } from '../../../renderer/src/common/connectivity.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import {
  readClosedAnswers,
  recordClosedAnswers,
} from '../../../renderer/src/sync/coordinator/closed-answers.ts';
import { INTAKE, engagement, user } from './harness.ts';
import { click, household, mountWorkspace, openDb, settle, type Mounted } from '../workspace/harness.ts';

let mounted: Mounted | null = null;
beforeEach(() => {
  useBridge({
    api: { request: () => Promise.reject(new Error('no request is expected offline')) },
  } as unknown as Bridge);
});
unmountAfterEach();

const all = (id: string) => [...document.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];

async function workspaceAfterClose(db: AdvisorDb, parts: string[] | null) {
  await user(db);
  const account = await household(db);
  await db.engagements.put(
    engagement('e-1', 7, 72, { template_id: INTAKE.id, title: INTAKE.title, status: 'COMPLETED' }),
  );
  await recordClosedAnswers(db, account.id, 'e-1', parts, Date.now());
  mounted = await mountWorkspace(db, account.id, { tab: 'engagements' });
  useConnectivityStore().networkUp = false;
  await settle();
  return account;
}

describe('what a closed questionnaire changed, in the workspace', () => {
  it('names the changed parts in the advisor’s words, each a link to where it is read', async () => {
    const db = openDb();
    await workspaceAfterClose(db, ['details:coclient', 'assets', 'profile']);
    await vi.waitFor(() => expect(all('closed-answers')).toHaveLength(1));
    const notice = all('closed-answers')[0]!;
    expect(notice.textContent?.replace(/\s+/g, ' ')).toContain(
      'Answers from “Client intake questionnaire” changed: Details of Bob Tester, Assets and Profile.',
    );
    const links = all('closed-answers-part');
    expect(links.map((l) => l.textContent)).toEqual(['Details of Bob Tester', 'Assets', 'Profile']);

    await click(links[1]!);
    await vi.waitFor(() =>
      expect(mounted!.router.currentRoute.value.query).toMatchObject({
        tab: 'financials',
        section: 'assets',
      }),
    );
    await click(all('closed-answers-part')[0]!);
    await vi.waitFor(() =>
      expect(mounted!.router.currentRoute.value.query).toMatchObject({ tab: 'members', member: 'coclient' }),
    );
    await click(all('closed-answers-part')[2]!);
    await vi.waitFor(() =>
      expect(mounted!.router.currentRoute.value.query).toMatchObject({ tab: 'overview' }),
    );
    await vi.waitFor(() => expect(all('profile')).toHaveLength(1));
  });

  it('dismissed, it is gone from this computer', async () => {
    const db = openDb();
    const account = await workspaceAfterClose(db, ['profile']);
    await vi.waitFor(() => expect(all('closed-answers')).toHaveLength(1));
    await click(all('closed-answers')[0]!.querySelector<HTMLElement>('button')!);
    await vi.waitFor(async () => expect(await readClosedAnswers(db, account.id)).toBeNull());
    await settle();
    expect(all('closed-answers')).toHaveLength(0);
  });

  it('says when the answers changed nothing held here, and when what changed cannot be told', async () => {
    const db = openDb();
    const account = await workspaceAfterClose(db, []);
    await vi.waitFor(() =>
      expect(all('closed-answers')[0]?.textContent).toContain('they changed nothing this computer held'),
    );
    await recordClosedAnswers(db, account.id, 'e-1', null, Date.now());
    await vi.waitFor(() =>
      expect(all('closed-answers')[0]?.textContent).toContain('so what they changed cannot be told'),
    );
  });
});
