// Connection profile and preferences, and the theme that follows them (or the system).

import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { Preferences, ProfileInput, SettingsView } from '@shared/settings.ts';
import { bridge } from './bridge/index.ts';

export const useSettingsStore = defineStore('settings', () => {
  const view = ref<SettingsView | null>(null);
  const fieldErrors = ref<Record<string, string[]>>({});
  /** The last save moved an address and the advisor declined it: nothing was saved. */
  const declined = ref(false);

  async function load(): Promise<SettingsView> {
    view.value = await bridge().settings.get();
    applyTheme(view.value.preferences);
    return view.value;
  }

  async function saveProfile(input: ProfileInput): Promise<boolean> {
    const result = await bridge().settings.saveProfile(input);
    declined.value = !result.ok && 'cancelled' in result;
    if (!result.ok) {
      fieldErrors.value = 'fields' in result ? result.fields : {};
      return false;
    }
    fieldErrors.value = {};
    view.value = result.settings;
    return true;
  }

  async function setPreferences(preferences: Preferences): Promise<void> {
    view.value = await bridge().settings.setPreferences(preferences);
    applyTheme(preferences);
  }

  return { view, fieldErrors, declined, load, saveProfile, setPreferences };
});

let systemDark: MediaQueryList | null = null;

/** Light or dark: the preference, or the system's when the preference is "system". */
export function applyTheme(preferences: Preferences): void {
  systemDark ??= window.matchMedia('(prefers-color-scheme: dark)');
  const update = () => {
    const dark =
      preferences.theme === 'dark' || (preferences.theme === 'system' && systemDark?.matches === true);
    document.documentElement.classList.toggle('app-dark', dark);
  };
  systemDark.onchange = update;
  update();
}
