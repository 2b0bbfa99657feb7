// The connection profile and preferences: their types, the schemas every write is checked
// against (in the main process and over IPC), and the default "Sandbox" profile.

import { z } from 'zod';

/** Hosts on which plain http:// is allowed: this computer only (the sandbox platform). */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** True when an address is plain http:// to this computer, the only place plain http is allowed. */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * What is wrong with an address that tokens and passwords are sent to, or null when it is fine:
 * https://, or plain http:// on this computer only. Anywhere else they would cross the network
 * in the clear. Null too for text that is no address at all (the `url` check names that).
 */
export function insecureAddress(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  if (url.protocol === 'https:' || isLoopbackHttp(url)) return null;
  if (url.protocol === 'http:')
    return 'must start with https:// (plain http:// is allowed only on this computer: 127.0.0.1 or localhost)';
  return 'must start with https://';
}

const platformUrl = z
  .string()
  .trim()
  .url('must be a full address such as https://platform.example.com')
  .superRefine((u, ctx) => {
    const problem = insecureAddress(u);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((u) => u.replace(/\/+$/, ''));

/**
 * Where the installed app looks for updates (electron-updater's generic feed). https only, even on
 * this computer: what it downloads is installed as the app.
 */
export const updateFeedUrlSchema = z
  .string()
  .trim()
  .url('must be a full address such as https://updates.example.com/advisor-desk/')
  .superRefine((u, ctx) => {
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      return; // the `url` check names it
    }
    if (url.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: 'must start with https://' });
    else if (url.username || url.password)
      ctx.addIssue({ code: 'custom', message: 'must not contain a user name or password' });
  });

export const endpointSchema = z.object({
  /** Base of the interface: `{base_url}/api/v2` or `{base_url_v0}`. The bearer token goes there. */
  baseUrl: platformUrl,
  /** `{auth_url}`: the server of `/oauth/authorize` and `/oauth/token`. */
  authUrl: platformUrl,
});

export const profileSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'is required: give the profile a name')
    .max(60, 'must be at most 60 characters'),
  v2: endpointSchema,
  v0: endpointSchema,
  clientId: z.string().trim().min(1, 'is required: the client id the platform issued').max(200),
  scope: z.string().trim().min(1).max(200).default('*'),
  rateLimitPerMinute: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(10_000, 'must be at most 10,000'),
});

/** What the renderer sends to save a profile; the client secret goes to the secret store, never into settings. */
export const profileInputSchema = profileSchema.extend({
  /** Undefined keeps the stored secret; an empty string removes it. */
  clientSecret: z.string().max(500).optional(),
});

export const preferencesSchema = z.object({
  theme: z.enum(['system', 'light', 'dark']).default('system'),
});

export type Endpoint = z.infer<typeof endpointSchema>;
export type ConnectionProfile = z.infer<typeof profileSchema>;
export type ProfileInput = z.infer<typeof profileInputSchema>;
export type Preferences = z.infer<typeof preferencesSchema>;

/** Settings as the renderer sees them: the profile without its secret, and whether one is stored. */
export interface SettingsView {
  profile: ConnectionProfile;
  hasClientSecret: boolean;
  preferences: Preferences;
}

export const SANDBOX_URL = 'http://127.0.0.1:4010';

/** The platform's published limit (PLATFORM-FACTS.md): requests per minute per interface. */
export const PUBLISHED_REQUESTS_PER_MINUTE = 60;

/**
 * The request budget per minute the transport keeps to for a profile: its value, or the published
 * limit when the value is broken (a broken value must not lift the limit). The sync's time
 * estimates divide by the same number.
 */
export function requestBudget(profile: { rateLimitPerMinute?: unknown } | null | undefined): number {
  const raw = profile?.rateLimitPerMinute;
  return typeof raw === 'number' && Number.isFinite(raw) && raw >= 1 ? raw : PUBLISHED_REQUESTS_PER_MINUTE;
}

export function sandboxProfile(origin = SANDBOX_URL): ConnectionProfile {
  return {
    name: 'Sandbox',
    v2: { baseUrl: `${origin}/api/v2`, authUrl: origin },
    v0: { baseUrl: `${origin}/api/v0`, authUrl: origin },
    clientId: 'advisor-desk',
    scope: '*',
    rateLimitPerMinute: PUBLISHED_REQUESTS_PER_MINUTE,
  };
}

/** One sign-in covers both interfaces when they share the auth server and the client. */
export function sharesSignIn(profile: ConnectionProfile): boolean {
  return profile.v2.authUrl === profile.v0.authUrl;
}
