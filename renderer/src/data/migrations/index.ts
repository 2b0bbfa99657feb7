// The versions of the local store's schema, in order: each names the tables it adds or changes
// (Dexie keeps the others as they are) and the upgrade that rewrites rows already there. A
// migration never drops the outbox: unsent changes survive every schema change. A new version is
// a file of its own here and a line of MIGRATIONS.

import type { Dexie, Transaction } from 'dexie';
import { STORES_V1 } from './v1-records.ts';
import { STORES_V2 } from './v2-read-only.ts';
import { STORES_V3, moveConfigOutOfMeta } from './v3-config-tables.ts';
import { STORES_V4, writeAccountOrder } from './v4-account-order.ts';
import { STORES_V5, forgetStoredPins } from './v5-no-stored-pins.ts';
import { STORES_V6 } from './v6-journal.ts';
import { STORES_V7, writeSearchTerms } from './v7-search-terms.ts';
import { STORES_V8, dropAccountOrder } from './v8-index-in-memory.ts';
import { STORES_V9 } from './v9-engagements-in-memory.ts';

export { STORES_V1, STORES_V2, STORES_V3, STORES_V4, STORES_V5, STORES_V6, STORES_V7, STORES_V8, STORES_V9 };

export interface Migration {
  version: number;
  /** Tables added or changed, with their indexes (Dexie's `stores`). */
  stores: Readonly<Record<string, string>>;
  /** Rewrites the rows of earlier versions, inside the upgrade transaction. */
  upgrade?: (tx: Transaction) => Promise<void>;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, stores: STORES_V1 },
  { version: 2, stores: STORES_V2 },
  { version: 3, stores: STORES_V3, upgrade: moveConfigOutOfMeta },
  { version: 4, stores: STORES_V4, upgrade: writeAccountOrder },
  { version: 5, stores: STORES_V5, upgrade: forgetStoredPins },
  { version: 6, stores: STORES_V6 },
  { version: 7, stores: STORES_V7, upgrade: writeSearchTerms },
  { version: 8, stores: STORES_V8, upgrade: dropAccountOrder },
  { version: 9, stores: STORES_V9 },
];

/** Declares every version on `db`, as its constructor must before it opens. */
export function declareVersions(db: Dexie): void {
  for (const { version, stores, upgrade } of MIGRATIONS) {
    const declared = db.version(version).stores(stores);
    if (upgrade) declared.upgrade(upgrade);
  }
}
