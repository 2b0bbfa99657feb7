// The diagnostics log: what support needs to follow a sync on an advisor's computer (start-up
// facts, transport failures, the sync's pull and push reports) and nothing a client could be
// recognised by. Every entry is built here from named fields of ids, counts, kinds, statuses and
// durations; the file it goes to (and its rotation) is behind the `LogFile` port.

import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { arch, release, type } from 'node:os';
import { dirname } from 'node:path';
import { diagnosticsEntrySchema, type DiagnosticsEntry } from '@shared/bridge-schema.ts';
import type { SaveDiagnosticsResult } from '@shared/bridge.ts';
import { namedFile } from '@shared/export/file-name.ts';
import { diskReason, type ChooseSavePath } from '../files/file-service.ts';
import type { TransportFailureEvent } from '../transport/transport.ts';
import type { UpdateCheck } from '../updates/update-service.ts';

/** Where the lines go: a size-bounded file that keeps one older file beside it. */
export interface LogFile {
  append(level: 'info' | 'warn', line: string): void;
  /** The recent log, oldest first: the older file (if any), then the current one. */
  recent(): Promise<string>;
}

/** Facts about this installation, logged once at start. */
export interface StartupFacts {
  appVersion: string;
  /** Null in the browser preview. */
  electron: string | null;
  chrome: string | null;
  node: string;
  os: string;
  /** Origins of the platform's two interfaces (scheme, host and port: no path, no credentials). */
  platform: { v2: string | null; v0: string | null };
}

type Value = string | number | boolean | null;

/** The origins of the profile's two interfaces: scheme, host and port, never a path or credentials. */
export function platformOrigins(profile: {
  v2: { baseUrl: string };
  v0: { baseUrl: string };
}): StartupFacts['platform'] {
  const origin = (address: string) => {
    try {
      const url = new URL(address);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
    } catch {
      return null;
    }
  };
  return { v2: origin(profile.v2.baseUrl), v0: origin(profile.v0.baseUrl) };
}

/** The start-up facts of this process, with what only the host knows (app and Electron versions). */
export function startupFacts(
  host: Pick<StartupFacts, 'appVersion' | 'electron' | 'chrome'>,
  profile: Parameters<typeof platformOrigins>[0],
): StartupFacts {
  return {
    ...host,
    node: process.versions.node,
    os: `${type()} ${release()} ${arch()}`,
    platform: platformOrigins(profile),
  };
}

export class DiagnosticsLog {
  constructor(
    private readonly file: LogFile,
    private readonly chooseSavePath: ChooseSavePath,
    private readonly today: () => Date = () => new Date(),
  ) {}

  started(facts: StartupFacts): void {
    this.write('info', 'start', {
      app: facts.appVersion,
      electron: facts.electron,
      chrome: facts.chrome,
      node: facts.node,
      os: facts.os,
      platformV2: facts.platform.v2,
      platformV0: facts.platform.v0,
    });
  }

  /** The connection profile changed: the platform's origins now. */
  platformChanged(platform: StartupFacts['platform']): void {
    this.write('info', 'platform', { v2: platform.v2, v0: platform.v0 });
  }

  /** An update check: off, refused (an address that is not https), checked, or failed; the feed by its origin. */
  updateChecked(check: UpdateCheck): void {
    const feed = 'feedUrl' in check ? new URL(check.feedUrl).origin : null;
    const level = check.state === 'refused' || check.state === 'failed' ? 'warn' : 'info';
    this.write(level, 'update', {
      state: check.state,
      feed,
      reason: check.state === 'refused' ? check.reason : null,
      message: check.state === 'failed' ? check.message.slice(0, 200) : null,
    });
  }

  transportFailed(event: TransportFailureEvent): void {
    this.write('warn', 'request-failed', {
      api: event.api,
      method: event.method,
      route: event.route,
      kind: event.kind,
      status: event.status,
      ms: Math.round(event.durationMs),
      retryAfterMs: event.retryAfterMs,
    });
  }

  /**
   * A report of the renderer's sync. Checked against the schema again (the Bridge has already):
   * whoever calls, only the schema's fields of ids, counts, kinds and statuses are written.
   */
  report(entry: DiagnosticsEntry): Promise<void> {
    const parsed = diagnosticsEntrySchema.safeParse(entry);
    if (!parsed.success) return Promise.resolve();
    const { type, ...fields } = parsed.data;
    const failed =
      type === 'change'
        ? parsed.data.failure !== undefined
        : type === 'pull' && parsed.data.failures.length > 0;
    this.write(failed ? 'warn' : 'info', type, flatten(fields));
    return Promise.resolve();
  }

  /** Writes the recent log where the user chooses, whole or not at all (a temporary file renamed into place). */
  async save(): Promise<SaveDiagnosticsResult> {
    const day = this.today().toISOString().slice(0, 10);
    // Named as the app's exports are.
    const target = await this.chooseSavePath(namedFile(['Advisor Desk', 'diagnostics', day], 'log'));
    if (target === null) return { ok: false, cancelled: true };
    const partial = `${target}.part-${randomUUID()}`;
    try {
      const content = await this.file.recent();
      await mkdir(dirname(target), { recursive: true });
      await writeFile(partial, content, { flag: 'wx', mode: 0o600 });
      await rename(partial, target);
      return { ok: true, path: target };
    } catch (error) {
      await rm(partial, { force: true }).catch(() => undefined);
      return {
        ok: false,
        cancelled: false,
        message: `The diagnostics could not be saved in ${dirname(target)}: ${diskReason(error)}. Choose another folder, then try again.`,
      };
    }
  }

  private write(level: 'info' | 'warn', event: string, fields: Record<string, Value>): void {
    try {
      this.file.append(level, `${event} ${JSON.stringify(fields)}`);
    } catch {
      // A log that cannot be written must never stop the app.
    }
  }
}

/** Nested failures as text (`kind status route, …`; left out when none), so every line stays one flat object. */
function flatten(fields: Record<string, unknown>): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (Array.isArray(value)) {
      if (value.length > 0)
        out[key] = value
          .map(
            (f: { kind: string; status: number | null; route: string }) =>
              `${f.kind} ${f.status ?? '-'} ${f.route}`,
          )
          .join(', ');
    } else if (typeof value === 'object' && value !== null) {
      const failure = value as { kind: string; status: number | null };
      out[key] = `${failure.kind} ${failure.status ?? '-'}`;
    } else out[key] = value as Value;
  }
  return out;
}
