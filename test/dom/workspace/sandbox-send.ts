// The sandbox platform over real HTTP for component tests. They run in happy-dom, whose fetch
// keeps to the page's origin and whose abort signals the main-side transport cannot take, so the
// requests go out through Node's http module as the signed-in user; a failed answer is read as the
// transport reads it (mapFailure), so the sync sees the same typed results it sees in the app.

import { request } from 'node:http';
import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import { sandboxProfile } from '@shared/settings.ts';
import { mapFailure } from '../../../electron/main/transport/failures.ts';
import type { Platform } from '../../platform/server.ts';

export function sandboxSend(platform: Platform, email: string): (req: ApiRequest) => Promise<ApiResult> {
  const profile = sandboxProfile(platform.url);
  const token = platform.control.token(email).access_token;
  return (req) =>
    new Promise((resolve, reject) => {
      const url = new URL(`${profile[req.api].baseUrl}${req.path}`);
      for (const [key, value] of Object.entries(req.query ?? {}))
        if (value !== undefined) url.searchParams.append(key, String(value));
      const body = req.body === undefined ? undefined : JSON.stringify(req.body);
      const headers: Record<string, string> = {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
      };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const sent = request(url, { method: req.method, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300)
            resolve({ ok: true, status, data: text ? (JSON.parse(text) as unknown) : null });
          else resolve(mapFailure({ status, headers: res.headers, body: text }));
        });
      });
      sent.on('error', reject);
      if (body !== undefined) sent.write(body);
      sent.end();
    });
}
