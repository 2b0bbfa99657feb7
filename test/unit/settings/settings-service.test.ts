// The connection profile is validated on every write; the client secret never reaches the settings.

import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../electron/main/auth/memory-secret-store.ts';
import { SettingsService, type KeyValueStore } from '../../../electron/main/settings/settings-service.ts';
import { sandboxProfile } from '@shared/settings.ts';

class MapStore implements KeyValueStore {
  data = new Map<string, unknown>();
  get(key: string) {
    return this.data.get(key);
  }
  set(key: string, value: unknown) {
    this.data.set(key, structuredClone(value));
  }
}

const setup = () => {
  const store = new MapStore();
  const secrets = new MemorySecretStore('memory only');
  return {
    store,
    secrets,
    settings: new SettingsService(store, secrets, sandboxProfile('http://127.0.0.1:4999')),
  };
};

describe('SettingsService', () => {
  it('starts with the Sandbox profile', async () => {
    const { settings } = setup();
    const view = await settings.view();
    expect(view.profile.name).toBe('Sandbox');
    expect(view.profile.v2.baseUrl).toBe('http://127.0.0.1:4999/api/v2');
    expect(view.hasClientSecret).toBe(false);
    expect(view.preferences.theme).toBe('system');
  });

  it('saves a valid profile, trimming trailing slashes, and keeps the secret out of the settings', async () => {
    const { settings, store, secrets } = setup();
    const profile = {
      ...sandboxProfile('https://platform.example.com/'),
      name: 'Production',
      clientSecret: 's3cret',
    };
    const saved = await settings.saveProfile(profile);
    expect(saved.ok).toBe(true);
    expect(settings.profile().v2.authUrl).toBe('https://platform.example.com');
    expect(JSON.stringify([...store.data.values()])).not.toContain('s3cret');
    expect(await secrets.get('client-secret')).toBe('s3cret');
    expect((await settings.view()).hasClientSecret).toBe(true);
    expect(JSON.stringify(await settings.view())).not.toContain('s3cret');
    // Saving without a secret keeps it; an empty one removes it.
    await settings.saveProfile({ ...profile, clientSecret: undefined });
    expect(await secrets.get('client-secret')).toBe('s3cret');
    await settings.saveProfile({ ...profile, clientSecret: '' });
    expect(await secrets.get('client-secret')).toBeNull();
  });

  it('refuses an invalid profile with a message naming each field, and writes nothing', async () => {
    const { settings, store } = setup();
    const result = await settings.saveProfile({
      ...sandboxProfile(),
      name: '',
      v2: { baseUrl: 'ftp://x', authUrl: 'not a url' },
      rateLimitPerMinute: 0,
      clientId: ' ',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.fields).sort()).toEqual([
      'clientId',
      'name',
      'rateLimitPerMinute',
      'v2.authUrl',
      'v2.baseUrl',
    ]);
    expect(result.fields['v2.baseUrl']?.[0]).toMatch(/^Version 2 address must start with http/);
    expect(result.fields['rateLimitPerMinute']?.[0]).toMatch(/^Requests per minute must be at least 1/);
    expect(store.data.has('profile')).toBe(false);
  });

  it('takes interface and sign-in addresses only over https://, or plain http:// on this computer', async () => {
    const { settings, store } = setup();
    for (const origin of [
      'https://platform.example.com',
      'http://127.0.0.1:4010',
      'http://localhost:4010',
      'http://[::1]:4010',
    ]) {
      expect((await settings.saveProfile(sandboxProfile(origin))).ok, origin).toBe(true);
    }
    store.data.delete('profile');
    const result = await settings.saveProfile({
      ...sandboxProfile('https://platform.example.com'),
      v2: { baseUrl: 'http://platform.example.com/api/v2', authUrl: 'https://platform.example.com' },
      v0: { baseUrl: 'http://127.0.0.1.evil.example/api/v0', authUrl: 'http://10.0.0.8' },
    });
    expect(result).toEqual({
      ok: false,
      fields: {
        'v2.baseUrl': [
          'Version 2 address must start with https:// (plain http:// is allowed only on this computer: 127.0.0.1 or localhost)',
        ],
        'v0.baseUrl': [expect.stringMatching(/^Version 0\.0\.1 address must start with https:\/\//)],
        'v0.authUrl': [expect.stringMatching(/^Version 0\.0\.1 sign-in server must start with https:\/\//)],
      },
    });
    expect(store.data.has('profile')).toBe(false);
  });

  it('ignores a stored profile that no longer validates and falls back to the default', () => {
    const { settings, store } = setup();
    store.set('profile', { name: 'Broken' });
    expect(settings.profile().name).toBe('Sandbox');
  });

  it('remembers window bounds only when they make sense', () => {
    const { settings } = setup();
    settings.setWindowBounds({ x: 10, y: 20, width: 1200, height: 800, maximized: false });
    expect(settings.windowBounds()).toEqual({ x: 10, y: 20, width: 1200, height: 800, maximized: false });
    settings.setWindowBounds({ width: 5, height: 5, maximized: false });
    expect(settings.windowBounds()?.width).toBe(1200);
  });

  it('drops the client secret when the sign-in server or the client id changes, and asks for it again', async () => {
    const { settings, secrets } = setup();
    const profile = { ...sandboxProfile('https://platform.example.com'), clientSecret: 's3cret' };
    await settings.saveProfile(profile);
    expect(await settings.clientSecret()).toBe('s3cret');

    // Only the sign-in server of one interface moves: the secret is not sent there.
    const moved = {
      ...profile,
      clientSecret: undefined,
      v0: { ...profile.v0, authUrl: 'https://other.example' },
    };
    expect((await settings.saveProfile(moved)).ok).toBe(true);
    expect(await settings.clientSecret()).toBeNull();
    expect(await secrets.get('client-secret')).toBeNull();
    expect((await settings.view()).hasClientSecret).toBe(false);

    // Typed again with the new address, it is kept for it.
    await settings.saveProfile({ ...moved, clientSecret: 'n3w' });
    expect(await settings.clientSecret()).toBe('n3w');
    // Another client id drops it too.
    await settings.saveProfile({ ...moved, clientId: 'another-client', clientSecret: undefined });
    expect(await settings.clientSecret()).toBeNull();
    expect((await settings.view()).hasClientSecret).toBe(false);
  });

  it('never hands out a secret whose binding does not name the current profile', async () => {
    const { settings, secrets, store } = setup();
    const profile = { ...sandboxProfile('https://platform.example.com'), clientSecret: 's3cret' };
    await settings.saveProfile(profile);
    // The profile changed without going through saveProfile (an edited settings file).
    store.set('profile', { ...sandboxProfile('https://elsewhere.example'), name: 'Edited' });
    expect(await settings.clientSecret()).toBeNull();
    expect((await settings.view()).hasClientSecret).toBe(false);
    // A secret saved before it was bound to an address counts as none.
    await secrets.delete('client-secret-binding');
    store.set('profile', sandboxProfile('https://platform.example.com'));
    expect(await settings.clientSecret()).toBeNull();
  });
});
