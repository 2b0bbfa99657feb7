// @vitest-environment happy-dom
// Settings → Connection profile: the form shows the profile the store holds (a reactive object)
// and sends a change as a plain object, as Electron's IPC needs it (it structured-clones every
// argument; a Vue proxy makes it throw DataCloneError).

import { flushPromises, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import type { Bridge, SaveResult } from '@shared/bridge.ts';
import { sandboxProfile, type ProfileInput, type SettingsView } from '@shared/settings.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { useSettingsStore } from '../../../renderer/src/common/settings.ts';
import SettingsViewPage from '../../../renderer/src/settings/SettingsView.vue';

unmountAfterEach();

/** The Settings screen over a bridge that holds `stored` and answers a save with `saveProfile`. */
async function settingsPage(stored: SettingsView, saveProfile: (input: ProfileInput) => Promise<SaveResult>) {
  useBridge({
    settings: { get: () => Promise.resolve(structuredClone(stored)), saveProfile },
    auth: { status: () => new Promise(() => undefined) },
    updates: { status: () => new Promise(() => undefined) },
    diagnostics: { save: vi.fn(), report: () => Promise.resolve() },
  } as unknown as Bridge);
  const pinia = createPinia();
  const wrapper = mount(SettingsViewPage, {
    attachTo: document.body,
    global: { plugins: [pinia, [PrimeVue, { theme: 'none' }], ToastService] },
  });
  await useSettingsStore(pinia).load();
  await flushPromises();
  return wrapper;
}

describe('the connection profile in Settings', () => {
  it('shows the stored profile and saves a change as a plain object', async () => {
    const stored: SettingsView = {
      profile: sandboxProfile('https://platform.example'),
      hasClientSecret: false,
      preferences: { theme: 'system' },
    };
    const sent: ProfileInput[] = [];
    const saveProfile = vi.fn((input: ProfileInput) => {
      // What the IPC does to every argument: a proxy here throws DataCloneError.
      const copy = structuredClone(input);
      sent.push(copy);
      return Promise.resolve({
        ok: true as const,
        settings: { ...stored, profile: { ...stored.profile, ...copy } },
      });
    });
    const wrapper = await settingsPage(stored, saveProfile);

    const name = wrapper.find<HTMLInputElement>('#profile-name');
    expect(name.exists(), 'the profile form is shown').toBe(true);
    expect(name.element.value).toBe('Sandbox');
    expect(wrapper.find<HTMLInputElement>('#profile-v2-baseUrl').element.value).toBe(
      'https://platform.example/api/v2',
    );

    await name.setValue('Harbor platform');
    await wrapper.find('form.profile').trigger('submit');
    await flushPromises();
    expect(saveProfile).toHaveBeenCalledTimes(1);
    expect(sent[0]).toMatchObject({
      name: 'Harbor platform',
      v2: { baseUrl: 'https://platform.example/api/v2', authUrl: 'https://platform.example' },
      clientId: 'advisor-desk',
    });
  });

  it('says a declined change of addresses was not saved, and keeps what the advisor typed', async () => {
    const stored: SettingsView = {
      profile: sandboxProfile('https://platform.example'),
      hasClientSecret: true,
      preferences: { theme: 'system' },
    };
    // The main process asked (a native dialog in Electron) and the advisor chose Cancel.
    const saveProfile = vi.fn(() => Promise.resolve({ ok: false as const, cancelled: true as const }));
    const wrapper = await settingsPage(stored, saveProfile);

    const authUrl = wrapper.find<HTMLInputElement>('#profile-v2-authUrl');
    await authUrl.setValue('https://auth.elsewhere.example');
    await wrapper.find<HTMLInputElement>('#profile-client-secret').setValue('n3w-secret');
    await wrapper.find('form.profile').trigger('submit');
    await flushPromises();

    expect(saveProfile).toHaveBeenCalledTimes(1);
    expect(wrapper.find('[data-testid="profile-declined"]').text()).toBe(
      'The profile was not saved: the addresses stay as they were. Your changes are still in the form.',
    );
    expect(authUrl.element.value).toBe('https://auth.elsewhere.example');
    expect(wrapper.find<HTMLInputElement>('#profile-client-secret').element.value).toBe('n3w-secret');
  });
});
