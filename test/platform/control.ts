// Control endpoints under /__sandbox/ (sandbox only, no token): faults, maintenance, tokens,
// reset, rate limit, request counts, and a dump of the whole state for test oracles.

import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';
import { FAULT_KINDS, type FaultSettings } from './guard.ts';
import type { Control } from './server.ts';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function readFaults(body: unknown): Partial<FaultSettings> {
  if (!isObject(body))
    throw new ApiError(
      400,
      'Send a JSON object: {probability, kinds, methods, path, retryAfter, latencyMs, queue}.',
    );
  const out: Partial<FaultSettings> = {};
  const kinds = (list: unknown, field: string) => {
    if (!Array.isArray(list) || list.some((k) => !FAULT_KINDS.includes(k as never))) {
      throw new ApiError(400, `${field} must be a list of ${FAULT_KINDS.join(', ')}.`);
    }
    return list as FaultSettings['kinds'];
  };
  if ('probability' in body) {
    const p = body.probability;
    if (typeof p !== 'number' || p < 0 || p > 1)
      throw new ApiError(400, 'probability must be a number from 0 to 1.');
    out.probability = p;
  }
  if ('kinds' in body) out.kinds = kinds(body.kinds, 'kinds');
  if ('methods' in body) out.methods = body.methods as string[];
  if ('path' in body) out.path = body.path as string;
  if ('retryAfter' in body) out.retryAfter = Number(body.retryAfter);
  if ('latencyMs' in body) out.latencyMs = Number(body.latencyMs);
  if ('queue' in body) {
    if (!Array.isArray(body.queue))
      throw new ApiError(400, 'queue must be a list of {kind, methods?, path?, count?}.');
    out.queue = body.queue.map((r: unknown) => {
      if (!isObject(r)) throw new ApiError(400, 'queue entries must be objects.');
      const [kind] = kinds([r.kind], 'queue[].kind');
      return {
        kind: kind!,
        ...(Array.isArray(r.methods) ? { methods: r.methods as string[] } : {}),
        ...(typeof r.path === 'string' ? { path: r.path } : {}),
        ...(typeof r.count === 'number' ? { count: r.count } : {}),
      };
    });
  }
  for (const p of [out.path, ...(out.queue ?? []).map((q) => q.path)]) {
    if (p !== undefined) {
      try {
        new RegExp(p);
      } catch {
        throw new ApiError(400, `path ${p} is not a valid regular expression.`);
      }
    }
  }
  return out;
}

export function registerControl(app: FastifyInstance, control: Control): void {
  const body = (b: unknown) => (isObject(b) ? b : {});
  app.get('/__sandbox/state', () => control.dump());
  app.post('/__sandbox/reset', (req) => {
    const b = body(req.body);
    control.reset(
      typeof b.seed === 'number' ? b.seed : undefined,
      typeof b.accounts === 'number' ? b.accounts : undefined,
    );
    return { ok: true };
  });
  app.get('/__sandbox/faults', () => control.faults());
  app.post('/__sandbox/faults', (req) => control.setFaults(readFaults(req.body)));
  app.post('/__sandbox/maintenance', (req) => {
    const on = body(req.body).on;
    if (typeof on !== 'boolean') throw new ApiError(400, 'Send {"on": true} or {"on": false}.');
    control.maintenance(on);
    return { maintenance: on };
  });
  app.post('/__sandbox/tokens/expire', () => {
    control.expireTokens();
    return { ok: true };
  });
  app.post('/__sandbox/tokens/revoke', () => {
    control.revokeTokens();
    return { ok: true };
  });
  app.post('/__sandbox/token', (req) => {
    const email = body(req.body).email;
    if (typeof email !== 'string') throw new ApiError(400, 'Send {"email": "advisor@sandbox.test"}.');
    return control.token(email);
  });
  app.post('/__sandbox/rate-limit', (req) => {
    const n = body(req.body).perMinute;
    if (typeof n !== 'number' || n < 0)
      throw new ApiError(400, 'Send {"perMinute": 60} (0 turns the limit off).');
    control.setRateLimit(n);
    return { perMinute: n };
  });
  app.get('/__sandbox/stats', () => control.stats());
  app.post('/__sandbox/stats/reset', () => {
    control.resetStats();
    return { ok: true };
  });
}
