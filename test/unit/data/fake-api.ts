// A scripted stand-in for the platform behind the `Send` port: enough of both interfaces for the
// push engine's rules (accounts, section collections, single records), and a hook per test to
// answer a request otherwise (a failure, a 404 …).

import type { ApiFailure, ApiRequest, ApiResult } from '@shared/api/request.ts';
import { unflatten } from '../../../renderer/src/data/view.ts';

/** An answer now, one given later (a request still under way), or none (the default behaviour). */
type Answer = ApiResult | Promise<ApiResult> | undefined;

export const failure = (
  kind: ApiFailure['kind'],
  status: number | null,
  extra: Partial<ApiFailure> = {},
): ApiFailure => ({
  ok: false,
  kind,
  status,
  message: `${kind} (${status})`,
  fields: {},
  retryAfterMs: null,
  ...extra,
});

const ok = (data: unknown, status = 200): ApiResult => ({ ok: true, status, data });

export class FakeApi {
  /** Every request about records; the push's confirmations of the current team are `teamChecks`. */
  readonly requests: ApiRequest[] = [];
  /** How often the platform's current team was asked (GET v2 /user). */
  teamChecks = 0;
  /** Answers tried before the default behaviour; the first that answers wins. */
  readonly overrides: ((req: ApiRequest) => Answer)[] = [];
  readonly accounts = new Map<number, Record<string, unknown>>();
  readonly collections = new Map<string, Record<string, unknown>[]>();
  readonly singles = new Map<string, Record<string, unknown>>();
  /** The user's current team (GET /user): the sandbox's first, as the test stores record. */
  team = 1;
  private nextId = 100;

  send = (req: ApiRequest): Promise<ApiResult> => {
    // The current team is always answered: the faults a test scripts are about records.
    if (req.api === 'v2' && req.path === '/user') {
      this.teamChecks++;
      return Promise.resolve(this.user());
    }
    this.requests.push(req);
    for (const override of this.overrides) {
      const answer = override(req);
      if (answer) return Promise.resolve(answer);
    }
    return Promise.resolve(this.answer(req));
  };

  /** `METHOD path` of every request so far. */
  get lines(): string[] {
    return this.requests.map((r) => `${r.method} ${r.path}`);
  }

  private answer(req: ApiRequest): ApiResult {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const parts = req.path.split('/').filter(Boolean);
    if (req.api === 'v2') return this.account(req.method, parts, body);
    const key = parts.slice(0, -1).join('/');
    const items = this.collections.get(req.path);
    if (req.method === 'GET') return ok(items ?? this.singles.get(req.path) ?? {});
    if (req.method === 'POST' && (req.path.endsWith('expenses-fixed') || req.path.endsWith('income')))
      return ok(this.merge(this.singles, req.path, body), 201);
    if (req.method === 'PUT' && req.path.endsWith('details'))
      return ok(this.merge(this.singles, req.path, body));
    if (req.method === 'POST') {
      const item = { id: `acc|${this.nextId++}`, ...body };
      this.collections.set(req.path, [...(items ?? []), item]);
      return ok(item, 201);
    }
    const list = this.collections.get(`/${key}`) ?? [];
    const index = list.findIndex((i) => i.id === decodeURIComponent(parts.at(-1) ?? ''));
    if (index < 0) return failure('not-found', 404);
    if (req.method === 'DELETE') {
      list.splice(index, 1);
      return ok(null, 204);
    }
    const { id: _id, ...merged } = { ...list[index], ...body };
    list[index] = { id: list[index]?.id, ...merged };
    return ok(merged);
  }

  private merge(map: Map<string, Record<string, unknown>>, path: string, body: Record<string, unknown>) {
    const merged = { ...map.get(path), ...body };
    map.set(path, merged);
    return merged;
  }

  private user(): ApiResult {
    return ok({ first_name: 'Ann', last_name: 'Tester', team: { id: this.team, name: `Team ${this.team}` } });
  }

  private account(method: string, parts: string[], body: Record<string, unknown>): ApiResult {
    if (method === 'GET' && parts[1] === undefined) return ok({ items: [...this.accounts.values()] });
    const id = parts[1] === undefined ? this.nextId++ : Number(parts[1]);
    const stored = this.accounts.get(id);
    if (method === 'GET') return stored ? ok(stored) : failure('not-found', 404);
    if (method === 'POST' && parts[1] !== undefined && !stored) return failure('not-found', 404);
    const nested = unflatten(body) as { client?: object; coclient?: object };
    const account = {
      ...stored,
      ...nested,
      id,
      client: { ...(stored?.client as object), ...nested.client, id: id * 10 },
      coclient: { ...(stored?.coclient as object), ...nested.coclient },
    };
    this.accounts.set(id, account);
    return ok(account);
  }
}
