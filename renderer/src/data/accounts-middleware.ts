// A DBCore middleware over the accounts table alone: every other table passes through untouched.
// account-index/ keeps the list index in step with one (db.ts uses it).

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
