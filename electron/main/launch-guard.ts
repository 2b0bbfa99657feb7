// The installed app refuses to start under a debugger: switches that would let another program
// run code as the app (and so decrypt the saved tokens) end it before anything is built.

/**
 * Switches that open the main process or the renderers to another program: Chromium's DevTools
 * protocol (port or pipe), Node's inspector, and V8 flags (which can turn on the same).
 */
const DEBUG_SWITCHES: readonly string[] = [
  'remote-debugging-port',
  'remote-debugging-pipe',
  'remote-debugging-address',
  'inspect',
  'inspect-brk',
  'inspect-port',
  'inspect-wait',
  'inspect-publish-uid',
  'debug',
  'debug-brk',
  'js-flags',
];

/**
 * The switch name of a command-line argument, or null when it is none. Chromium reads `--x`, `-x`
 * and, on Windows, `/x`, in any case on Windows, with an optional `=value`.
 */
function switchName(arg: string): string | null {
  const match = /^(?:--?|\/)([A-Za-z][\w-]*)(?:=.*)?$/s.exec(arg);
  return match?.[1]?.toLowerCase() ?? null;
}

/**
 * The debugging switch a packaged app was started with, or null when it may start. Development
 * builds may be debugged; the installed app never.
 */
export function refusedDebugSwitch(argv: readonly string[], isPackaged: boolean): string | null {
  if (!isPackaged) return null;
  // argv[0] is the executable itself.
  for (const arg of argv.slice(1)) {
    const name = switchName(arg);
    if (name !== null && DEBUG_SWITCHES.includes(name)) return arg.replace(/=.*$/s, '');
  }
  return null;
}
