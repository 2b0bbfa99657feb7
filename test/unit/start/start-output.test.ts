// What `npm start` prints and decides: a few plain lines, the reason Electron cannot run in one
// of them, and a browser opened only where there is a display and no CI.

import { describe, expect, it } from 'vitest';
import { browserOpener, downloadFailure, hasDisplay, startMessage } from '../../../scripts/start-output.ts';

const BASE = {
  platformUrl: 'http://127.0.0.1:4010',
  users: ['advisor@sandbox.test', 'assistant@sandbox.test'],
  password: 'sandbox',
};

describe('the lines npm start prints', () => {
  it('in the browser preview: why not Electron in one line, then the addresses, the users and how to stop', () => {
    const lines = startMessage({
      ...BASE,
      app: {
        kind: 'preview',
        url: 'http://127.0.0.1:5174',
        whyNotElectron: 'its program could not be downloaded (no access to its download host)',
        opened: true,
      },
    });
    expect(lines).toEqual([
      'Electron cannot run here: its program could not be downloaded (no access to its download host). The same app runs as the browser preview.',
      'Sandbox platform: http://127.0.0.1:4010',
      'Sign in as advisor@sandbox.test or assistant@sandbox.test, password "sandbox".',
      'Advisor Desk: http://127.0.0.1:5174 (opened in your browser)',
      'Press Ctrl+C to stop.',
    ]);
    expect(lines.filter((line) => line.includes('Electron'))).toHaveLength(1);
  });

  it('says nothing of a browser it did not open', () => {
    const lines = startMessage({
      ...BASE,
      app: {
        kind: 'preview',
        url: 'http://127.0.0.1:5174',
        whyNotElectron: 'there is no display',
        opened: false,
      },
    });
    expect(lines).toContain('Advisor Desk: http://127.0.0.1:5174');
  });

  it('prints the preview address whole, with its one-time token', () => {
    const url = 'http://127.0.0.1:5174/?token=Zm9vYmFyLWJhei1xdXV4LTEyMzQ1Ng';
    const lines = startMessage({
      ...BASE,
      app: { kind: 'preview', url, whyNotElectron: 'x', opened: false },
    });
    expect(lines).toContain(`Advisor Desk: ${url}`);
  });

  it('with Electron: the window, and how to stop', () => {
    expect(startMessage({ ...BASE, app: { kind: 'electron' } })).toEqual([
      'Sandbox platform: http://127.0.0.1:4010',
      'Sign in as advisor@sandbox.test or assistant@sandbox.test, password "sandbox".',
      'Advisor Desk opens in its own window.',
      'Close the window or press Ctrl+C to stop.',
    ]);
  });

  it('no line nests parentheses', () => {
    const lines = startMessage({
      ...BASE,
      app: {
        kind: 'preview',
        url: 'http://x',
        whyNotElectron: downloadFailure('TypeError: fetch failed'),
        opened: true,
      },
    });
    for (const line of lines) expect(line).not.toMatch(/\([^)]*\(/);
  });
});

describe('opening the browser', () => {
  const url = 'http://127.0.0.1:5174';

  it('uses the system opener of each platform', () => {
    expect(browserOpener(url, 'linux', { DISPLAY: ':0' })).toEqual({ command: 'xdg-open', args: [url] });
    expect(browserOpener(url, 'linux', { WAYLAND_DISPLAY: 'wayland-0' })?.command).toBe('xdg-open');
    expect(browserOpener(url, 'darwin', {})).toEqual({ command: 'open', args: [url] });
    expect(browserOpener(url, 'win32', {})).toEqual({ command: 'cmd', args: ['/c', 'start', '""', url] });
  });

  it('opens nothing in CI or without a display', () => {
    expect(browserOpener(url, 'darwin', { CI: 'true' })).toBeNull();
    expect(browserOpener(url, 'linux', { DISPLAY: ':0', CI: '1' })).toBeNull();
    expect(browserOpener(url, 'linux', {})).toBeNull();
    expect(hasDisplay('linux', {})).toBe(false);
    expect(hasDisplay('win32', {})).toBe(true);
  });
});

describe("why the Electron program's download failed", () => {
  it("names the unreachable host for network errors, else the installer's first line", () => {
    for (const output of [
      'TypeError: fetch failed\n    at …',
      'getaddrinfo ENOTFOUND github.com',
      'connect ECONNREFUSED',
    ])
      expect(downloadFailure(output)).toBe(
        'its program could not be downloaded (no access to its download host)',
      );
    expect(downloadFailure('\nError: Electron builds are not available on platform: aix\n  at …')).toBe(
      'its program could not be installed: Error: Electron builds are not available on platform: aix',
    );
    expect(downloadFailure('')).toBe('its program could not be installed');
  });
});
