// Control endpoints under /__sandbox/ (sandbox only, no token): faults, maintenance, tokens,
// reset, rate limit, request counts, a dump of the whole state for test oracles, the engaged
// member's actions on an engagement, an engagement's preview HTML, and the emails the platform
// would have sent.

import type { FastifyInstance } from 'fastify';
import { MEMBER_ACTIONS, actAsMember, type MemberAction } from './engaged-member.ts';
import { ApiError, notFound } from './errors.ts';
import { FAULT_KINDS, type FaultSettings } from './guard.ts';
import type { Control } from './server.ts';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A control body that parses but says something impossible: 422 naming the field (malformed JSON stays 400). */
const refuse = (message: string) => new ApiError(422, message);

const FAULT_FIELDS = ['probability', 'kinds', 'methods', 'path', 'retryAfter', 'latencyMs', 'queue'];
const QUEUE_FIELDS = ['kind', 'methods', 'path', 'count'];

function kinds(list: unknown, field: string): FaultSettings['kinds'] {
  if (!Array.isArray(list) || list.some((k) => !FAULT_KINDS.includes(k as never)))
    throw refuse(`${field} must be a list of ${FAULT_KINDS.join(', ')}.`);
  return list as FaultSettings['kinds'];
}

/** HTTP methods, upper case; null (or leaving the field out) matches every method. */
function methods(list: unknown, field: string): string[] | undefined {
  if (list === null) return undefined;
  if (!Array.isArray(list) || list.some((m) => typeof m !== 'string' || !/^[A-Za-z]{1,10}$/.test(m)))
    throw refuse(`${field} must be a list of HTTP methods, for example ["POST", "PUT"], or null.`);
  return list.map((m: string) => m.toUpperCase());
}

/** A regular expression over the request path; null matches every path. */
function pathPattern(p: unknown, field: string): string | undefined {
  if (p === null) return undefined;
  if (typeof p !== 'string') throw refuse(`${field} must be a regular expression as a string, or null.`);
  try {
    new RegExp(p);
  } catch {
    throw refuse(`${field} ${p} is not a valid regular expression.`);
  }
  return p;
}

function whole(v: unknown, field: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw refuse(`${field} must be an integer from ${min} to ${max}.`);
  return v;
}

function unknownFields(body: Record<string, unknown>, known: string[], what: string): void {
  const extra = Object.keys(body).filter((k) => !known.includes(k));
  if (extra.length) throw refuse(`${what} has no field ${extra.join(', ')}; use ${known.join(', ')}.`);
}

function readFaults(body: unknown): Partial<FaultSettings> {
  if (!isObject(body))
    throw refuse('Send a JSON object: {probability, kinds, methods, path, retryAfter, latencyMs, queue}.');
  unknownFields(body, FAULT_FIELDS, 'A fault setting');
  const out: Partial<FaultSettings> = {};
  if ('probability' in body) {
    const p = body.probability;
    if (typeof p !== 'number' || !(p >= 0 && p <= 1))
      throw refuse('probability must be a number from 0 to 1.');
    out.probability = p;
  }
  if ('kinds' in body) out.kinds = kinds(body.kinds, 'kinds');
  if ('methods' in body) out.methods = methods(body.methods, 'methods');
  if ('path' in body) out.path = pathPattern(body.path, 'path');
  if ('retryAfter' in body) out.retryAfter = whole(body.retryAfter, 'retryAfter', 0, 86_400);
  if ('latencyMs' in body) out.latencyMs = whole(body.latencyMs, 'latencyMs', 0, 60_000);
  if ('queue' in body) {
    if (!Array.isArray(body.queue)) throw refuse('queue must be a list of {kind, methods?, path?, count?}.');
    out.queue = body.queue.map((r: unknown, i) => {
      if (!isObject(r)) throw refuse(`queue[${i}] must be an object {kind, methods?, path?, count?}.`);
      unknownFields(r, QUEUE_FIELDS, `queue[${i}]`);
      const [kind] = kinds([r.kind], `queue[${i}].kind`);
      const m = 'methods' in r ? methods(r.methods, `queue[${i}].methods`) : undefined;
      const p = 'path' in r ? pathPattern(r.path, `queue[${i}].path`) : undefined;
      return {
        kind: kind!,
        ...(m ? { methods: m } : {}),
        ...(p !== undefined ? { path: p } : {}),
        ...('count' in r ? { count: whole(r.count, `queue[${i}].count`, 1, 1_000_000) } : {}),
      };
    });
  }
  return out;
}

export function registerControl(app: FastifyInstance, control: Control): void {
  const body = (b: unknown) => (isObject(b) ? b : {});
  app.get('/__sandbox/state', () => control.dump());
  app.post('/__sandbox/reset', (req) => {
    const b = body(req.body);
    // The same bounds as the command line's --seed and --accounts.
    control.reset(
      b.seed === undefined ? undefined : whole(b.seed, 'seed', 0, 2 ** 32 - 1),
      b.accounts === undefined ? undefined : whole(b.accounts, 'accounts', 0, 200_000),
    );
    return { ok: true };
  });
  app.get('/__sandbox/faults', () => control.faults());
  app.post('/__sandbox/faults', (req) => control.setFaults(readFaults(req.body)));
  app.post('/__sandbox/maintenance', (req) => {
    const on = body(req.body).on;
    if (typeof on !== 'boolean') throw refuse('Send {"on": true} or {"on": false}.');
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
    if (typeof email !== 'string') throw refuse('Send {"email": "advisor@sandbox.test"}.');
    return control.token(email);
  });
  app.post('/__sandbox/rate-limit', (req) => {
    const n = body(req.body).perMinute;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 1e6)
      throw refuse('Send {"perMinute": 60}: an integer from 0 (no limit) to 1000000.');
    control.setRateLimit(n);
    return { perMinute: n };
  });
  app.post('/__sandbox/engagements/:id/member', (req) => {
    const b = body(req.body);
    unknownFields(b, ['action', 'seed'], 'A member action');
    if (!MEMBER_ACTIONS.includes(b.action as MemberAction))
      throw refuse(`action must be one of ${MEMBER_ACTIONS.join(', ')}.`);
    const seed = b.seed === undefined ? 1 : whole(b.seed, 'seed', 0, 2 ** 32 - 1);
    const { id } = req.params as { id: string };
    const store = control.store();
    const e = actAsMember(store, id, b.action as MemberAction, seed);
    store.changed();
    const { answers, documents, signatures, history, preview_html: _p, ...fields } = e;
    return {
      ...fields,
      answers: answers.length,
      documents: documents.length,
      signatures: signatures.length,
      versions: history.length,
    };
  });
  app.post('/__sandbox/engagements/:id/preview', (req) => {
    const b = body(req.body);
    unknownFields(b, ['html'], 'A preview');
    if (typeof b.html !== 'string' && b.html !== null)
      throw refuse('html must be the page as a string, or null for the page made from the answers.');
    const { id } = req.params as { id: string };
    const store = control.store();
    const e = store.state.engagements.find((x) => x.id === id);
    if (!e) throw notFound('Engagement');
    if (b.html === null) delete e.preview_html;
    else e.preview_html = b.html;
    store.changed();
    return { id, preview: b.html === null ? 'from the answers' : 'set' };
  });
  app.get('/__sandbox/emails', () => control.store().state.emails ?? []);
  app.get('/__sandbox/stats', () => control.stats());
  app.post('/__sandbox/stats/reset', () => {
    control.resetStats();
    return { ok: true };
  });
}
