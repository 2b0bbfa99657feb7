// What `npm start` says and decides, as plain functions (tested in test/unit/start/): its few
// lines, why the Electron program cannot run, and how the system opens a page in its browser.

export interface StartFacts {
  platformUrl: string;
  /** The sandbox's users and their shared password. */
  users: readonly string[];
  password: string;
  app: { kind: 'electron' } | { kind: 'preview'; url: string; whyNotElectron: string; opened: boolean };
}

/** The lines `npm start` prints once everything is up: where things are, who to sign in as, how to stop. */
export function startMessage(facts: StartFacts): string[] {
  const lines = [
    `Sandbox platform: ${facts.platformUrl}`,
    `Sign in as ${facts.users.join(' or ')}, password "${facts.password}".`,
  ];
  if (facts.app.kind === 'electron') {
    lines.push('Advisor Desk opens in its own window.', 'Close the window or press Ctrl+C to stop.');
    return lines;
  }
  const { url, whyNotElectron, opened } = facts.app;
  lines.unshift(`Electron cannot run here: ${whyNotElectron}. The same app runs as the browser preview.`);
  lines.push(`Advisor Desk: ${url}${opened ? ' (opened in your browser)' : ''}`, 'Press Ctrl+C to stop.');
  return lines;
}

type Env = Readonly<Record<string, string | undefined>>;

/** Linux without X11 or Wayland has nowhere to show a window (a server, a container, CI). */
export function hasDisplay(platform: NodeJS.Platform, env: Env): boolean {
  return platform !== 'linux' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/**
 * The command that opens `url` in the system's browser, or null where none should be opened: in
 * CI, and where there is no display.
 */
export function browserOpener(
  url: string,
  platform: NodeJS.Platform,
  env: Env,
): { command: string; args: string[] } | null {
  if (env.CI || !hasDisplay(platform, env)) return null;
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is built into cmd; its first quoted argument is the window title.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: [url] };
}

/** Why the program's download failed, in a few words, from what the installer printed. */
export function downloadFailure(output: string): string {
  if (
    /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|getaddrinfo/i.test(output)
  )
    return 'its program could not be downloaded (no access to its download host)';
  const first = output
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '');
  return first ? `its program could not be installed: ${first}` : 'its program could not be installed';
}
