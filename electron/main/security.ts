// Security rules shared by the Electron host and the browser-preview host.

/**
 * Scripts only from the app itself; styles also inline, because the component library injects its
 * theme as <style> elements at run time; no plugins, no form posts; network only to the app's own
 * origin (every platform request goes through the main process). No frame loads an address:
 * a same-origin frame would reach `window.advisor` through its parent. The one frame the app shows,
 * an engagement's preview (renderer/src/engagements/PreviewFrame.vue), is an `about:srcdoc`
 * document, which `frame-src` does not govern: it inherits this policy (no script, no outside
 * image) and is sandboxed without scripts or the app's origin. `frame-src 'none'` keeps it from
 * navigating anywhere, a link included (links leave through the window-open handler's https check).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "frame-src 'none'",
].join('; ');

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Only parsed `https:` addresses leave the app (and, for sign-in to a local sandbox, loopback `http:`). */
export function isSafeExternalUrl(raw: string, options: { allowLoopbackHttp?: boolean } = {}): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return url.hostname !== '';
  return options.allowLoopbackHttp === true && url.protocol === 'http:' && LOOPBACK.has(url.hostname);
}

/**
 * What a link the window opens may be (a form's preview the platform addressed): any https address,
 * and loopback http only at the origin of an interface the connection profile points at, which is
 * loopback only for the local sandbox platform. Any other http address stays in no browser.
 */
export function opensExternally(raw: string, platformBases: readonly string[]): boolean {
  if (isSafeExternalUrl(raw)) return true;
  if (!isSafeExternalUrl(raw, { allowLoopbackHttp: true })) return false;
  const origin = new URL(raw).origin;
  return platformBases.some((base) => {
    try {
      return new URL(base).origin === origin;
    } catch {
      return false;
    }
  });
}
