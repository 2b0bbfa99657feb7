// The sign-out dialog's rules (renderer/src/shell/sign-out.ts): how many changes it says are
// unsent, sending them first only when online, and nothing removed without the second
// confirmation that names what is lost.

import { describe, expect, it } from 'vitest';
import {
  elsewhereWay,
  keptNote,
  lossNote,
  SignOutFlow,
  unsentNote,
  type SignOutPorts,
} from '../../../renderer/src/shell/sign-out.ts';

/** Ports that record what was done, over a queue of `unsent` changes. */
function ports(unsent: number, options: { online?: boolean; sendable?: number; refuse?: string } = {}) {
  const done: string[] = [];
  const queue = { count: unsent };
  const port: SignOutPorts = {
    unsent: () => queue.count,
    waitingElsewhere: () => Promise.resolve([]),
    online: () => options.online ?? true,
    async sendUnsent(left) {
      done.push('send');
      const sendable = Math.min(options.sendable ?? queue.count, queue.count);
      for (let i = 0; i < sendable; i++) {
        await Promise.resolve();
        queue.count -= 1;
        left(queue.count);
      }
      return queue.count;
    },
    signOut() {
      done.push('sign-out');
      return Promise.resolve(options.refuse ?? null);
    },
    leave() {
      done.push('leave');
      return Promise.resolve();
    },
    removeLocalCopy() {
      done.push('remove');
      return Promise.resolve();
    },
  };
  return { port, done, queue };
}

describe('what the dialog says', () => {
  it('counts the changes that have not reached the platform, one and many', () => {
    expect(unsentNote(4)).toBe('4 changes have not reached the platform yet.');
    expect(unsentNote(1)).toBe('1 change has not reached the platform yet.');
  });

  it('names what removing the copy loses: the unsent changes for good, when there are any', () => {
    expect(lossNote(0)).toMatch(/every account, record and downloaded document/);
    expect(lossNote(0)).not.toMatch(/lost for good/);
    expect(lossNote(4)).toMatch(/The 4 changes that have not reached the platform will be lost for good\./);
    expect(lossNote(1)).toMatch(/The 1 change that has not reached the platform will be lost for good\./);
  });

  it('says what becomes of the unsent changes: kept and sent later, or lost once the copy is to go', () => {
    expect(keptNote(1, { online: false, removeCopy: false })).toBe(
      'It is kept here and sent at your next sign-in, when the platform can be reached.',
    );
    expect(keptNote(3, { online: true, removeCopy: false })).toBe(
      'They are kept here and sent at your next sign-in, unless you send them first.',
    );
    // "Also remove this computer's copy" ticked: nothing is kept to be sent (issue 23, point 10).
    for (const online of [true, false]) {
      const removing = keptNote(1, { online, removeCopy: true });
      expect(removing).not.toMatch(/kept here|sent at your next sign-in/);
      expect(removing).toMatch(
        /^Removing this computer's copy loses it for good: it never reaches the platform\./,
      );
    }
    expect(keptNote(1, { online: true, removeCopy: true })).toMatch(
      /Send it first, or keep the copy to send it at your next sign-in\.$/,
    );
    expect(keptNote(2, { online: false, removeCopy: true })).toMatch(
      /Keep the copy to send them at your next sign-in\.$/,
    );
    const harbor = [{ team: { id: 2, name: 'Harbor Wealth Partners' }, count: 2 }];
    expect(elsewhereWay(harbor, true)).toBe("They go with this computer's copy, lost for good.");
  });
});

describe('signing out', () => {
  it('without removing the copy: signs out, leaves, removes nothing; working meanwhile', async () => {
    const { port, done } = ports(4);
    const flow = new SignOutFlow(port);
    const out = flow.confirm();
    // The moment the advisor confirms, the dialog says what it does and its controls are off.
    expect(flow.step).toBe('signing-out');
    expect(flow.doing).toBe('Signing out…');
    expect(flow.busy).toBe(true);
    expect(flow.canSendFirst).toBe(false);
    expect(await out).toBe(true);
    expect(done).toEqual(['sign-out', 'leave']);
  });

  it('removing the copy asks a second time; declining removes nothing and signs nobody out', async () => {
    const { port, done } = ports(4);
    const flow = new SignOutFlow(port);
    flow.removeCopy = true;
    expect(await flow.confirm()).toBe(false);
    expect(flow.step).toBe('confirm-removal');
    expect(done).toEqual([]);
    flow.keepCopy();
    expect(flow.step).toBe('choose');
    expect(done).toEqual([]);
  });

  it('removes the copy only after the second confirmation, once the screens are left', async () => {
    const { port, done } = ports(4);
    const flow = new SignOutFlow(port);
    flow.removeCopy = true;
    await flow.confirm();
    expect(await flow.confirm()).toBe(true);
    expect(done).toEqual(['sign-out', 'leave', 'remove']);
  });

  it('unticking the box at the second step removes nothing', async () => {
    const { port, done } = ports(0);
    const flow = new SignOutFlow(port);
    flow.removeCopy = true;
    await flow.confirm();
    flow.keepCopy();
    flow.removeCopy = false;
    expect(await flow.confirm()).toBe(true);
    expect(done).not.toContain('remove');
  });

  it('a sign-out that fails says why, keeps the copy and lets the advisor try again', async () => {
    const { port, done } = ports(0, { refuse: 'Advisor Desk could not sign you out. Try again.' });
    const flow = new SignOutFlow(port);
    flow.removeCopy = true;
    await flow.confirm();
    expect(await flow.confirm()).toBe(false);
    expect(flow.step).toBe('choose');
    expect(flow.busy).toBe(false);
    expect(flow.problem).toBe('Advisor Desk could not sign you out. Try again.');
    expect(done).toEqual(['sign-out']);
  });
});

describe('sending the unsent changes first', () => {
  it('is offered online only, and only when there is something to send', () => {
    expect(new SignOutFlow(ports(4).port).canSendFirst).toBe(true);
    expect(new SignOutFlow(ports(4, { online: false }).port).canSendFirst).toBe(false);
    expect(new SignOutFlow(ports(0).port).canSendFirst).toBe(false);
  });

  it('offline, asking to send does nothing', async () => {
    const { port, done } = ports(4, { online: false });
    expect(await new SignOutFlow(port).sendFirst()).toBe(false);
    expect(done).toEqual([]);
  });

  it('shows the count going down, then goes on with the sign-out', async () => {
    const { port, done } = ports(3);
    const flow = new SignOutFlow(port);
    const seen: number[] = [];
    const sending = flow.sendFirst();
    expect(flow.step).toBe('sending');
    expect(flow.busy).toBe(true);
    seen.push(flow.left);
    for (let i = 0; i < 3; i++) {
      await Promise.resolve();
      seen.push(flow.left);
    }
    expect(await sending).toBe(true);
    expect(seen).toEqual([3, 2, 1, 0]);
    expect(done).toEqual(['send', 'sign-out', 'leave']);
  });

  it('with the copy to remove, still asks the second time after sending', async () => {
    const { port, done } = ports(2);
    const flow = new SignOutFlow(port);
    flow.removeCopy = true;
    expect(await flow.sendFirst()).toBe(false);
    expect(flow.step).toBe('confirm-removal');
    expect(done).toEqual(['send']);
    // All sent: what is lost no longer names unsent changes.
    expect(flow.unsent).toBe(0);
  });

  it('changes that could not be sent are counted, and nothing goes on without the advisor', async () => {
    const { port, done } = ports(4, { sendable: 1 });
    const flow = new SignOutFlow(port);
    flow.removeCopy = true;
    expect(await flow.sendFirst()).toBe(false);
    expect(flow.step).toBe('choose');
    expect(flow.problem).toMatch(/^3 changes have not reached the platform yet\./);
    expect(done).toEqual(['send']);
  });
});

describe('sending first while the platform asked us to wait', () => {
  /** Ports whose sending waits until `release` (the platform's wait), then sends everything. */
  function waiting(unsent: number, until: number, now: number) {
    const base = ports(unsent);
    let release: () => void = () => undefined;
    const port: SignOutPorts = {
      ...base.port,
      platformWaitUntil: () => until,
      now: () => now,
      async sendUnsent(left) {
        base.done.push('send');
        await new Promise<void>((resolve) => (release = resolve));
        base.queue.count = 0;
        left(0);
        return 0;
      },
    };
    return { ...base, port, release: () => release() };
  }
  const at = (h: number, m: number) => new Date(2026, 10, 26, h, m).getTime();
  const clock = (ms: number) =>
    new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(new Date(ms));

  it('says until when, and how many changes are left', () => {
    const { port } = waiting(3, at(14, 32), at(14, 2));
    const flow = new SignOutFlow(port);
    void flow.sendFirst();
    expect(flow.sendingNote).toBe(
      `The platform asked us to wait until ${clock(at(14, 32))}; 3 changes still to send.`,
    );
  });

  it('once the time has passed, says it is sending', () => {
    const { port } = waiting(1, at(14, 32), at(14, 33));
    const flow = new SignOutFlow(port);
    void flow.sendFirst();
    expect(flow.sendingNote).toBe(
      'Sending your changes to the platform… 1 change has not reached the platform yet.',
    );
  });

  it('Cancel is open while it waits; cancelled, the end of the sending signs nobody out', async () => {
    const { port, done, release } = waiting(2, at(14, 32), at(14, 2));
    const flow = new SignOutFlow(port);
    const sending = flow.sendFirst();
    expect(flow.busy).toBe(true);
    expect(flow.canCancel).toBe(true);
    flow.cancel();
    expect(flow.step).toBe('choose');
    release();
    expect(await sending).toBe(false);
    expect(done).toEqual(['send']);
  });

  it('Cancel is not offered once signing out has begun', () => {
    const flow = new SignOutFlow(ports(0).port);
    void flow.confirm();
    expect(flow.canCancel).toBe(false);
  });
});
