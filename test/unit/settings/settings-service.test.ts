// The connection profile is validated on every write; the client secret never reaches the settings.

import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../electron/main/auth/memory-secret-store.ts';
import { dispatch, type BridgeHandlers } from '../../../electron/main/bridge/handlers.ts';
import {
  addressChange,
  describeAddressChange,
  type AddressChange,
} from '../../../electron/main/settings/address-change.ts';
import { SettingsService, type KeyValueStore } from '../../../electron/main/settings/settings-service.ts';
import { sandboxProfile, type ConnectionProfile } from '@shared/settings.ts';

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
    if (!('fields' in result)) throw new Error('the refusal names no field');
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

describe('a change of addresses is confirmed before it is saved', () => {
  const saved = sandboxProfile('https://platform.example.com');
  const changed = (edit: (p: ConnectionProfile) => void): ConnectionProfile => {
    const next = structuredClone(saved);
    edit(next);
    return next;
  };

  it('asks when a sign-in server or either base address moves, naming the old and new address', () => {
    const cases: [string, (p: ConnectionProfile) => void, string, string][] = [
      [
        'v2.authUrl',
        (p) => (p.v2.authUrl = 'https://auth.example.com'),
        saved.v2.authUrl,
        'https://auth.example.com',
      ],
      [
        'v0.authUrl',
        (p) => (p.v0.authUrl = 'https://auth.example.com'),
        saved.v0.authUrl,
        'https://auth.example.com',
      ],
      [
        'v2.baseUrl',
        (p) => (p.v2.baseUrl = 'https://other.example.com/api/v2'),
        'https://platform.example.com/api/v2',
        'https://other.example.com/api/v2',
      ],
      [
        'v0.baseUrl',
        (p) => (p.v0.baseUrl = 'https://platform.example.com/legacy'),
        'https://platform.example.com/api/v0',
        'https://platform.example.com/legacy',
      ],
    ];
    for (const [field, edit, from, to] of cases)
      expect(addressChange(saved, changed(edit))?.moves, field).toEqual([{ field, from, to }]);
  });

  it('does not ask for the name, the client id, the scope or the request budget', () => {
    const next = changed((p) => {
      p.name = 'Production';
      p.clientId = 'another-client';
      p.scope = 'openid offline_access';
      p.rateLimitPerMinute = 600;
    });
    expect(addressChange(saved, next)).toBeNull();
  });

  it('says what follows: a moved sign-in server or server forgets the sign-in, a new path on the same server keeps it', () => {
    const question = describeAddressChange(
      addressChange(
        saved,
        changed((p) => {
          p.v2.authUrl = 'https://auth.example.com';
          p.v0.baseUrl = 'https://platform.example.com/legacy';
        }),
        true,
      ) as AddressChange,
    );
    expect(question.detail).toContain(
      'Version 2 sign-in server\n    from https://platform.example.com\n    to   https://auth.example.com',
    );
    expect(question.detail).toContain(
      'A sign-in saved for version 2 is forgotten; the next sign-in goes to https://auth.example.com.',
    );
    expect(question.detail).toContain(
      'Requests of version 0.0.1 go to the new address; a sign-in saved for it is kept',
    );
    expect(question.detail).toContain('The stored client secret is removed');
    // Enter or Escape cancels: moving servers takes a click on "Change addresses".
    expect(question.buttons[question.cancelId]).toBe('Cancel');
    expect(question.defaultId).toBe(question.cancelId);

    const elsewhere = describeAddressChange(
      addressChange(
        saved,
        changed((p) => (p.v0.baseUrl = 'https://other.example.com/api/v0')),
      ) as AddressChange,
    );
    expect(elsewhere.detail).toContain(
      'A sign-in saved for version 0.0.1 is forgotten; the next sign-in goes to https://platform.example.com.',
    );
    expect(elsewhere.detail).not.toContain('client secret');

    // One sign-in server for both interfaces moves: one sentence, since one sign-in covers both.
    const platform = describeAddressChange(
      addressChange(saved, sandboxProfile('https://new-platform.example.com')) as AddressChange,
    );
    expect(platform.detail.match(/is forgotten/g)).toHaveLength(1);
    expect(platform.detail).toContain(
      'A sign-in saved for both interfaces is forgotten; the next sign-in goes to https://new-platform.example.com.',
    );
  });

  /** A service whose advisor answers the address question with `answer.agree`. */
  function confirming() {
    const store = new MapStore();
    const secrets = new MemorySecretStore('memory only');
    const asked: AddressChange[] = [];
    const answer = { agree: true };
    const settings = new SettingsService(
      store,
      secrets,
      sandboxProfile('http://127.0.0.1:4999'),
      (change) => {
        asked.push(change);
        return Promise.resolve(answer.agree);
      },
    );
    return { store, settings, asked, answer };
  }

  it('Cancel leaves the stored profile and the client secret as they were', async () => {
    const { store, settings, asked, answer } = confirming();
    await settings.saveProfile({ ...saved, clientSecret: 's3cret' });
    expect(asked).toHaveLength(1); // from the sandbox default to platform.example.com
    const before = structuredClone(store.data.get('profile'));

    answer.agree = false;
    const moved = { ...saved, name: 'Harbor', v2: { ...saved.v2, authUrl: 'https://auth.example.com' } };
    await expect(settings.saveProfile(moved)).resolves.toEqual({ ok: false, cancelled: true });
    expect(asked[1]?.moves.map((m) => m.field)).toEqual(['v2.authUrl']);
    expect(asked[1]?.dropsClientSecret).toBe(true);
    expect(store.data.get('profile')).toEqual(before);
    expect(await settings.clientSecret()).toBe('s3cret');

    // A new secret typed with the move is not stored either when the move is declined.
    await expect(settings.saveProfile({ ...moved, clientSecret: 'n3w' })).resolves.toEqual({
      ok: false,
      cancelled: true,
    });
    expect(await settings.clientSecret()).toBe('s3cret');
    expect(store.data.get('profile')).toEqual(before);
  });

  it('saves at once, without asking, a change that moves no address', async () => {
    const { store, settings, asked, answer } = confirming();
    answer.agree = false;
    // The default profile is the one in effect: a first save that keeps its addresses asks nothing.
    const next = {
      ...sandboxProfile('http://127.0.0.1:4999'),
      clientId: 'another-client',
      rateLimitPerMinute: 30,
    };
    await expect(settings.saveProfile(next)).resolves.toMatchObject({ ok: true });
    expect(asked).toEqual([]);
    expect(store.data.get('profile')).toMatchObject({ clientId: 'another-client', rateLimitPerMinute: 30 });
  });
});

describe('a profile refused over the bridge', () => {
  // Issue 23: an empty name and "htp:/bad address" were refused before the service ran, as one
  // "BridgeUnavailable" error in the console, and the form showed nothing.
  it('answers each field under its name, through the bridge as the form calls it', async () => {
    const { settings, store } = setup();
    const handlers = {
      'settings.saveProfile': (p: unknown) => settings.saveProfile(p),
    } as unknown as BridgeHandlers;
    const profile = sandboxProfile('http://127.0.0.1:4999');
    const typed = { ...profile, name: '', v2: { ...profile.v2, baseUrl: 'htp:/bad address' } };
    expect(await dispatch(handlers, 'settings.saveProfile', [typed])).toEqual({
      ok: false,
      fields: {
        name: ['Profile name is required: give the profile a name'],
        'v2.baseUrl': ['Version 2 address must start with https://'],
      },
    });
    // The requests per minute emptied in the form arrive as null, and are named too.
    expect(
      await dispatch(handlers, 'settings.saveProfile', [{ ...profile, rateLimitPerMinute: null }]),
    ).toEqual({
      ok: false,
      fields: { rateLimitPerMinute: [expect.stringMatching(/^Requests per minute /)] },
    });
    expect(store.data.has('profile')).toBe(false);
  });
});
