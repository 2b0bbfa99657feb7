// `npm run package` names the signing and notarisation variables that are set, never their
// values, and says plainly when an installer will not be signed.

import { describe, expect, it } from 'vitest';
import { signingPlan } from '../../../scripts/signing.ts';

const secret = 'p4ssw0rd-never-printed';

describe('signingPlan', () => {
  it('macOS with a certificate and an app-specific password: signed and notarised', () => {
    const plan = signingPlan(
      {
        CSC_LINK: '/certs/dev-id.p12',
        CSC_KEY_PASSWORD: secret,
        APPLE_ID: 'dev@example.com',
        APPLE_APP_SPECIFIC_PASSWORD: secret,
        APPLE_TEAM_ID: 'ABCDE12345',
      },
      'darwin',
    );
    expect(plan.lines).toEqual([
      'Signing: CSC_LINK, CSC_KEY_PASSWORD are set.',
      'Notarisation: APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID are set.',
    ]);
    expect(plan.env).toEqual({});
    expect(plan.lines.join('\n')).not.toContain(secret);
  });

  it('macOS without a certificate: signing and notarisation skipped, and the keychain not searched', () => {
    const plan = signingPlan({ CSC_KEY_PASSWORD: secret }, 'darwin');
    expect(plan.lines[0]).toBe('Signing: skipped, CSC_LINK not set.');
    expect(plan.lines[1]).toMatch(/^Notarisation: skipped, set APPLE_API_KEY/);
    expect(plan.env).toEqual({ CSC_IDENTITY_AUTO_DISCOVERY: 'false' });
  });

  it('an empty variable counts as not set', () => {
    expect(signingPlan({ CSC_LINK: ' ', CSC_KEY_PASSWORD: '' }, 'darwin').lines[0]).toBe(
      'Signing: skipped, CSC_LINK, CSC_KEY_PASSWORD not set.',
    );
  });

  it('Windows signs with WIN_CSC_LINK, else says the installer is unsigned', () => {
    expect(
      signingPlan({ WIN_CSC_LINK: 'C:\\certs\\ev.pfx', WIN_CSC_KEY_PASSWORD: secret }, 'win32').lines,
    ).toEqual(['Signing: WIN_CSC_LINK is set.']);
    expect(signingPlan({}, 'win32').lines[0]).toMatch(
      /^Signing: skipped, WIN_CSC_LINK, WIN_CSC_KEY_PASSWORD not set/,
    );
  });

  it('Linux says its packages are not signed', () => {
    expect(signingPlan({ CSC_LINK: 'x' }, 'linux')).toEqual({
      lines: ['Signing: none on Linux (AppImage and deb are not signed by electron-builder).'],
      env: {},
    });
  });
});
