// Electron rejects a failed `ipcRenderer.invoke` with "Error invoking remote method '<channel>':
// Error: <message>". The renderer shows such messages as they are (the browser preview's bridge
// gives the bare message), so the prefix goes before the error reaches it.

const PREFIX = /^Error invoking remote method '[^']*': (?:[A-Za-z]*Error: )?/;

/** The message the main process wrote, without Electron's wrapping. */
export function remoteErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(PREFIX, '');
}
