// Settings of the app: the connection profile and preferences, validated on every write. The
// client secret is kept in the secret store, never in the settings file and never sent to the
// renderer, which only learns whether one is set.

import { z } from 'zod';
import {
  preferencesSchema,
  profileInputSchema,
  profileSchema,
  sandboxProfile,
  type ConnectionProfile,
  type Preferences,
  type ProfileInput,
  type SettingsView,
  updateFeedUrlSchema,
} from '@shared/settings.ts';
import type { SaveResult } from '@shared/bridge.ts';
import type { SecretStore } from '../auth/ports.ts';
import {
  ADDRESS_LABELS,
  addressChange,
  updateFeedChange,
  type ConfirmAddressChange,
} from './address-change.ts';

/** A small persistent key-value store: electron-store in the app, a JSON file in the preview host. */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

const boundsSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(400).max(20_000),
  height: z.number().int().min(300).max(20_000),
  maximized: z.boolean(),
});

const CLIENT_SECRET = 'client-secret';
/** The sign-in servers and client id the secret was given for: it is never sent anywhere else. */
const CLIENT_SECRET_BINDING = 'client-secret-binding';

const bindingOf = (profile: ConnectionProfile) =>
  JSON.stringify({ v2: profile.v2.authUrl, v0: profile.v0.authUrl, clientId: profile.clientId });

/** Field messages keyed by dotted path (`v2.baseUrl`), each naming the field and what to do. */
export function fieldMessages(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const path = issue.path.join('.') || 'profile';
    (out[path] ??= []).push(`${label(path)} ${issue.message}`);
  }
  return out;
}

const LABELS: Record<string, string> = {
  name: 'Profile name',
  clientId: 'Client id',
  scope: 'Scope',
  rateLimitPerMinute: 'Requests per minute',
  ...ADDRESS_LABELS,
  clientSecret: 'Client secret',
};
const label = (path: string) => LABELS[path] ?? path;

export class SettingsService {
  constructor(
    private readonly store: KeyValueStore,
    private readonly secrets: SecretStore,
    /** The profile used until the user saves one (the sandbox, at the address it runs on). */
    private readonly defaultProfile: ConnectionProfile = sandboxProfile(),
    /**
     * Asked before a save that moves a sign-in server or a base address, or sets a new update
     * address. The hosts pass their own
     * (services.ts requires one); the default, for tests of other rules, agrees.
     */
    private readonly confirmAddressChange: ConfirmAddressChange = () => Promise.resolve(true),
  ) {}

  profile(): ConnectionProfile {
    const parsed = profileSchema.safeParse(this.store.get('profile'));
    return parsed.success ? parsed.data : this.defaultProfile;
  }

  preferences(): Preferences {
    const parsed = preferencesSchema.safeParse(this.store.get('preferences') ?? {});
    return parsed.success ? parsed.data : preferencesSchema.parse({});
  }

  /**
   * The client secret, only while the profile names the sign-in servers and client id it was given
   * for. (A secret saved before it was bound to them counts as none: it is asked for again.)
   */
  async clientSecret(): Promise<string | null> {
    const secret = await this.secrets.get(CLIENT_SECRET);
    if (secret === null) return null;
    const binding = await this.secrets.get(CLIENT_SECRET_BINDING);
    return binding === bindingOf(this.profile()) ? secret : null;
  }

  async view(): Promise<SettingsView> {
    return {
      profile: this.profile(),
      hasClientSecret: (await this.clientSecret()) !== null,
      preferences: this.preferences(),
    };
  }

  /**
   * Saves a profile. On invalid input nothing is written and the answer names each field; a profile
   * that moves an address is saved only once the advisor agrees, and nothing changes otherwise.
   */
  async saveProfile(input: unknown): Promise<SaveResult> {
    const parsed = profileInputSchema.safeParse(input);
    if (!parsed.success) return { ok: false, fields: fieldMessages(parsed.error) };
    const { clientSecret, ...profile }: ProfileInput = parsed.data;
    const binding = bindingOf(profile);
    const dropsSecret =
      !clientSecret && (clientSecret === '' || (await this.secrets.get(CLIENT_SECRET_BINDING)) !== binding);
    const change = addressChange(
      this.profile(),
      profile,
      clientSecret === undefined && dropsSecret && (await this.clientSecret()) !== null,
    );
    if (change && !(await this.confirmAddressChange(change))) return { ok: false, cancelled: true };
    if (clientSecret) {
      await this.secrets.set(CLIENT_SECRET, clientSecret);
      await this.secrets.set(CLIENT_SECRET_BINDING, binding);
    } else if (dropsSecret) {
      // Removed, or the sign-in server or client id changed: the old secret must not follow them.
      await this.secrets.delete(CLIENT_SECRET);
      await this.secrets.delete(CLIENT_SECRET_BINDING);
    }
    this.store.set('profile', profile);
    return { ok: true, settings: await this.view() };
  }

  async setPreferences(input: unknown): Promise<SettingsView> {
    this.store.set('preferences', preferencesSchema.parse(input));
    return this.view();
  }

  /**
   * The update feed's address as stored, or null when none is set (updates are off). The update
   * service checks it before use: the settings file may have been edited by hand.
   */
  updateFeedUrl(): string | null {
    const stored = this.store.get('updateFeedUrl');
    return typeof stored === 'string' ? stored : null;
  }

  /**
   * Sets the update feed (an empty address turns updates off); on invalid input nothing is written.
   * A new address is saved only once the advisor agrees (the same question as a move of the
   * platform's addresses: a native dialog naming it in the app), and nothing changes otherwise.
   */
  async setUpdateFeedUrl(
    input: unknown,
  ): Promise<
    { ok: true } | { ok: false; fields: Record<string, string[]> } | { ok: false; cancelled: true }
  > {
    if (input === '' || input === null) {
      this.store.set('updateFeedUrl', null);
      return { ok: true };
    }
    const parsed = updateFeedUrlSchema.safeParse(input);
    if (!parsed.success) {
      const error = new z.ZodError(parsed.error.issues.map((i) => ({ ...i, path: ['updateFeedUrl'] })));
      return { ok: false, fields: fieldMessages(error) };
    }
    const change = updateFeedChange(this.updateFeedUrl(), parsed.data, this.profile());
    if (change && !(await this.confirmAddressChange(change))) return { ok: false, cancelled: true };
    this.store.set('updateFeedUrl', parsed.data);
    return { ok: true };
  }

  windowBounds(): WindowBounds | null {
    const parsed = boundsSchema.safeParse(this.store.get('window'));
    return parsed.success ? parsed.data : null;
  }

  setWindowBounds(bounds: WindowBounds): void {
    const parsed = boundsSchema.safeParse(bounds);
    if (parsed.success) this.store.set('window', parsed.data);
  }
}
