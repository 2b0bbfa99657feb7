// The preview host's settings store: a JSON file, written whole and atomically, the user's alone
// (0600 in a 0700 folder, private-files.ts).

import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { privateFile, privateFolder } from '../main/private-files.ts';
import type { KeyValueStore } from '../main/settings/settings-service.ts';

export class JsonFileStore implements KeyValueStore {
  private data: Record<string, unknown>;

  constructor(private readonly file: string) {
    this.data = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
    privateFile(file);
  }

  get(key: string): unknown {
    return this.data[key];
  }

  set(key: string, value: unknown): void {
    this.data[key] = value;
    privateFolder(dirname(this.file));
    writeFileSync(`${this.file}.tmp`, JSON.stringify(this.data, null, 2), { mode: 0o600 });
    privateFile(`${this.file}.tmp`);
    renameSync(`${this.file}.tmp`, this.file);
  }
}
