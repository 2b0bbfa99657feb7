// The diagnostics log service over its real file (electron-log, in a temporary folder): the save
// writes the recent log whole or not at all, the file stays bounded with one older file kept, and
// only the schema's fields of a report are ever written.

import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatch, InvalidBridgeCall } from '../../../electron/main/bridge/handlers.ts';
import { DiagnosticsLog, type LogFile } from '../../../electron/main/diagnostics/diagnostics-log.ts';
import { electronLogFile } from '../../../electron/main/diagnostics/log-file.ts';
import type { DiagnosticsEntry } from '@shared/bridge-schema.ts';
import { failedConfigPull, reportHandlers } from './entries.ts';

const folder = () => mkdtempSync(join(tmpdir(), 'diagnostics-'));
const TODAY = () => new Date('2026-11-26T10:00:00Z');

const PUSH: DiagnosticsEntry = {
  type: 'push',
  requests: 3,
  synced: 2,
  adopted: 0,
  retried: 1,
  rejected: 0,
  conflicts: 0,
  remaining: 1,
  needsSignIn: false,
};

function withLog(maxBytes?: number) {
  const dir = folder();
  const file = electronLogFile(join(dir, 'logs', 'diagnostics.log'), maxBytes);
  const chosen: string[] = [];
  let target: string | null = join(dir, 'saved', 'diagnostics.log');
  const log = new DiagnosticsLog(
    file,
    (name) => {
      chosen.push(name);
      return Promise.resolve(target);
    },
    TODAY,
  );
  return { dir, file, log, chosen, cancel: () => (target = null), target: () => target as string };
}

const leftovers = (dir: string) => readdirSync(dir).filter((name) => name.includes('.part-'));

describe('saving the diagnostics', () => {
  it('writes the recent log to the chosen file, suggesting a dated name', async () => {
    const { log, file, chosen, target } = withLog();
    await log.report(PUSH);
    log.transportFailed({
      api: 'v2',
      method: 'GET',
      route: '/accounts/{id}',
      kind: 'server',
      status: 500,
      durationMs: 12.4,
      retryAfterMs: 10_000,
    });
    const result = await log.save();
    expect(result).toEqual({ ok: true, path: target() });
    // Named as the app's exports are (issue 23: file names came in two styles).
    expect(chosen).toEqual(['Advisor Desk – diagnostics – 2026-11-26.log']);
    const saved = readFileSync(target(), 'utf8');
    expect(saved).toBe(await file.recent());
    expect(saved).toMatch(/ info push \{"requests":3,"synced":2,.*"needsSignIn":false\}\n/);
    expect(saved).toMatch(
      / warn request-failed \{"api":"v2","method":"GET","route":"\/accounts\/\{id\}","kind":"server","status":500,"ms":12,"retryAfterMs":10000\}\n/,
    );
    expect(leftovers(join(target(), '..'))).toEqual([]);
  });

  it('includes the older file the log rotated out, oldest first', async () => {
    const { log, file, target } = withLog(400);
    for (let i = 0; i < 12; i++) await log.report({ ...PUSH, requests: i + 1 });
    expect(readdirSync(join(target(), '../../logs')).sort()).toEqual([
      'diagnostics.log',
      'diagnostics.old.log',
    ]);
    await log.save();
    const requests = [...readFileSync(target(), 'utf8').matchAll(/"requests":(\d+)/g)].map((m) =>
      Number(m[1]),
    );
    expect(requests.length).toBeGreaterThan(1);
    expect(requests).toEqual([...requests].sort((a, b) => a - b));
    expect(requests.at(-1)).toBe(12);
    expect(await file.recent()).toBe(readFileSync(target(), 'utf8'));
  });

  it('writes nothing when the user cancels the dialog', async () => {
    const { log, cancel, dir } = withLog();
    cancel();
    expect(await log.save()).toEqual({ ok: false, cancelled: true });
    expect(existsSync(join(dir, 'saved'))).toBe(false);
  });

  it('replaces a file only once the whole log is written: a failure leaves it as it was and no partial file', async () => {
    const dir = folder();
    const target = join(dir, 'diagnostics.log');
    writeFileSync(target, 'an earlier save\n');
    const unreadable: LogFile = {
      append: () => undefined,
      recent: () => Promise.reject(Object.assign(new Error('EACCES'), { code: 'EACCES' })),
    };
    const log = new DiagnosticsLog(unreadable, () => Promise.resolve(target), TODAY);
    const result = await log.save();
    expect(result).toEqual({
      ok: false,
      cancelled: false,
      message: `The diagnostics could not be saved in ${dir}: Advisor Desk may not write there. Choose another folder, then try again.`,
    });
    expect(readFileSync(target, 'utf8')).toBe('an earlier save\n');
    expect(leftovers(dir)).toEqual([]);
  });

  it('says why when the folder cannot be made', async () => {
    const { log, dir } = withLog();
    writeFileSync(join(dir, 'saved'), 'a file where the folder should be');
    const result = await log.save();
    expect(result.ok).toBe(false);
    expect(!result.ok && !result.cancelled && result.message).toContain(
      'part of the path is a file, not a folder',
    );
  });
});

describe('the log file', () => {
  it('stays bounded: past its size it starts anew and keeps exactly one older file', async () => {
    const { log, dir } = withLog(1000);
    for (let i = 0; i < 200; i++) await log.report({ ...PUSH, requests: i + 1 });
    const logs = join(dir, 'logs');
    expect(readdirSync(logs).sort()).toEqual(['diagnostics.log', 'diagnostics.old.log']);
    for (const name of readdirSync(logs)) expect(statSync(join(logs, name)).size).toBeLessThan(1200);
  });

  it('writes only the schema fields of a report: one with anything more is dropped whole', async () => {
    const { log, file } = withLog();
    await log.report({ ...PUSH, note: 'Jane Doe' } as unknown as DiagnosticsEntry);
    await log.report({
      type: 'change',
      outcome: 'rejected',
      table: 'accounts',
      opId: 'Jane Doe',
      recordId: 'jane@example.com',
    });
    expect(await file.recent()).toBe('');
  });
});

describe('the bridge channel', () => {
  it('refuses a report with free text before the handler runs', async () => {
    const calls: unknown[] = [];
    const handlers = reportHandlers(calls);
    const bad: unknown[] = [
      { ...PUSH, message: 'The email jane@example.com is taken' },
      {
        type: 'pull',
        pull: 'account',
        accountId: 'Jane Doe',
        durationMs: 1,
        requests: 1,
        records: 1,
        written: 1,
        removed: 0,
        flagged: 0,
        skipped: false,
        failures: [],
      },
      failedConfigPull('/accounts/jane.doe@example.com'),
      {
        type: 'change',
        outcome: 'retry',
        table: 'accounts',
        opId: 'a1',
        recordId: 'b2',
        failure: { kind: 'server', status: 500, message: 'Jane' },
      },
    ];
    for (const entry of bad)
      await expect(dispatch(handlers, 'diagnostics.report', [entry])).rejects.toBeInstanceOf(
        InvalidBridgeCall,
      );
    expect(calls).toEqual([]);
    await dispatch(handlers, 'diagnostics.report', [PUSH]);
    expect(calls).toEqual([PUSH]);
  });
});
