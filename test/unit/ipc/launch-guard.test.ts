// The installed app quits when started with a debugging switch; development builds may be debugged.

import { describe, expect, it } from 'vitest';
import { refusedDebugSwitch } from '../../../electron/main/launch-guard.ts';

const exe = '/opt/Advisor Desk/advisor-desk';

describe('refusedDebugSwitch', () => {
  it('refuses every debugging switch in the installed app, with or without a value', () => {
    const cases: [arg: string, named: string][] = [
      ['--remote-debugging-port=9222', '--remote-debugging-port'],
      ['--remote-debugging-port', '--remote-debugging-port'],
      ['--remote-debugging-pipe', '--remote-debugging-pipe'],
      ['--inspect', '--inspect'],
      ['--inspect=127.0.0.1:9229', '--inspect'],
      ['--inspect-brk=9229', '--inspect-brk'],
      ['--inspect-port=0', '--inspect-port'],
      ['--js-flags=--allow-natives-syntax', '--js-flags'],
      // Chromium also reads one dash, and on Windows a slash and any case.
      ['-remote-debugging-port=9222', '-remote-debugging-port'],
      ['/remote-debugging-port=9222', '/remote-debugging-port'],
      ['--Remote-Debugging-Port=9222', '--Remote-Debugging-Port'],
    ];
    for (const [arg, named] of cases) {
      expect(refusedDebugSwitch([exe, '--no-sandbox-not-ours', arg], true), arg).toBe(named);
    }
  });

  it('lets the installed app start with ordinary arguments', () => {
    expect(refusedDebugSwitch([exe], true)).toBeNull();
    expect(
      refusedDebugSwitch([exe, '--lang=fr', 'advisor-desk://open', '--enable-logging'], true),
    ).toBeNull();
    // A value that merely mentions a switch, or a longer switch that starts like one, is no debugger.
    expect(refusedDebugSwitch([exe, '--profile-name=--inspect', '--inspector-theme'], true)).toBeNull();
  });

  it('never looks at the executable path itself', () => {
    expect(refusedDebugSwitch(['--inspect'], true)).toBeNull();
  });

  it('lets a development build be debugged', () => {
    expect(refusedDebugSwitch([exe, '--remote-debugging-port=9222', '--inspect'], false)).toBeNull();
  });
});
