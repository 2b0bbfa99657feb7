// Who may call the main process, and which addresses may leave the app.

import { describe, expect, it } from 'vitest';
import { isTrustedSender } from '../../../electron/main/ipc/sender.ts';
import { resolveInside } from '../../../electron/main/paths.ts';
import { isSafeExternalUrl } from '../../../electron/main/security.ts';

describe('isTrustedSender', () => {
  it('accepts the top frame of the app origin', () => {
    expect(isTrustedSender({ url: 'app://advisor-desk/index.html', parent: null })).toBe(true);
    expect(isTrustedSender({ url: 'app://advisor-desk/index.html#/accounts', parent: null })).toBe(true);
  });

  it('refuses sub-frames, other origins, look-alikes and missing frames', () => {
    expect(isTrustedSender({ url: 'app://advisor-desk/index.html', parent: {} })).toBe(false);
    expect(isTrustedSender({ url: 'https://advisor-desk/index.html', parent: null })).toBe(false);
    expect(isTrustedSender({ url: 'app://advisor-desk.evil.com/index.html', parent: null })).toBe(false);
    expect(isTrustedSender({ url: 'app://evil/advisor-desk/index.html', parent: null })).toBe(false);
    expect(isTrustedSender({ url: 'app://user:pass@advisor-desk/index.html', parent: null })).toBe(false);
    expect(isTrustedSender({ url: 'file:///app/index.html', parent: null })).toBe(false);
    expect(isTrustedSender({ url: 'about:blank', parent: null })).toBe(false);
    expect(isTrustedSender({ url: 'not a url', parent: null })).toBe(false);
    expect(isTrustedSender(null)).toBe(false);
    expect(isTrustedSender(undefined)).toBe(false);
  });
});

describe('isSafeExternalUrl', () => {
  it('lets parsed https addresses out', () => {
    expect(isSafeExternalUrl('https://platform.example.com/help')).toBe(true);
  });

  it('refuses other schemes, credentials and garbage', () => {
    for (const url of [
      'http://example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'https://user:pw@example.com',
      'vbscript:x',
      '',
      'https//x',
    ]) {
      expect(isSafeExternalUrl(url), url).toBe(false);
    }
  });

  it('allows loopback http only when asked (signing in to a local sandbox)', () => {
    expect(isSafeExternalUrl('http://127.0.0.1:4010/oauth/authorize')).toBe(false);
    expect(isSafeExternalUrl('http://127.0.0.1:4010/oauth/authorize', { allowLoopbackHttp: true })).toBe(
      true,
    );
    expect(isSafeExternalUrl('http://localhost:4010/x', { allowLoopbackHttp: true })).toBe(true);
    expect(isSafeExternalUrl('http://10.0.0.1/x', { allowLoopbackHttp: true })).toBe(false);
    expect(isSafeExternalUrl('http://127.0.0.1.evil.com/x', { allowLoopbackHttp: true })).toBe(false);
  });
});

describe('resolveInside', () => {
  const root = '/srv/renderer';
  it('resolves files inside the folder', () => {
    expect(resolveInside(root, '/index.html')).toBe('/srv/renderer/index.html');
    expect(resolveInside(root, '/')).toBe('/srv/renderer/index.html');
    expect(resolveInside(root, '/assets/app.js')).toBe('/srv/renderer/assets/app.js');
  });

  it('never leaves the folder', () => {
    for (const p of [
      '/../secret',
      '/assets/../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2fetc',
      '/a%00.js',
      '/%E0%A4%A',
      '/../renderer-other/x',
    ]) {
      const file = resolveInside(root, p);
      expect(file === null || file.startsWith('/srv/renderer/'), `${p} → ${file}`).toBe(true);
    }
  });
});
