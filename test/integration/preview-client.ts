// What a test does in place of the browser of the preview: open the printed address, sign in on
// the platform's page in the new tab.

/** What the browser does with the printed address: one request, the cookie kept, the redirect read. */
export async function openPrintedAddress(url: string) {
  const res = await fetch(url, { redirect: 'manual' });
  const setCookie = res.headers.get('set-cookie') ?? '';
  return {
    status: res.status,
    location: res.headers.get('location'),
    setCookie,
    cookie: setCookie.split(';')[0] ?? '',
    text: await res.text(),
  };
}

const decode = (s: string) =>
  s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');

/** What the user does in the new tab: the platform's form, then its redirect back to the app. */
export async function signInOnThePage(authorizeUrl: string): Promise<void> {
  const html = await (await fetch(authorizeUrl)).text();
  const action = /<form\b[^>]*\baction="([^"]*)"/i.exec(html)?.[1] ?? '';
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input\b[^>]*>/gi)) {
    const name = /\bname="([^"]*)"/.exec(m[0])?.[1];
    if (/\btype="hidden"/.test(m[0]) && name)
      fields[name] = decode(/\bvalue="([^"]*)"/.exec(m[0])?.[1] ?? '');
  }
  const submitted = await fetch(new URL(decode(action), authorizeUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      ...fields,
      email: 'advisor@sandbox.test',
      password: 'sandbox',
      action: 'sign-in',
    }),
  });
  const location = submitted.headers.get('location');
  if (!location) throw new Error(`the platform did not redirect (status ${submitted.status})`);
  await (await fetch(location)).text();
}

/**
 * Runs `save` as the page does when the advisor agrees to every question the host asks meanwhile
 * (an address change, renderer/src/common/bridge/http.ts): waits for each, answers OK.
 */
export async function agreeing<T>(
  pageUrl: string,
  headers: Record<string, string>,
  save: () => Promise<T>,
): Promise<T> {
  const done = new AbortController();
  const answering = (async () => {
    while (!done.signal.aborted) {
      const res = await fetch(`${pageUrl}/__question`, { method: 'POST', headers, signal: done.signal });
      const { question } = (await res.json()) as { question: { id: string } | null };
      if (question)
        await fetch(`${pageUrl}/__answer/${question.id}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ agree: true }),
        });
    }
  })().catch(() => undefined);
  try {
    return await save();
  } finally {
    done.abort();
    await answering;
  }
}
