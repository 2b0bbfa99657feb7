// The sandbox platform: both interfaces, their OAuth server and the control endpoints in one
// Fastify server. `startPlatform` is what tests call; main.ts is the command line around it.

import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { Clock } from './clock.ts';
import { registerControl } from './control.ts';
import { ApiError, STATUS_TEXT } from './errors.ts';
import { FaultInjector, RateLimiter, type FaultKind, type FaultSettings } from './guard.ts';
import type { State } from './model.ts';
import { OAuthServer } from './oauth.ts';
import { createRandom, isRandomState, type Random, type RandomState } from './random.ts';
import { Router } from './router.ts';
import { seedState } from './seed.ts';
import { Store } from './store.ts';
import { registerFormPages } from './v0/forms.ts';
import { registerV0 } from './v0/routes.ts';
import { registerV2 } from './v2/routes.ts';

export interface PlatformOptions {
  port?: number;
  host?: string;
  seed?: number;
  accounts?: number;
  /** Requests per minute per interface per token; 0 turns the limit off. */
  rateLimit?: number;
  /** Access token lifetime in seconds. */
  tokenTtl?: number;
  /** Probability of a random fault per request, 0..1. */
  faults?: number;
  /** Delay added to every interface request, in ms. */
  latency?: number;
  /** Load state from this file at start and save it after every change. */
  dataFile?: string;
  /** Append one JSON line per request to this file. */
  logFile?: string;
  /** Sample timestamps lie before this instant (ms); default today's UTC midnight. */
  anchor?: number;
}

export interface RequestStats {
  /** Requests answered (or dropped by a fault), counted when their answer goes out. */
  total: number;
  /** Requests of either interface that arrived, counted before any fault or wait: arrived less answered are held. */
  received: number;
  byInterface: Record<string, number>;
  byStatus: Record<string, number>;
}

export interface Control {
  setFaults(settings: Partial<FaultSettings>): FaultSettings;
  faults(): FaultSettings;
  expireTokens(): void;
  revokeTokens(): void;
  maintenance(on: boolean): void;
  reset(seed?: number, accounts?: number): void;
  dump(): State;
  /** An access token for a seeded user without the browser round trip (sandbox only). */
  token(email: string): { access_token: string; refresh_token: string; expires_in: number };
  setRateLimit(perMinute: number): void;
  stats(): RequestStats;
  resetStats(): void;
  store(): Store;
}

export interface Platform {
  url: string;
  close(): Promise<void>;
  control: Control;
}

type Iface = 'v2' | 'v0' | 'oauth' | 'control' | 'other';
const ifaceOf = (url: string): Iface =>
  url.startsWith('/api/v2/') || url === '/api/v2'
    ? 'v2'
    : url.startsWith('/api/v0/') || url === '/api/v0'
      ? 'v0'
      : url.startsWith('/oauth/') || url.startsWith('/.well-known/')
        ? 'oauth'
        : url.startsWith('/__sandbox/')
          ? 'control'
          : 'other';

declare module 'fastify' {
  interface FastifyRequest {
    fault?: FaultKind;
    /** Counted, saved and logged already (see settle). */
    settled?: boolean;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A `--data` file: the state, and where the store's id stream stood when it was written. */
type DataFile = State & { random?: RandomState };

function loadData(file: string): { state: State; random: Random } {
  const text = readFileSync(file, 'utf8');
  const { random, ...state } = JSON.parse(text) as DataFile;
  if (isRandomState(random)) return { state, random: createRandom(0, random) };
  // Written before the stream was kept: a stream of the file's own, not the seed's again.
  const digest = createHash('sha256').update(text).digest();
  return { state, random: createRandom(digest.readUInt32LE(0)) };
}

/** Renders an error in the shape of the interface that was called. */
export function errorBody(
  iface: Iface,
  status: number,
  message: string,
  fields: Record<string, string[]>,
): unknown {
  if (iface === 'v0') {
    const messages = status === 422 ? Object.values(fields).flat() : message;
    return {
      status: STATUS_TEXT[status] ?? 'Error',
      code: status,
      messages: Array.isArray(messages) && messages.length === 0 ? [message] : messages,
    };
  }
  if (iface === 'v2')
    return status === 422 && Object.keys(fields).length ? { message, errors: fields } : { message };
  return { error: STATUS_TEXT[status] ?? 'error', message };
}

export async function startPlatform(options: PlatformOptions = {}): Promise<Platform> {
  const seed = options.seed ?? 1;
  const accounts = options.accounts ?? 200;
  const clock = new Clock();
  const fresh = (s = seed, n = accounts) =>
    seedState({ seed: s, accounts: n, ...(options.anchor !== undefined ? { anchor: options.anchor } : {}) });
  // The store draws new ids (uuids, PINs) from its own stream. A --data file keeps where that
  // stream stood, so that a restart continues it instead of drawing the earlier run's ids again.
  const saved = options.dataFile && existsSync(options.dataFile) ? loadData(options.dataFile) : null;
  let store = saved
    ? new Store(saved.state, clock, saved.random)
    : new Store(fresh(), clock, createRandom(seed ^ 0x5eed));
  const oauth = new OAuthServer(() => store, options.tokenTtl ?? 3600);
  const faults = new FaultInjector(createRandom(seed ^ 0xfa17), options.faults ?? 0);
  const limiter = new RateLimiter(options.rateLimit ?? 60);
  let maintenance = false;
  let stats: RequestStats = { total: 0, received: 0, byInterface: {}, byStatus: {} };

  const save = () => {
    if (!options.dataFile) return;
    mkdirSync(dirname(options.dataFile), { recursive: true });
    const tmp = `${options.dataFile}.tmp`;
    const data: DataFile = { ...store.state, random: store.random.state() };
    writeFileSync(tmp, JSON.stringify(data));
    renameSync(tmp, options.dataFile);
  };
  let saveQueued = false;
  const watch = (s: Store) =>
    s.onChange(() => {
      if (saveQueued || !options.dataFile) return;
      saveQueued = true;
      setImmediate(() => {
        saveQueued = false;
        save();
      });
    });
  watch(store);

  const app = Fastify({
    bodyLimit: 1024 * 1024,
    logger: false,
    return503OnClosing: true,
    forceCloseConnections: true,
  });
  // Only JSON, form and multipart bodies are understood; anything else is a clear 415.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (e) {
      done(new ApiError(400, `The request body is not valid JSON: ${(e as Error).message}`), undefined);
    }
  });
  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 20 } });

  app.addHook('onRequest', async (req, reply) => {
    const iface = ifaceOf(req.url);
    if (iface !== 'v2' && iface !== 'v0') return;
    stats.received++;
    if (maintenance) {
      return reply
        .code(503)
        .header('retry-after', '30')
        .send(errorBody(iface, 503, 'The platform is offline for maintenance. Try again later.', {}));
    }
    const fault = faults.draw(req.method, req.url.split('?')[0] as string);
    if (fault) {
      req.fault = fault;
      const retryAfter = String(faults.settings.retryAfter);
      if (fault === 'drop-before') {
        req.raw.socket.destroy();
        return reply.hijack();
      }
      if (fault === 'server-error')
        return reply.code(500).send(errorBody(iface, 500, 'Injected server error.', {}));
      if (fault === 'unavailable')
        return reply
          .code(503)
          .header('retry-after', retryAfter)
          .send(errorBody(iface, 503, 'Injected: temporarily unavailable.', {}));
      if (fault === 'rate-limited')
        return reply
          .code(429)
          .header('retry-after', retryAfter)
          .send(errorBody(iface, 429, 'Too many requests (injected).', {}));
      if (fault === 'latency') await sleep(faults.settings.latencyMs);
    }
    if (options.latency) await sleep(options.latency);
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const verdict = token ? oauth.verify(token) : { error: 'missing' as const };
    if ('error' in verdict) {
      const message =
        verdict.error === 'expired'
          ? 'The access token has expired.'
          : verdict.error === 'missing'
            ? 'A bearer token is required.'
            : 'The access token is invalid.';
      // RFC 6750 §3.1: no error code when the request carried no credentials at all.
      const challenge =
        verdict.error === 'missing'
          ? 'Bearer'
          : `Bearer error="invalid_token", error_description="${message}"`;
      return reply
        .code(401)
        .header('www-authenticate', challenge)
        .send(errorBody(iface, 401, message, {}));
    }
    const user = store.userById(verdict.userId);
    if (!user) return reply.code(401).send(errorBody(iface, 401, 'The access token is invalid.', {}));
    req.user = user;
    const taken = limiter.take(`${iface}:${token}`);
    if (!taken.allowed) {
      return reply
        .code(429)
        .header('retry-after', String(taken.retryAfter))
        .header('x-ratelimit-limit', String(limiter.perMinute))
        .header('x-ratelimit-remaining', '0')
        .send(
          errorBody(
            iface,
            429,
            `Request limit of ${limiter.perMinute} per minute reached. Retry after ${taken.retryAfter} s.`,
            {},
          ),
        );
    }
    if (limiter.perMinute > 0)
      reply
        .header('x-ratelimit-limit', String(limiter.perMinute))
        .header('x-ratelimit-remaining', String(taken.remaining));
  });

  /**
   * Counts a request, saves the change it committed and logs it, once: when its response is sent,
   * or when a drop-after fault closes the connection instead (Fastify then skips onResponse).
   */
  const settle = (req: FastifyRequest, status: number) => {
    const iface = ifaceOf(req.url);
    if (iface === 'control' || req.settled) return;
    req.settled = true;
    stats.total++;
    stats.byInterface[iface] = (stats.byInterface[iface] ?? 0) + 1;
    stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
    if (req.method !== 'GET' && status < 400 && (iface === 'v2' || iface === 'v0')) store.changed();
    if (options.logFile) {
      const line = {
        time: new Date().toISOString(),
        interface: iface,
        method: req.method,
        route: req.routeOptions.url ?? null,
        status,
        ...(req.fault ? { fault: req.fault } : {}),
      };
      appendFileSync(options.logFile, JSON.stringify(line) + '\n');
    }
  };

  app.addHook('onSend', async (req, reply, payload) => {
    // Before the answer leaves, so that no later request reads an order kept from before it.
    if (req.method !== 'GET') store.written();
    if (req.fault === 'drop-after' && reply.statusCode < 400) {
      // The handler has committed its change; the client never learns the outcome.
      settle(req, reply.statusCode);
      req.raw.socket.destroy();
    }
    return payload;
  });

  app.addHook('onResponse', async (req, reply) => settle(req, reply.statusCode));

  app.setNotFoundHandler((req, reply) => {
    const iface = ifaceOf(req.url);
    return reply
      .code(404)
      .send(errorBody(iface, 404, `No resource at ${req.method} ${req.url.split('?')[0]}.`, {}));
  });

  app.setErrorHandler((err: FastifyError | ApiError, req: FastifyRequest, reply: FastifyReply) => {
    const iface = ifaceOf(req.url);
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      return reply.code(err.status).send(errorBody(iface, err.status, err.message, err.fields));
    }
    const status =
      typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500
        ? err.statusCode
        : 500;
    const message =
      status === 413
        ? 'The request body is too large (at most 1 MB of JSON or 10 MB per uploaded file).'
        : status === 415
          ? `Unsupported content type ${req.headers['content-type'] ?? ''}; send JSON, form data or multipart.`
          : status === 500
            ? 'The server met an unexpected problem.'
            : err.message;
    if (status === 500) console.error(err);
    return reply.code(status).send(errorBody(iface, status, message, {}));
  });

  oauth.register(app);
  const current = () => store;
  registerFormPages(app, current);
  const v2 = new Router(app, current, '/api/v2');
  const v0 = new Router(app, current, '/api/v0');
  registerV2(v2);
  registerV0(v0);
  v2.closeMethods();
  v0.closeMethods();

  const control: Control = {
    setFaults: (s) => {
      faults.settings = { ...faults.settings, ...s, queue: [...(s.queue ?? faults.settings.queue)] };
      return faults.settings;
    },
    faults: () => faults.settings,
    expireTokens: () => void oauth.expireAccessTokens(),
    revokeTokens: () => oauth.revokeAll(),
    maintenance: (on) => void (maintenance = on),
    reset: (s, n) => {
      store = new Store(fresh(s ?? seed, n ?? accounts), clock, createRandom((s ?? seed) ^ 0x5eed));
      watch(store);
      limiter.reset();
      store.changed();
    },
    dump: () => {
      for (const a of store.state.accounts) store.sections(a);
      return store.state;
    },
    token: (email) => {
      const user = store.state.users.find((u) => u.email === email);
      if (!user) throw new ApiError(404, `No sandbox user ${email}.`);
      return oauth.issue(user.id);
    },
    setRateLimit: (n) => {
      limiter.perMinute = n;
      limiter.reset();
    },
    stats: () => stats,
    resetStats: () => void (stats = { total: 0, received: 0, byInterface: {}, byStatus: {} }),
    store: () => store,
  };
  registerControl(app, control);

  const address = await app.listen({ port: options.port ?? 4010, host: options.host ?? '127.0.0.1' });
  return {
    url: address.replace('[::1]', '127.0.0.1'),
    control,
    close: async () => {
      await app.close();
      if (saveQueued) save();
    },
  };
}
