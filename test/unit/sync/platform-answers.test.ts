// What the coordinator tells of the platform's reach from the answers of both engines' requests
// (renderer/src/sync/coordinator/answers.ts): a failure that was under way when the network came
// back tells of before, and does not say "unreachable" over a newer answer.
import { describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import { PlatformAnswers } from '../../../renderer/src/sync/coordinator/answers.ts';

const USER: ApiRequest = { api: 'v2', method: 'GET', path: '/user' };
const ok: ApiResult = { ok: true, status: 200, data: {} };
/** What the main process answers when this computer has no network (no name server answers). */
const noNetwork: ApiResult = {
  ok: false,
  kind: 'network',
  network: 'down',
  status: null,
  message: 'fetch failed',
  fields: {},
  retryAfterMs: null,
};

/** A port whose answers the test gives, request by request, in any order. */
function scriptedPort() {
  const pending: ((result: ApiResult) => void)[] = [];
  const port = () => new Promise<ApiResult>((resolve) => pending.push(resolve));
  return { port, pending };
}

describe('the platform’s reach, read from the answers', () => {
  it('a failure sent before the network came back does not undo the answer of a request sent after', async () => {
    const { port, pending } = scriptedPort();
    const answers = new PlatformAnswers(port, () => {});
    const before = answers.send(USER);
    answers.networkFound();
    const probe = answers.send(USER);
    pending[1]!(ok);
    await probe;
    expect(answers.unreachable).toBe(false);
    pending[0]!(noNetwork);
    await before;
    expect(answers.unreachable).toBe(false);
    expect(answers.noWayOut).toBe(false);
  });

  it('a failure of a request sent after the last answer still says so', async () => {
    const { port, pending } = scriptedPort();
    const answers = new PlatformAnswers(port, () => {});
    const first = answers.send(USER);
    pending[0]!(ok);
    await first;
    const second = answers.send(USER);
    pending[1]!(noNetwork);
    await second;
    expect(answers.unreachable).toBe(true);
    expect(answers.noWayOut).toBe(true);
  });

  it('an answer shows the platform reachable, even to a request older than a failure', async () => {
    const { port, pending } = scriptedPort();
    const answers = new PlatformAnswers(port, () => {});
    const older = answers.send(USER);
    const newer = answers.send(USER);
    pending[1]!(noNetwork);
    await newer;
    expect(answers.unreachable).toBe(true);
    pending[0]!(ok);
    await older;
    expect(answers.unreachable).toBe(false);
  });
});
