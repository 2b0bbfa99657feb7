// What `npm run package` says about signing and notarisation: electron-builder reads the
// certificates and Apple credentials from environment variables itself; this names which are set
// (never their values) and, where they are absent, that the installer will not be signed.

/** The variables electron-builder reads, by what they do. */
const MAC_SIGNING = ['CSC_LINK', 'CSC_KEY_PASSWORD'] as const;
const MAC_NOTARISATION = [
  ['APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'],
  ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'],
  ['APPLE_KEYCHAIN', 'APPLE_KEYCHAIN_PROFILE'],
] as const;
const WIN_SIGNING = ['WIN_CSC_LINK', 'WIN_CSC_KEY_PASSWORD'] as const;

export interface SigningPlan {
  /** One line each: what will be signed or notarised, and what will not and why. */
  lines: string[];
  /**
   * Variables to add for electron-builder: without a certificate, macOS signing is turned off
   * rather than left to pick whatever identity the keychain holds.
   */
  env: Record<string, string>;
}

const isSet = (env: NodeJS.ProcessEnv, name: string) => (env[name] ?? '').trim() !== '';
const names = (list: readonly string[]) => list.join(', ');

export function signingPlan(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): SigningPlan {
  const lines: string[] = [];
  const extra: Record<string, string> = {};
  if (platform === 'darwin') {
    if (MAC_SIGNING.every((n) => isSet(env, n))) lines.push(`Signing: ${names(MAC_SIGNING)} are set.`);
    else {
      lines.push(`Signing: skipped, ${names(MAC_SIGNING.filter((n) => !isSet(env, n)))} not set.`);
      extra.CSC_IDENTITY_AUTO_DISCOVERY = 'false';
    }
    const notarise = MAC_NOTARISATION.find((set) => set.every((n) => isSet(env, n)));
    if (notarise && !extra.CSC_IDENTITY_AUTO_DISCOVERY)
      lines.push(`Notarisation: ${names(notarise)} are set.`);
    else if (notarise) lines.push('Notarisation: skipped, the app is not signed.');
    else lines.push(`Notarisation: skipped, set ${MAC_NOTARISATION.map((s) => names(s)).join(' or ')}.`);
  } else if (platform === 'win32') {
    // electron-builder also reads CSC_LINK on Windows when WIN_CSC_LINK is absent.
    const link = isSet(env, 'WIN_CSC_LINK') ? 'WIN_CSC_LINK' : isSet(env, 'CSC_LINK') ? 'CSC_LINK' : null;
    lines.push(
      link
        ? `Signing: ${link} is set.`
        : `Signing: skipped, ${names(WIN_SIGNING)} not set (Windows will warn that the publisher is unknown).`,
    );
  } else {
    lines.push('Signing: none on Linux (AppImage and deb are not signed by electron-builder).');
  }
  return { lines, env: extra };
}
