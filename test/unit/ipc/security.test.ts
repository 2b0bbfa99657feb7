// Who may call the main process, and which addresses may leave the app.

import { describe, expect, it } from 'vitest';
import type { BridgeHandlers } from '../../../electron/main/bridge/handlers.ts';
import { isTrustedSender } from '../../../electron/main/ipc/sender.ts';
import { registerBridge, UntrustedSender } from '../../../electron/main/ipc/validated-ipc.ts';
import { resolveInside } from '../../../electron/main/paths.ts';
import {
  CONTENT_SECURITY_POLICY,
  isSafeExternalUrl,
  opensExternally,
} from '../../../electron/main/security.ts';
import { BRIDGE_CHANNEL_NAMES } from '@shared/bridge-schema.ts';

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

describe('CONTENT_SECURITY_POLICY', () => {
  const directives = new Map(
    CONTENT_SECURITY_POLICY.split(';').map((d) => {
      const [name = '', ...values] = d.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );

  it('loads no frame at all: a same-origin frame would reach window.advisor', () => {
    expect(directives.get('frame-src')).toBe("'none'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
  });

  it('runs scripts from the app only, with no plugins and no form posts', () => {
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('form-action')).toBe("'none'");
    expect(directives.get('connect-src')).toBe("'self'");
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

describe('opensExternally (a form preview the window opens)', () => {
  const sandbox = ['http://127.0.0.1:4010/api/v2', 'http://127.0.0.1:4010/api/v0'];
  it('opens https anywhere, and loopback http only at the sandbox platform the profile points at', () => {
    expect(opensExternally('https://forms.platform.example/f/1', [])).toBe(true);
    expect(opensExternally('http://127.0.0.1:4010/forms/abc/preview', sandbox)).toBe(true);
    expect(opensExternally('http://127.0.0.1:4011/forms/abc/preview', sandbox)).toBe(false);
    expect(opensExternally('http://localhost:4010/forms/abc/preview', sandbox)).toBe(false);
    expect(opensExternally('http://127.0.0.1:4010/x', ['https://platform.example/api/v2'])).toBe(false);
    expect(opensExternally('http://platform.example/forms/1', ['http://platform.example/api/v0'])).toBe(
      false,
    );
    expect(opensExternally('file:///etc/passwd', sandbox)).toBe(false);
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

describe('registerBridge', () => {
  type Handler = (
    event: { senderFrame: { url: string; parent: unknown } | null },
    ...args: unknown[]
  ) => Promise<unknown>;
  function register() {
    const registered = new Map<string, Handler>();
    const ran: string[] = [];
    const handlers = Object.fromEntries(
      BRIDGE_CHANNEL_NAMES.map((c) => [c, () => (ran.push(c), Promise.resolve(`${c} ran`))]),
    ) as unknown as BridgeHandlers;
    const ipcMain = { handle: (channel: string, h: Handler) => void registered.set(channel, h) };
    registerBridge(
      ipcMain as unknown as Parameters<typeof registerBridge>[0],
      BRIDGE_CHANNEL_NAMES,
      handlers,
    );
    return { registered, ran };
  }
  const top = { url: 'app://advisor-desk/index.html', parent: null };

  it('registers every bridge channel, and runs a call from the app window', async () => {
    const { registered, ran } = register();
    expect([...registered.keys()].sort()).toEqual([...BRIDGE_CHANNEL_NAMES].sort());
    await expect(registered.get('auth.status')?.({ senderFrame: top })).resolves.toBe('auth.status ran');
    expect(ran).toEqual(['auth.status']);
  });

  it('refuses a call from a sub-frame or another origin before anything runs', async () => {
    const { registered, ran } = register();
    const call = registered.get('api.request');
    const request = { api: 'v2', method: 'GET', path: '/user' };
    await expect(call?.({ senderFrame: { url: top.url, parent: {} } }, request)).rejects.toBeInstanceOf(
      UntrustedSender,
    );
    await expect(
      call?.({ senderFrame: { url: 'https://evil.example/', parent: null } }, request),
    ).rejects.toBeInstanceOf(UntrustedSender);
    await expect(call?.({ senderFrame: null }, request)).rejects.toBeInstanceOf(UntrustedSender);
    expect(ran).toEqual([]);
  });

  it('refuses a trusted call whose arguments fail the schema', async () => {
    const { registered, ran } = register();
    await expect(registered.get('auth.finishSignIn')?.({ senderFrame: top }, 42)).rejects.toThrow(
      /Invalid arguments/,
    );
    // A request answers with the typed failure the renderer reads for any refused request.
    await expect(
      registered.get('api.request')?.({ senderFrame: top }, { api: 'v2', method: 'GET', path: 'http://x' }),
    ).resolves.toMatchObject({ ok: false, kind: 'validation', fields: { path: [expect.any(String)] } });
    expect(ran).toEqual([]);
  });
});
