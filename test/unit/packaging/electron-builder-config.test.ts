// The installer configuration (build/electron-builder.yml), read and checked by electron-builder's
// own loader and schema: packaging itself downloads Electron, so it cannot run in the tests.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import type { Configuration } from 'app-builder-lib';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const quiet = { isEnabled: false, add: () => undefined } as unknown as Parameters<
  typeof validateConfiguration
>[1];

async function config(): Promise<Configuration> {
  return getConfig(ROOT, join(ROOT, 'build/electron-builder.yml'), null);
}

/**
 * The entitlements a plist grants (keys set to <true/>), read strictly: anything in its dict but
 * key/boolean pairs fails, so no entitlement hides in a form this reader would skip.
 */
function entitlements(path: string): Record<string, boolean> {
  const xml = readFileSync(join(ROOT, path), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
  const dict = /<plist version="1\.0">\s*<dict>([\s\S]*)<\/dict>\s*<\/plist>\s*$/.exec(xml)?.[1];
  if (dict === undefined) throw new Error(`${path} is not a plist of one dict`);
  const out: Record<string, boolean> = {};
  const rest = dict.replace(/<key>([^<]+)<\/key>\s*<(true|false)\/>/g, (_, key: string, value: string) => {
    out[key] = value === 'true';
    return '';
  });
  if (rest.trim() !== '') throw new Error(`${path} holds more than key/boolean pairs: ${rest.trim()}`);
  return out;
}

describe('build/electron-builder.yml', () => {
  it('is valid for the electron-builder the project uses', async () => {
    await expect(validateConfiguration(await config(), quiet)).resolves.toBeUndefined();
  });

  it('the schema check is live: a misspelt fuse is refused', async () => {
    const wrong = { ...(await config()), electronFuses: { runAsNod: false } } as unknown as Configuration;
    await expect(validateConfiguration(wrong, quiet)).rejects.toThrow(/electronFuses/);
  });

  it('flips the fuses so that no other program runs code as the app', async () => {
    expect((await config()).electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('packs the built app only, in an asar, with update metadata for an https feed', async () => {
    const c = await config();
    expect(c.asar).toBe(true);
    // The browser preview's page and its HTTP bridge are built beside the app but never shipped.
    expect(c.files).toEqual([
      {
        filter: [
          'out/**',
          'package.json',
          '!**/*.map',
          '!out/renderer/preview.html',
          '!out/renderer/assets/preview-*',
        ],
      },
    ]);
    const publish = c.publish as { provider: string; url: string };
    expect(publish.provider).toBe('generic');
    expect(publish.url).toMatch(/^https:\/\//);
    // electron-updater installs the zip on macOS.
    expect(c.mac?.target).toEqual(expect.arrayContaining(['dmg', 'zip']));
    expect(c.mac?.hardenedRuntime).toBe(true);
  });

  it('signs the macOS app with its own entitlements: JIT only, library validation kept', async () => {
    const mac = (await config()).mac;
    // Without these, electron-builder's defaults apply, which disable library validation.
    expect(mac?.entitlements).toBe('build/entitlements.mac.plist');
    expect(mac?.entitlementsInherit).toBe('build/entitlements.mac.inherit.plist');
    for (const file of [mac?.entitlements, mac?.entitlementsInherit]) {
      if (!file) throw new Error('no entitlements file');
      expect(entitlements(file), file).toEqual({ 'com.apple.security.cs.allow-jit': true });
    }
  });

  it('the entitlements reader is live: it sees the exemption electron-builder’s defaults grant', () => {
    const defaults = 'node_modules/app-builder-lib/templates/entitlements.mac.plist';
    expect(entitlements(defaults)).toMatchObject({
      'com.apple.security.cs.disable-library-validation': true,
    });
  });
});
