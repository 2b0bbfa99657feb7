// @vitest-environment happy-dom
// Settings → Updates: the update address is checked as the main process checks it, a refusal names
// the field and what to do, and the state of updates is said in words (off until an address is set,
// the last check and its outcome). The card talks to the real main-side handlers.

import { flushPromises, mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import type { Bridge } from '@shared/bridge.ts';
import { sandboxProfile } from '@shared/settings.ts';
import type { UpdateStatus } from '@shared/updates.ts';
import { MemorySecretStore } from '../../../electron/main/auth/memory-secret-store.ts';
import { dispatch, type BridgeHandlers } from '../../../electron/main/bridge/handlers.ts';
import { SettingsService } from '../../../electron/main/settings/settings-service.ts';
import { updateChannels } from '../../../electron/main/updates/update-channels.ts';
import { UpdateService, type UpdateChecker } from '../../../electron/main/updates/update-service.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import UpdatesCard from '../../../renderer/src/settings/UpdatesCard.vue';
import { describeUpdates, feedAddressProblem } from '../../../renderer/src/settings/updates.ts';

unmountAfterEach();

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 26, 12, 0);
const on = (last: UpdateStatus['last']): UpdateStatus => ({
  feedUrl: 'https://updates.example.com/advisor-desk/',
  checks: true,
  last,
});

describe('the update address as typed', () => {
  it('takes https, or nothing (updates off)', () => {
    expect(feedAddressProblem('https://updates.example.com/advisor-desk/')).toBeNull();
    expect(feedAddressProblem('  ')).toBeNull();
  });

  it('names the field and what to do', () => {
    expect(feedAddressProblem('http://updates.example.com/')).toBe('Update address must start with https://');
    expect(feedAddressProblem('updates.example.com')).toBe(
      'Update address must be a full address such as https://updates.example.com/advisor-desk/',
    );
    expect(feedAddressProblem('https://me:pw@updates.example.com/')).toBe(
      'Update address must not contain a user name or password',
    );
  });
});

describe('the state of updates in words', () => {
  it('off until an address is set', () => {
    expect(describeUpdates({ feedUrl: null, checks: true, last: null }, NOW, true)).toEqual({
      state: 'Updates are off until an address is set.',
      last: null,
    });
  });

  it('on: where and how often, and no check yet', () => {
    const words = describeUpdates(on(null), NOW, true);
    expect(words.state).toMatch(
      /^On: the app looks for updates at updates\.example\.com when it starts and every 6 hours/,
    );
    expect(words.last).toBe('No check yet since the app started.');
  });

  it('the last check and its outcome', () => {
    const feedUrl = 'https://updates.example.com/advisor-desk/';
    expect(
      describeUpdates(on({ at: NOW - 2 * HOUR, check: { state: 'checked', feedUrl } }), NOW, true).last,
    ).toBe(
      'Last check 2 hours ago: updates.example.com answered; a newer version, if any, is being downloaded.',
    );
    expect(
      describeUpdates(
        on({ at: NOW - 10_000, check: { state: 'failed', feedUrl, message: 'net::ERR_NAME_NOT_RESOLVED' } }),
        NOW,
        true,
      ).last,
    ).toBe('Last check just now failed: net::ERR_NAME_NOT_RESOLVED. The app tries again every 6 hours.');
    expect(
      describeUpdates(
        on({ at: NOW - 10_000, check: { state: 'refused', reason: 'must start with https://' } }),
        NOW,
        true,
      ).last,
    ).toBe(
      'Last check just now: the saved address was refused (it must start with https://). Enter an https:// address.',
    );
  });

  it('says an installed build without the update key never installs one, and updates only once verified', () => {
    expect(
      describeUpdates(
        { feedUrl: 'https://updates.example.com/', checks: false, last: null, unverifiable: true },
        NOW,
        true,
      ).state,
    ).toBe(
      'This build never installs updates by itself: it was made without the key that verifies them. Install new versions from your firm.',
    );
    expect(describeUpdates(on(null), NOW, true).state).toMatch(
      /installed when you quit, once its signature is verified\.$/,
    );
  });

  it('says where no check is ever made: the browser preview, a development build', () => {
    expect(describeUpdates({ feedUrl: null, checks: false, last: null }, NOW, false).state).toMatch(
      /^The browser preview does not look for updates/,
    );
    expect(describeUpdates({ feedUrl: null, checks: false, last: null }, NOW, true).state).toMatch(
      /^This development build does not look for updates/,
    );
  });
});

describe('the Updates card', () => {
  /** The card over the real main-side settings, update service and channels of an installed app (its checks recorded). */
  async function mountCard(agree = true) {
    const asked: string[] = [];
    const checker: UpdateChecker = { check: (feedUrl) => (asked.push(feedUrl), Promise.resolve()) };
    // The host's dialog for a new update address: the advisor agrees, or presses Cancel.
    const settings = new SettingsService(
      new Map<string, unknown>(),
      new MemorySecretStore('memory only'),
      sandboxProfile(),
      () => Promise.resolve(agree),
    );
    const updates = new UpdateService(() => settings.updateFeedUrl(), checker);
    // The handlers services.ts serves these channels with, behind the bridge's argument check.
    const handlers = updateChannels(settings, updates) as BridgeHandlers;
    const services = { settings, updates };
    const sent: unknown[] = [];
    const call =
      (channel: string) =>
      (...args: unknown[]) => {
        if (channel === 'updates.setFeed') sent.push(args[0]);
        return dispatch(handlers, channel, args);
      };
    useBridge({
      updates: { status: call('updates.status'), setFeed: call('updates.setFeed') },
    } as unknown as Bridge);
    const wrapper = mount(UpdatesCard, {
      global: { plugins: [[PrimeVue, { theme: 'none' }]] },
    });
    await flushPromises();
    return { wrapper, services, sent, asked };
  }

  it('is off until an address is saved, then says where it looks', async () => {
    const { wrapper, services } = await mountCard();
    expect(wrapper.get('[data-testid="updates-state"]').text()).toBe(
      'Updates are off until an address is set.',
    );

    await wrapper.get('#update-feed').setValue('https://updates.example.com/advisor-desk/');
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(services.settings.updateFeedUrl()).toBe('https://updates.example.com/advisor-desk/');
    expect(wrapper.get('[data-testid="updates-state"]').text()).toMatch(
      /^On: the app looks for updates at updates\.example\.com/,
    );
    expect(wrapper.get('[data-testid="updates-last"]').text()).toBe('No check yet since the app started.');
  });

  it('an address not confirmed in the dialog is not saved; what was typed stays, with no error', async () => {
    const { wrapper, services, sent } = await mountCard(false);
    const input = wrapper.get<HTMLInputElement>('#update-feed');
    await input.setValue('https://attacker.example/feed/');
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(sent).toEqual(['https://attacker.example/feed/']);
    expect(services.settings.updateFeedUrl()).toBeNull();
    expect(input.element.value).toBe('https://attacker.example/feed/');
    expect(wrapper.findAll('[role="alert"]')).toEqual([]);
    expect(wrapper.get('[data-testid="updates-state"]').text()).toBe(
      'Updates are off until an address is set.',
    );
  });

  it('refuses plain http before sending, naming the field, and keeps what was typed', async () => {
    const { wrapper, services, sent } = await mountCard();
    const input = wrapper.get<HTMLInputElement>('#update-feed');
    await input.setValue('http://updates.example.com/');
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(wrapper.get('[role="alert"]').text()).toBe('Update address must start with https://');
    expect(sent).toEqual([]);
    expect(services.settings.updateFeedUrl()).toBeNull();
    expect(input.element.value).toBe('http://updates.example.com/');
  });

  it('turns updates off again, and shows the last check after one ran', async () => {
    const { wrapper, services, asked } = await mountCard();
    await services.settings.setUpdateFeedUrl('https://updates.example.com/');
    await services.updates.check();
    wrapper.unmount();
    const again = mount(UpdatesCard, {
      global: { plugins: [[PrimeVue, { theme: 'none' }]] },
    });
    await flushPromises();
    expect(asked).toEqual(['https://updates.example.com/']);
    expect(again.get('[data-testid="updates-last"]').text()).toBe(
      'Last check just now: updates.example.com answered; a newer version, if any, is being downloaded.',
    );
    expect(again.get<HTMLInputElement>('#update-feed').element.value).toBe('https://updates.example.com/');

    const off = again.findAll('button').find((b) => b.text() === 'Turn updates off');
    expect(off, 'the card offers to turn updates off').toBeDefined();
    await off?.trigger('click');
    await flushPromises();
    expect(services.settings.updateFeedUrl()).toBeNull();
    expect(again.get('[data-testid="updates-state"]').text()).toBe(
      'Updates are off until an address is set.',
    );
  });
});
