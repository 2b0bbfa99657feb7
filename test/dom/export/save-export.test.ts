// saveExport, the window's way to save a finished file (a PDF, a zip), through the real export
// service into a temporary folder: chunked, with progress, and nothing left when aborted.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExportService } from '../../../electron/main/exports/export-service.ts';
import { saveExport, type ExportApi } from '../../../renderer/src/common/save-export.ts';

let dir: string;
let service: ExportService;
let chunks: number[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'save-export-'));
  service = new ExportService((name) => Promise.resolve(join(dir, name)));
  chunks = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const api = (): ExportApi => ({
  begin: (name) => service.begin(name),
  write: (id, chunk) => {
    chunks.push(chunk.length);
    return service.write(id, chunk);
  },
  finish: (id) => service.finish(id),
  cancel: (id) => service.cancel(id),
});

describe('saveExport', () => {
  it('writes a large file in chunks, reporting the bytes written after each', async () => {
    const bytes = new Uint8Array(5 * 1024 * 1024 + 17).map((_, i) => i % 251);
    const progress: [number, number][] = [];
    const name = 'Smith household – financial summary – 2026-11-25.pdf';
    const saved = await saveExport(api(), name, new Blob([bytes]), {
      onProgress: (written, total) => progress.push([written, total]),
    });
    expect(saved).toEqual({ ok: true, path: join(dir, name), name, bytes: bytes.length });
    expect(readFileSync(join(dir, name)).equals(Buffer.from(bytes))).toBe(true);
    expect(chunks.length).toBeGreaterThan(1);
    expect(progress.length).toBe(6);
    expect(progress.at(-1)).toEqual([bytes.length, bytes.length]);
  });

  it('leaves nothing when aborted, and says cancelled', async () => {
    const stop = new AbortController();
    const saved = await saveExport(api(), 'data.zip', new Uint8Array(3 * 1024 * 1024), {
      signal: stop.signal,
      onProgress: () => stop.abort(),
    });
    expect(saved).toEqual({ ok: false, cancelled: true });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('passes on why a file could not be saved', async () => {
    service = new ExportService(() => Promise.resolve(join(dir, 'missing', '\0bad', 'x.pdf')));
    const saved = await saveExport(api(), 'x.pdf', new Uint8Array(10));
    expect(saved).toMatchObject({ ok: false, cancelled: false });
    expect(readdirSync(dir)).toEqual([]);
  });
});
