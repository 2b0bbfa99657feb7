// Route registration shared by both interfaces: authenticated handlers with a small context, and
// 405 for a known path asked with a method it does not have.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';
import type { UserRecord } from './model.ts';
import type { Store } from './store.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Interface = 'v2' | 'v0';

export interface Context {
  req: FastifyRequest;
  reply: FastifyReply;
  user: UserRecord;
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  store: Store;
  /** Absolute base of each interface as this request reached it (for urls in bodies). */
  base: { v2: string; v0: string };
}

export type Handler = (ctx: Context) => unknown;

declare module 'fastify' {
  interface FastifyRequest {
    user?: UserRecord;
  }
}

export class Router {
  private methods = new Map<string, Set<Method>>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly store: () => Store,
    readonly prefix: string,
  ) {}

  route(method: Method, path: string, handler: Handler): void {
    const url = this.prefix + path;
    const known = this.methods.get(url) ?? new Set<Method>();
    known.add(method);
    this.methods.set(url, known);
    this.app.route({
      method,
      url,
      handler: async (req, reply) => {
        const origin = `${req.protocol}://${req.host}`;
        const ctx: Context = {
          req,
          reply,
          user: req.user as UserRecord,
          store: this.store(),
          params: (req.params ?? {}) as Record<string, string>,
          query: flatQuery(req.query),
          body: req.body,
          base: { v2: `${origin}/api/v2`, v0: `${origin}/api/v0` },
        };
        const result = await handler(ctx);
        if (reply.sent) return reply;
        if (result === undefined) return reply.code(204).send();
        return reply.send(result);
      },
    });
  }

  get = (path: string, h: Handler) => this.route('GET', path, h);
  post = (path: string, h: Handler) => this.route('POST', path, h);
  put = (path: string, h: Handler) => this.route('PUT', path, h);
  delete = (path: string, h: Handler) => this.route('DELETE', path, h);

  /** After every route is in: the other methods of each known path answer 405 with Allow. */
  closeMethods(): void {
    for (const [url, known] of this.methods) {
      const allow = [...known].join(', ');
      const others = (['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const).filter(
        (m) => !known.has(m as Method),
      );
      this.app.route({
        method: others,
        url,
        handler: () => {
          throw new ApiError(
            405,
            `The ${url.replace(this.prefix, '')} path does not accept this method; use ${allow}.`,
            {},
            { allow },
          );
        },
      });
    }
  }
}

/** The last value of each query parameter; no prototype, so no parameter name reads as inherited. */
function flatQuery(query: unknown): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [k, v] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (typeof v === 'string') out[k] = v;
    else if (Array.isArray(v) && typeof v[0] === 'string') out[k] = v[v.length - 1] as string;
  }
  return out;
}
