// @vitest-environment happy-dom
// An engagement's preview is the platform's HTML, which the app must show without letting it run:
// the frame is sandboxed without scripts and without the app's origin, fed with `srcdoc`, and its
// links open a new window (the host's https check) instead of navigating the frame. happy-dom runs
// no frame's scripts at all, so whether a script of the preview runs is asked of real Chromium:
// the sandbox the component made, around the HTML unsanitized (the sanitizer is tested in
// preview-html.test.ts), in a page served with the app's own CSP, and without it (the sandbox
// alone must hold), beside an unsandboxed control that shows the probe can see a script run.

import { mount } from '@vue/test-utils';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import type { Bridge, PreviewRequest } from '@shared/bridge.ts';
import { CONTENT_SECURITY_POLICY } from '../../../electron/main/security.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import PreviewFrame from '../../../renderer/src/engagements/PreviewFrame.vue';

const HTML =
  '<!doctype html><html><head><title>Intake</title></head><body><h1>Client intake</h1>' +
  '<p id="answer">Retire at 60</p><a id="link" href="https://example.com/terms">Terms</a>' +
  '<script>window.parent.postMessage("script ran", "*"); document.body.append("SCRIPT RAN");</script>' +
  '</body></html>';

const asked: PreviewRequest[] = [];
function previewBridge(html: string) {
  useBridge({
    files: {
      preview: (req: PreviewRequest) => {
        asked.push(req);
        return Promise.resolve({ ok: true as const, bytes: new TextEncoder().encode(html) });
      },
    },
  } as unknown as Bridge);
}

unmountAfterEach();
afterEach(() => {
  asked.length = 0;
});

async function mountedFrame(): Promise<HTMLIFrameElement> {
  previewBridge(HTML);
  const wrapper = mount(PreviewFrame, {
    props: { url: 'http://127.0.0.1:4010/api/v2/engagements/e-1/preview', title: 'Client intake' },
    attachTo: document.body,
  });
  await vi.waitFor(() => expect(wrapper.find('iframe').exists()).toBe(true));
  return wrapper.find('iframe').element;
}

describe('the engagement preview frame', () => {
  it('is sandboxed without scripts and without the app’s origin, and fed the platform’s HTML by srcdoc', async () => {
    const frame = await mountedFrame();
    expect(asked).toEqual([
      { api: 'v2', url: 'http://127.0.0.1:4010/api/v2/engagements/e-1/preview', priority: 'interactive' },
    ]);
    const tokens = (frame.getAttribute('sandbox') ?? 'not sandboxed').split(/\s+/).filter(Boolean);
    expect(frame.hasAttribute('sandbox')).toBe(true);
    expect(tokens).not.toContain('allow-scripts');
    expect(tokens).not.toContain('allow-same-origin');
    expect(tokens).not.toContain('allow-top-navigation');
    expect(tokens).not.toContain('allow-forms');
    expect(frame.hasAttribute('src')).toBe(false);
    const srcdoc = frame.getAttribute('srcdoc') ?? '';
    expect(srcdoc).toContain('<p id="answer">Retire at 60</p>');
    // Links leave in a new window, which the host hands to its https check; never inside the frame.
    expect(srcdoc.startsWith('<base target="_blank">')).toBe(true);
    expect(frame.getAttribute('title')).toBe('Preview of Client intake');
  });

  it('runs none of the HTML’s scripts in Chromium, with the app’s CSP and with the sandbox alone', async () => {
    const frame = await mountedFrame();
    // The frame's sandbox as the component made it, holding the platform's HTML unsanitized: the
    // sandbox must hold alone, were the sanitizer (preview-html.test.ts) to let a script through.
    // (Nor can happy-dom judge the sanitizer: DOMPurify there keeps the script.)
    const made = { sandbox: frame.getAttribute('sandbox')!, srcdoc: `<base target="_blank">${HTML}` };
    const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    /** A page holding one frame, listening for the frame's script. */
    const page = (sandbox: string | null) =>
      '<!doctype html><html><body><p id="heard">silent</p><script src="/listen.js"></script>' +
      `<iframe id="preview" ${sandbox === null ? '' : `sandbox="${attr(sandbox)}"`} srcdoc="${attr(made.srcdoc)}"></iframe></body></html>`;
    const listen =
      'addEventListener("message", (e) => { document.getElementById("heard").textContent = String(e.data); });';
    const server: Server = createServer((req, res) => {
      if (req.url === '/listen.js') {
        res.setHeader('content-type', 'text/javascript');
        return res.end(listen);
      }
      if (req.url?.startsWith('/csp')) res.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
      res.setHeader('content-type', 'text/html');
      res.end(page(req.url?.endsWith('control') ? null : made.sandbox));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    });
    try {
      const tab = await browser.newPage();
      const visit = async (path: string) => {
        await tab.goto(`${base}${path}`);
        const inner = tab.frameLocator('#preview');
        await expect.poll(() => inner.locator('#answer').textContent()).toBe('Retire at 60');
        await tab.waitForTimeout(200);
        return {
          heard: await tab.locator('#heard').textContent(),
          body: await inner.locator('body').innerText(),
        };
      };
      // The control: the same document unsandboxed and without the CSP runs its script.
      const control = await visit('/plain/control');
      expect(control.heard).toBe('script ran');
      expect(control.body).toContain('SCRIPT RAN');
      for (const path of ['/plain/sandboxed', '/csp/sandboxed']) {
        const seen = await visit(path);
        expect(seen.heard, path).toBe('silent');
        expect(seen.body, path).not.toContain('SCRIPT RAN');
      }
      // The app's CSP loads the srcdoc frame (frame-src governs addresses, not srcdoc).
      expect(CONTENT_SECURITY_POLICY).toContain("frame-src 'none'");
    } finally {
      await browser.close();
      server.close();
    }
  }, 60_000);
});

describe('the preview offline', () => {
  const URL_E1 = 'http://127.0.0.1:4010/api/v2/engagements/e-1/preview';
  /** The main process's answers: its copy when it keeps one, else "Not downloaded yet" (nothing sent). */
  function keptBridge(kept: string | null) {
    useBridge({
      files: {
        preview: (req: PreviewRequest) => {
          asked.push(req);
          if (kept !== null)
            return Promise.resolve({ ok: true as const, bytes: new TextEncoder().encode(kept) });
          return Promise.resolve({
            ok: false as const,
            error: {
              ok: false,
              kind: 'network',
              status: null,
              message: 'Not downloaded yet — available when online.',
              fields: {},
              retryAfterMs: null,
            },
          });
        },
      },
    } as unknown as Bridge);
  }

  it('asks for this computer’s copy alone, and shows it when the household was prepared', async () => {
    keptBridge(HTML);
    const wrapper = mount(PreviewFrame, {
      props: { url: URL_E1, title: 'Client intake', offline: true },
      attachTo: document.body,
    });
    await vi.waitFor(() => expect(wrapper.find('iframe').exists()).toBe(true));
    expect(asked).toEqual([{ api: 'v2', url: URL_E1, priority: 'interactive', keptOnly: true }]);
    expect(wrapper.find('iframe').attributes('srcdoc')).toContain('Retire at 60');
  });

  it('without a copy says it is not downloaded yet, then fetches it once back online', async () => {
    keptBridge(null);
    const wrapper = mount(PreviewFrame, {
      props: { url: URL_E1, title: 'Client intake', offline: true },
      attachTo: document.body,
    });
    await vi.waitFor(() =>
      expect(wrapper.find('[data-testid="engagement-preview-not-kept"]').text()).toBe(
        'Not downloaded yet — available when online.',
      ),
    );
    expect(wrapper.find('iframe').exists()).toBe(false);
    expect(wrapper.find('[data-testid="engagement-preview-problem"]').exists()).toBe(false);

    keptBridge(HTML);
    await wrapper.setProps({ offline: false });
    await vi.waitFor(() => expect(wrapper.find('iframe').exists()).toBe(true));
    expect(asked.at(-1)).toEqual({ api: 'v2', url: URL_E1, priority: 'interactive' });
    expect(wrapper.find('[data-testid="engagement-preview-not-kept"]').exists()).toBe(false);
  });
});
