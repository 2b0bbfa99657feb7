// The system browser, faked for the main process's sign-in: it loads the platform's sign-in page,
// submits the form and follows the redirect to the loopback listener, as a person would.

import { expect } from 'vitest';
import type { OpenExternal } from '../../electron/main/auth/ports.ts';

const ADVISOR = 'advisor@sandbox.test';
const PASSWORD = 'sandbox';

export interface Visit {
  authorizeUrl: URL;
  submitStatus: number;
  submitHtml: string;
  /** Where the platform sent the browser after the form, when it did. */
  location: URL | null;
  callbackStatus: number | null;
  callbackHtml: string;
}

const decode = (s: string) =>
  s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');

/** The hidden fields and the action of the sign-in form on a page. */
function readForm(html: string, pageUrl: string): { action: string; fields: Record<string, string> } {
  const form = /<form\b[^>]*\baction="([^"]*)"/i.exec(html);
  if (!form) throw new Error('no form on the page');
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input\b[^>]*>/gi)) {
    const type = /\btype="([^"]*)"/.exec(m[0])?.[1];
    const name = /\bname="([^"]*)"/.exec(m[0])?.[1];
    const value = /\bvalue="([^"]*)"/.exec(m[0])?.[1] ?? '';
    if (type === 'hidden' && name) fields[name] = decode(value);
  }
  return { action: new URL(decode(form[1] as string), pageUrl).href, fields };
}

export class FakeBrowser {
  email = ADVISOR;
  password = PASSWORD;
  action: 'sign-in' | 'cancel' = 'sign-in';
  /** Runs before the browser follows the redirect to the listener (to send forged requests first). */
  beforeCallback: ((callback: URL) => Promise<void>) | null = null;
  /** Changes the callback address the browser follows. */
  rewriteCallback: ((callback: URL) => URL) | null = null;
  readonly visits: Promise<Visit>[] = [];

  /** The OpenExternal port: opens the page "in the browser" and returns at once, like a shell would. */
  readonly open: OpenExternal = (url) => {
    this.visits.push(this.visit(new URL(url)));
    return Promise.resolve(true);
  };

  last(): Promise<Visit> {
    const visit = this.visits.at(-1);
    if (!visit) throw new Error('the browser was never opened');
    return visit;
  }

  async visit(authorizeUrl: URL): Promise<Visit> {
    const page = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(page.status).toBe(200);
    const form = readForm(await page.text(), authorizeUrl.href);
    const submitted = await fetch(form.action, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...form.fields,
        email: this.email,
        password: this.password,
        action: this.action,
      }),
    });
    const submitHtml = await submitted.text();
    const header = submitted.headers.get('location');
    const visit: Visit = {
      authorizeUrl,
      submitStatus: submitted.status,
      submitHtml,
      location: header ? new URL(header) : null,
      callbackStatus: null,
      callbackHtml: '',
    };
    if (!visit.location) return visit;
    await this.beforeCallback?.(visit.location);
    const target = this.rewriteCallback ? this.rewriteCallback(visit.location) : visit.location;
    const callback = await fetch(target, { redirect: 'manual' });
    visit.callbackStatus = callback.status;
    visit.callbackHtml = await callback.text();
    return visit;
  }
}
