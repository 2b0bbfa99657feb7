// Which IPC messages are answered: only those from the main frame of our own app page
// (the idea of VS Code's ValidatedIpcMain). Pure, so it is tested without Electron.

export const APP_SCHEME = 'app';
export const APP_HOST = 'advisor-desk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

export interface SenderFrame {
  url: string;
  /** Null for a top-level frame. */
  parent: unknown;
}

/** True only for the top frame of a page served from the app origin. */
export function isTrustedSender(frame: SenderFrame | null | undefined, appOrigin = APP_ORIGIN): boolean {
  if (!frame || frame.parent !== null) return false;
  try {
    const url = new URL(frame.url);
    return `${url.protocol}//${url.host}` === appOrigin && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
