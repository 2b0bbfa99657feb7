// Updates are off until an update address is set in the settings, come only from https, and a
// failing feed is reported, never thrown into the app.

import { describe, expect, it } from 'vitest';
import { DiagnosticsLog } from '../../../electron/main/diagnostics/diagnostics-log.ts';
import { MemorySecretStore } from '../../../electron/main/auth/memory-secret-store.ts';
import { SettingsService, type KeyValueStore } from '../../../electron/main/settings/settings-service.ts';
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

  it('takes an https address, trimmed', () => {
    const { settings } = setup();
    expect(settings.setUpdateFeedUrl('  https://updates.example.com/advisor-desk/ ')).toEqual({ ok: true });
    expect(settings.updateFeedUrl()).toBe('https://updates.example.com/advisor-desk/');
  });

  it('refuses plain http (even on this computer), credentials and non-addresses, writing nothing', () => {
    const { settings, store } = setup();
    for (const address of [
      'http://updates.example.com/',
      'http://127.0.0.1:8080/',
      'https://user:pw@updates.example.com/',
      'file:///tmp/feed',
      'not an address',
    ]) {
      const result = settings.setUpdateFeedUrl(address);
      expect(result.ok, address).toBe(false);
      if (!result.ok) expect(result.fields.updateFeedUrl?.[0], address).toMatch(/^Update address /);
    }
    expect(store.data.has('updateFeedUrl')).toBe(false);
  });

  it('an empty address turns updates off again', () => {
    const { settings } = setup();
    settings.setUpdateFeedUrl('https://updates.example.com/');
    expect(settings.setUpdateFeedUrl('')).toEqual({ ok: true });
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
    settings.setUpdateFeedUrl('https://updates.example.com/advisor-desk/');
    await expect(updates.check()).resolves.toEqual({
      state: 'checked',
      feedUrl: 'https://updates.example.com/advisor-desk/',
    });
    expect(asked).toEqual(['https://updates.example.com/advisor-desk/']);
  });

  it('reports an unreachable feed instead of throwing', async () => {
    const { updates, settings } = setup(() => Promise.reject(new Error('net::ERR_NAME_NOT_RESOLVED')));
    settings.setUpdateFeedUrl('https://updates.example.com/');
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
