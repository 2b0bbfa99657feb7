// @vitest-environment happy-dom
// Settings → "Save diagnostics…": one click asks the main process to save the log, and the user
// reads where it went, why it was not saved, or nothing when they cancelled the dialog.

import { flushPromises, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import Toast from 'primevue/toast';
import ToastService from 'primevue/toastservice';
import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { defineComponent, h } from 'vue';
import type { Bridge, SaveDiagnosticsResult } from '@shared/bridge.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import SettingsView from '../../../renderer/src/settings/SettingsView.vue';

const Page = defineComponent(() => () => [h(SettingsView), h(Toast)]);

async function clickSave(answer: () => Promise<SaveDiagnosticsResult>) {
  const save = vi.fn(answer);
  useBridge({
    diagnostics: { save, report: () => Promise.resolve() },
    settings: { get: () => new Promise(() => undefined) },
    auth: { status: () => new Promise(() => undefined) },
    updates: { status: () => new Promise(() => undefined) },
  } as unknown as Bridge);
  const wrapper = mount(Page, {
    attachTo: document.body,
    global: { plugins: [createPinia(), [PrimeVue, { theme: 'none' }], ToastService] },
  });
  const button = wrapper.findAll('button').find((b) => b.text().includes('Save diagnostics'));
  expect(button, 'the Save diagnostics… button').toBeDefined();
  await button?.trigger('click');
  await flushPromises();
  await vi.waitFor(() => expect(save).toHaveBeenCalledTimes(1));
  await flushPromises();
  return document.body.textContent ?? '';
}

unmountAfterEach();

describe('Save diagnostics…', () => {
  it('says where the file went', async () => {
    const shown = await clickSave(() =>
      Promise.resolve({ ok: true, path: '/home/ada/advisor-desk-diagnostics.log' }),
    );
    expect(shown).toContain('Diagnostics saved');
    expect(shown).toContain('Saved to /home/ada/advisor-desk-diagnostics.log');
  });

  it("says why it was not saved, in the main process's words", async () => {
    const message =
      'The diagnostics could not be saved in /mnt/usb: the disk is full. Choose another folder, then try again.';
    const shown = await clickSave(() => Promise.resolve({ ok: false, cancelled: false, message }));
    expect(shown).toContain('Diagnostics not saved');
    expect(shown).toContain(message);
  });

  it('says nothing when the user cancels the dialog', async () => {
    const shown = await clickSave(() => Promise.resolve({ ok: false, cancelled: true }));
    expect(shown).not.toContain('Diagnostics saved');
    expect(shown).not.toContain('Diagnostics not saved');
  });

  it('says so when the main process cannot be reached', async () => {
    const shown = await clickSave(() => Promise.reject(new Error('The preview host is not running.')));
    expect(shown).toContain('Diagnostics not saved');
    expect(shown).toContain('The preview host is not running.');
  });
});
