// The security reviewer's hostile engagement page (issue 24, point 3), and the "outside host" it
// tries to reach: a local HTTP server that counts every TCP connection and every request it gets.
// Every address of the page points at that server (127.0.0.1:<port>), so that a preconnect, a
// prefetch or an image that leaves is counted at a real server, not guessed from the browser's
// own report. A DNS lookup reaches no server, so `dns-prefetch` names a host of its own and the
// tests look for its `<link>` instead.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The host of the page's dns-prefetch (a lookup cannot be counted at a server). */
export const DNS_PREFETCH_HOST = 'tracker.example';

/** The page an advisor should still be able to read, wrapped in everything that connects. */
export function hostilePage(origin: string): string {
  const at = (path: string) => `${origin}/${path}`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Hostile intake</title>
<meta http-equiv="refresh" content="0; url=${at('refresh')}">
<base href="${at('base/')}">
<link rel="preconnect" href="${origin}">
<link rel="dns-prefetch" href="//${DNS_PREFETCH_HOST}">
<link rel="prefetch" href="${at('prefetch')}">
<link rel="preload" href="${at('preload.css')}" as="style">
<link rel="stylesheet" href="${at('sheet.css')}">
<link rel="icon" href="${at('icon.png')}">
<style>@import url("${at('import.css')}"); body { background: url(${at('background.png')}); }</style>
<style>@font-face { font-family: Leak; src: url(${at('font.woff2')}); } h1 { font-family: Leak; }</style>
<style>h2 { background-image: image-set("${at('image-set.png')}" 1x); }</style>
<style>h3 { background: u\\72l(${at('escaped.png')}); }</style>
<style>table.plain { border-collapse: collapse; }</style>
</head><body onload="parent.postMessage('loaded', '*')">
<h1>Client intake</h1>
<p>Prepared for <strong>Jordan Lee</strong>.</p>
<h2>Goals</h2>
<ul><li>Retire at 60</li><li>Pay off the mortgage</li></ul>
<h3>Accounts</h3>
<table class="plain"><tr><th>Account</th><th>Balance</th></tr><tr><td>Brokerage</td><td>$120,000</td></tr></table>
<p><a href="https://example.com/terms">Terms</a> · <a href="javascript:alert(1)">Click me</a> ·
<a href="${at('link')}" ping="${at('ping')}">Firm site</a></p>
<p style="background: url(${at('inline.png')})" onclick="alert(1)" onmouseover="alert(2)">Signed by the client</p>
<img src="${at('pixel.png')}" alt="Firm logo">
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" srcset="${at('srcset.png')} 2x" alt="">
<picture><source srcset="${at('source.png')}"><img src="${at('picture.png')}" alt="Photo"></picture>
<svg width="10" height="10"><image xlink:href="${at('svg.png')}" width="10" height="10"/><use href="${at('use.svg#a')}"/></svg>
<form action="${at('form')}" method="post"><input name="q" value="answer"><input type="image" src="${at('input.png')}" alt="Go"><button formaction="${at('formaction')}">Send</button></form>
<iframe src="${at('iframe')}"></iframe>
<object data="${at('object')}"></object>
<embed src="${at('embed')}">
<video src="${at('video.mp4')}" poster="${at('poster.png')}"></video>
<audio src="${at('audio.mp3')}" autoplay></audio>
<table background="${at('table.png')}"><tr><td background="${at('cell.png')}">Cell</td></tr></table>
<script>fetch("${at('script')}")</script>
</body></html>`;
}

/** What an advisor should still read in it: the text, headings, lists, tables and plain links. */
export function readable(origin: string) {
  return {
    headings: ['Client intake', 'Goals', 'Accounts'],
    items: ['Retire at 60', 'Pay off the mortgage'],
    cells: [['Account', 'Balance'], ['Brokerage', '$120,000'], ['Cell']],
    /** Followed only when clicked, in a new window through the host's check: they connect to nothing. */
    links: [
      { text: 'Terms', href: 'https://example.com/terms' },
      { text: 'Firm site', href: `${origin}/link` },
    ],
    /** The javascript: link's words stay, the address goes; an image that would load shows its alt. */
    text: ['Prepared for Jordan Lee.', 'Click me', 'Signed by the client', 'Firm logo', 'Photo', 'Send'],
  };
}

export interface OutsideHost {
  origin: string;
  /** TCP connections accepted (a preconnect opens one and may send nothing). */
  connections: () => number;
  /** The paths of the requests received, in order. */
  requests: () => string[];
  close: () => Promise<void>;
}

/** A local server standing for the outside host; it answers every request with an empty 204. */
export async function outsideHost(): Promise<OutsideHost> {
  let connections = 0;
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(204).end();
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    connections: () => connections,
    requests: () => [...requests],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
