// Values the advisor confirmed as right although they look implausible (a date of birth in 1800:
// the warnings of shared/input-checks.ts). Kept on this computer, in the identity's store, one
// meta row per household (`confirmed:<account id>`), by record and field
// (`details:client.birth_date`, `sectionItems:<item id>.birth_date`), with the value confirmed: a
// confirmation survives a reload and a restart, lapses when the value changes (from here or from
// the platform), and goes with the store when this computer's copy is removed. The platform has
// no place for it, so another computer asks again.

import type { AdvisorDb } from './db.ts';

/** `record.field` → the stored value confirmed, as JSON. */
export type Confirmations = Readonly<Record<string, string>>;

export const confirmationsKey = (accountId: string): string => `confirmed:${accountId}`;

const asJson = (value: unknown): string => JSON.stringify(value ?? null);

export async function readConfirmations(db: AdvisorDb, accountId: string): Promise<Confirmations> {
  const value = (await db.meta.get(confirmationsKey(accountId)))?.value;
  return typeof value === 'object' && value !== null ? (value as Confirmations) : {};
}

/** Whether this stored value of a record's field is the one the advisor confirmed. */
export const isConfirmed = (
  confirmations: Confirmations,
  record: string,
  field: string,
  value: unknown,
): boolean => confirmations[`${record}.${field}`] === asJson(value);

/** Remembers the values of a record's fields as confirmed (`values`: by field, as stored). */
export async function confirmValues(
  db: AdvisorDb,
  accountId: string,
  record: string,
  values: Readonly<Record<string, unknown>>,
): Promise<void> {
  if (Object.keys(values).length === 0) return;
  const key = confirmationsKey(accountId);
  await db.transaction('rw', db.meta, async () => {
    const next: Record<string, string> = { ...(await readConfirmations(db, accountId)) };
    for (const [field, value] of Object.entries(values)) next[`${record}.${field}`] = asJson(value);
    await db.meta.put({ key, value: next });
  });
}
