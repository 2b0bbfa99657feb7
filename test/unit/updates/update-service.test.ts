// Updates are off until an update address is set in the settings, come only from https, and a
// failing feed is reported, never thrown into the app.

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UpdateStatus } from '@shared/updates.ts';
import { dispatch, InvalidBridgeCall } from '../../../electron/main/bridge/handlers.ts';
import { DiagnosticsLog } from '../../../electron/main/diagnostics/diagnostics-log.ts';
import { MemorySecretStore } from '../../../electron/main/auth/memory-secret-store.ts';
import { SettingsService, type KeyValueStore } from '../../../electron/main/settings/settings-service.ts';
import { createServices } from '../../../electron/main/services.ts';
import {
  describeAddressChange,
  type AddressQuestion,
} from '../../../electron/main/settings/address-change.ts';
import { UpdateService, type UpdateChecker } from '../../../electron/main/updates/update-service.ts';

class MapStore implements KeyValueStore {
  data = new Map<string, unknown>();
  get(key: string) {
    return this.data.get(key);
  }
  set(key: string, value: unknown) {
    this.data.set(key, structuredClone(value));
  }
}

/** The update check as the app runs it: the address from the settings, the feeds asked recorded. */
function setup(check: (feedUrl: string) => Promise<void> = () => Promise.resolve()) {
  const store = new MapStore();
  const settings = new SettingsService(store, new MemorySecretStore('memory only'));
  const asked: string[] = [];
  const checker: UpdateChecker = {
    check: (feedUrl) => {
      asked.push(feedUrl);
      return check(feedUrl);
    },
  };
  return { store, settings, asked, updates: new UpdateService(() => settings.updateFeedUrl(), checker) };
}

describe('the update feed in the settings', () => {
  it('is unset at first', () => {
    expect(setup().settings.updateFeedUrl()).toBeNull();
  });

  it('takes an https address, trimmed', async () => {
    const { settings } = setup();
    expect(await settings.setUpdateFeedUrl('  https://updates.example.com/advisor-desk/ ')).toEqual({
      ok: true,
    });
    expect(settings.updateFeedUrl()).toBe('https://updates.example.com/advisor-desk/');
  });

  it('refuses plain http (even on this computer), credentials and non-addresses, writing nothing', async () => {
    const { settings, store } = setup();
    for (const address of [
      'http://updates.example.com/',
      'http://127.0.0.1:8080/',
      'https://user:pw@updates.example.com/',
      'file:///tmp/feed',
      'not an address',
    ]) {
      const result = await settings.setUpdateFeedUrl(address);
      expect(result.ok, address).toBe(false);
      if (!result.ok)
        expect('fields' in result ? result.fields.updateFeedUrl?.[0] : 'cancelled', address).toMatch(
          /^Update address /,
        );
    }
    expect(store.data.has('updateFeedUrl')).toBe(false);
  });

  it('an empty address turns updates off again', async () => {
    const { settings } = setup();
    await settings.setUpdateFeedUrl('https://updates.example.com/');
    expect(await settings.setUpdateFeedUrl('')).toEqual({ ok: true });
    expect(settings.updateFeedUrl()).toBeNull();
  });
});

describe('UpdateService', () => {
  it('is off while no update address is set: no feed is asked', async () => {
    const { updates, asked } = setup();
    await expect(updates.check()).resolves.toEqual({ state: 'off' });
    expect(asked).toEqual([]);
  });

  it('refuses an http address written into the settings file by hand', async () => {
    const { updates, asked, store } = setup();
    store.set('updateFeedUrl', 'http://updates.example.com/');
    await expect(updates.check()).resolves.toEqual({ state: 'refused', reason: 'must start with https://' });
    expect(asked).toEqual([]);
  });

  it('checks the feed once an https address is set', async () => {
    const { updates, asked, settings } = setup();
    await settings.setUpdateFeedUrl('https://updates.example.com/advisor-desk/');
    await expect(updates.check()).resolves.toEqual({
      state: 'checked',
      feedUrl: 'https://updates.example.com/advisor-desk/',
    });
    expect(asked).toEqual(['https://updates.example.com/advisor-desk/']);
  });

  it('reports an unreachable feed instead of throwing', async () => {
    const { updates, settings } = setup(() => Promise.reject(new Error('net::ERR_NAME_NOT_RESOLVED')));
    await settings.setUpdateFeedUrl('https://updates.example.com/');
    await expect(updates.check()).resolves.toEqual({
      state: 'failed',
      feedUrl: 'https://updates.example.com/',
      message: 'net::ERR_NAME_NOT_RESOLVED',
    });
  });
});

describe('the diagnostics log of an update check', () => {
  it('names the state and the feed by its origin only', () => {
    const lines: string[] = [];
    const log = new DiagnosticsLog(
      { append: (level, line) => void lines.push(`${level} ${line}`), recent: () => Promise.resolve('') },
      () => Promise.resolve(null),
    );
    log.updateChecked({ state: 'off' });
    log.updateChecked({ state: 'checked', feedUrl: 'https://updates.example.com/advisor-desk/' });
    log.updateChecked({ state: 'refused', reason: 'must start with https://' });
    expect(lines).toEqual([
      'info update {"state":"off","feed":null,"reason":null,"message":null}',
      'info update {"state":"checked","feed":"https://updates.example.com","reason":null,"message":null}',
      'warn update {"state":"refused","feed":null,"reason":"must start with https://","message":null}',
    ]);
  });
});

describe('the updates bridge channels', () => {
  /** The main-side services as a host wires them, with or without an update checker. */
  function host(checker?: UpdateChecker, agree = true) {
    const store = new MapStore();
    /** The questions the host's dialog was asked, as Electron's message box shows them. */
    const asked: AddressQuestion[] = [];
    const services = createServices({
      settingsStore: store,
      secrets: new MemorySecretStore('memory only'),
      openExternal: () => Promise.resolve(false),
      chooseSavePath: () => Promise.resolve(null),
      cacheDir: join(tmpdir(), 'advisor-desk-updates-test'),
      confirmAddressChange: (change) => {
        asked.push(describeAddressChange(change));
        return Promise.resolve(agree);
      },
      ...(checker ? { updateChecker: checker } : {}),
    });
    const call = (channel: string, ...args: unknown[]) => dispatch(services.handlers, channel, args);
    return { services, call, store, asked };
  }

  it('saves a new update address only once the advisor agrees in the dialog naming it', async () => {
    // What a compromised renderer sent: the advisor presses Cancel (or Escape) in the native dialog.
    const refused = host({ check: () => Promise.resolve() }, false);
    await expect(refused.call('updates.setFeed', 'https://attacker.example/feed/')).resolves.toEqual({
      ok: false,
      cancelled: true,
    });
    expect(refused.store.data.has('updateFeedUrl')).toBe(false);
    expect(refused.services.settings.updateFeedUrl()).toBeNull();
    expect(refused.asked).toHaveLength(1);
    const [question] = refused.asked;
    expect(question?.message).toBe('Take updates from this address?');
    expect(question?.detail).toContain(
      'Update address\n    from none (updates off)\n    to   https://attacker.example/feed/',
    );
    // Enter and Escape keep things as they are.
    expect(question?.defaultId).toBe(question?.cancelId);
    expect(question?.buttons[question.cancelId]).toBe('Cancel');

    const agreed = host({ check: () => Promise.resolve() }, true);
    await agreed.call('updates.setFeed', 'https://updates.example.com/advisor-desk/');
    await expect(agreed.call('updates.setFeed', 'https://attacker.example/feed/')).resolves.toMatchObject({
      ok: true,
    });
    expect(agreed.asked.map((q) => q.detail.split('\n\n')[0])).toEqual([
      'Update address\n    from none (updates off)\n    to   https://updates.example.com/advisor-desk/',
      'Update address\n    from https://updates.example.com/advisor-desk/\n    to   https://attacker.example/feed/',
    ]);
    expect(agreed.services.settings.updateFeedUrl()).toBe('https://attacker.example/feed/');
  });

  it('asks nothing to keep the same address or to turn updates off', async () => {
    const { call, asked, services } = host({ check: () => Promise.resolve() }, true);
    await call('updates.setFeed', 'https://updates.example.com/');
    await call('updates.setFeed', 'https://updates.example.com/');
    await call('updates.setFeed', '');
    expect(asked).toHaveLength(1);
    expect(services.settings.updateFeedUrl()).toBeNull();
  });

  it('says an installed build without the update key never updates itself', async () => {
    const services = createServices({
      settingsStore: new MapStore(),
      secrets: new MemorySecretStore('memory only'),
      openExternal: () => Promise.resolve(false),
      chooseSavePath: () => Promise.resolve(null),
      cacheDir: join(tmpdir(), 'advisor-desk-updates-test'),
      confirmAddressChange: () => Promise.resolve(true),
      updatesUnverifiable: true,
    });
    expect(services.updates).toBeNull();
    await expect(dispatch(services.handlers, 'updates.status', [])).resolves.toEqual({
      feedUrl: null,
      checks: false,
      last: null,
      unverifiable: true,
    });
  });

  it('says updates are off and never checked where this copy has no updater (the preview)', async () => {
    const { call, services } = host();
    expect(services.updates).toBeNull();
    await expect(call('updates.status')).resolves.toEqual({ feedUrl: null, checks: false, last: null });
  });

  it('saves an https address and answers the state after it; an empty address turns updates off', async () => {
    const { call } = host({ check: () => Promise.resolve() });
    await expect(call('updates.setFeed', ' https://updates.example.com/advisor-desk/ ')).resolves.toEqual({
      ok: true,
      status: { feedUrl: 'https://updates.example.com/advisor-desk/', checks: true, last: null },
    });
    await expect(call('updates.setFeed', '')).resolves.toMatchObject({ ok: true, status: { feedUrl: null } });
  });

  it('refuses plain http with a message naming the field and what to do, and keeps the saved address', async () => {
    const { call } = host({ check: () => Promise.resolve() });
    await call('updates.setFeed', 'https://updates.example.com/');
    await expect(call('updates.setFeed', 'http://updates.example.com/')).resolves.toEqual({
      ok: false,
      fields: { updateFeedUrl: ['Update address must start with https://'] },
    });
    await expect(call('updates.status')).resolves.toMatchObject({ feedUrl: 'https://updates.example.com/' });
  });

  it('refuses what is no text at all before anything runs', async () => {
    const { call } = host();
    for (const args of [[], [42], [{ url: 'https://updates.example.com/' }], ['x'.repeat(2001)]])
      await expect(
        call('updates.setFeed', ...args),
        JSON.stringify(args).slice(0, 40),
      ).rejects.toBeInstanceOf(InvalidBridgeCall);
  });

  it('reports the last check and its outcome', async () => {
    const { call, services } = host({ check: () => Promise.reject(new Error('net::ERR_NAME_NOT_RESOLVED')) });
    await call('updates.setFeed', 'https://updates.example.com/');
    const before = Date.now();
    await services.updates?.check();
    const status = (await call('updates.status')) as UpdateStatus;
    expect(status.last?.check).toEqual({
      state: 'failed',
      feedUrl: 'https://updates.example.com/',
      message: 'net::ERR_NAME_NOT_RESOLVED',
    });
    expect(status.last?.at).toBeGreaterThanOrEqual(before);
  });
});
