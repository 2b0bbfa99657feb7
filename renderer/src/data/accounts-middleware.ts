// A DBCore middleware over the accounts table alone: every other table passes through untouched.
// db.ts derives the `order` column with one, account-index/ keeps the list index in step with another.

import type { DBCore, DBCoreMutateRequest, DBCoreMutateResponse, DBCoreTable, Middleware } from 'dexie';

export function accountsMiddleware(
  name: string,
  mutate: (down: DBCoreTable, req: DBCoreMutateRequest) => Promise<DBCoreMutateResponse>,
): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name,
    create: (down: DBCore): DBCore => ({
      ...down,
      table: (tableName) => {
        const table = down.table(tableName);
        if (tableName !== 'accounts') return table;
        return { ...table, mutate: (req: DBCoreMutateRequest) => mutate(table, req) };
      },
    }),
  };
}
