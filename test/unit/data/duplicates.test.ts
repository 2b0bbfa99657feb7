// Finding the accounts a household being typed may already be: the same email in either member
// (case and spaces ignored), or the same name with the same date of birth; a name with another
// date of birth is another person; the account being edited is not its own duplicate; an archived
// account still counts, one gone from the server does not.

import { describe, expect, it } from 'vitest';
import { createRecord } from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import type { Fields } from '../../../renderer/src/data/model.ts';
import { findDuplicates, type TypedMember } from '../../../renderer/src/data/queries/index.ts';
import { openDb, syncedAccount, syncedSingle } from '../../support/store.ts';

let nextServerId = 500;

/** The Bay household: Ada Bay, and her co-client Ivo North. */
const BAY: Fields = {
  type: 'CLIENT',
  'client.first_name': 'Ada',
  'client.last_name': 'Bay',
  'client.email': 'ada.bay@example.com',
  'coclient.first_name': 'Ivo',
  'coclient.last_name': 'North',
  'coclient.email': 'Ivo.North@Example.com',
};

const household = (db: AdvisorDb, fields: Fields = BAY) => syncedAccount(db, nextServerId++, fields);

const person = (first: string, last: string, email = '', birth_date: string | null = null): TypedMember => ({
  first_name: first,
  last_name: last,
  email,
  birth_date,
});

/** What was found, in words: `typed → account's member (email|name|name+birth)`. */
async function found(
  db: AdvisorDb,
  members: Partial<Record<'client' | 'coclient', TypedMember>>,
  exclude?: string,
) {
  const all = await findDuplicates(db, { members, exclude });
  return all.map(
    (d) =>
      `${d.typed} → ${String(d.account.fields['client.last_name'])} ${d.member} (${[
        d.email && 'email',
        d.name && (d.sameBirthDate ? 'name+birth' : 'name'),
      ]
        .filter(Boolean)
        .join(', ')})`,
  );
}

describe('accounts a new household may duplicate', () => {
  it('finds the same email in the client and in the co-client of an account', async () => {
    const db = openDb();
    await household(db);
    expect(await found(db, { client: person('Nora', 'Quist', 'ada.bay@example.com') })).toEqual([
      'client → Bay client (email)',
    ]);
    // The defect: a new prospect with the name and email of an existing co-client.
    expect(await found(db, { client: person('Ivo', 'North', 'ivo.north@example.com') })).toEqual([
      'client → Bay coclient (email, name)',
    ]);
    // Typed as the new account's co-client, it is found the same.
    expect(
      await found(db, {
        client: person('Nora', 'Quist', 'nora@example.com'),
        coclient: person('Omar', 'Quist', 'ada.bay@example.com'),
      }),
    ).toEqual(['coclient → Bay client (email)']);
  });

  it('ignores case and surrounding spaces in emails and names', async () => {
    const db = openDb();
    await household(db);
    expect(await found(db, { client: person('x', 'y', '  IVO.north@EXAMPLE.com ') })).toEqual([
      'client → Bay coclient (email)',
    ]);
    expect(await found(db, { client: person(' ada ', 'BAY  ') })).toEqual(['client → Bay client (name)']);
  });

  it('finds nothing for another email, half a name, or nothing typed', async () => {
    const db = openDb();
    await household(db);
    expect(await found(db, { client: person('Ada', 'Bayer', 'ada.bay@example.co') })).toEqual([]);
    // A first name alone, or a last name alone, is no one in particular.
    expect(await found(db, { client: person('Ada', '') })).toEqual([]);
    expect(await found(db, { client: person('', 'Bay') })).toEqual([]);
    expect(await found(db, { client: person('Ivo', 'Bay') })).toEqual([]);
    expect(await found(db, { client: person('', '', '') })).toEqual([]);
  });

  it('matches a name with the same date of birth, and not one with another date of birth', async () => {
    const db = openDb();
    const bay = await household(db);
    await syncedSingle(db, bay.id, 'details:coclient', {
      first_name: 'Ivo',
      last_name: 'North',
      birth_date: '1971-05-02 00:00:00',
    });
    expect(await found(db, { client: person('Ivo', 'North', '', '1971-05-02') })).toEqual([
      'client → Bay coclient (name+birth)',
    ]);
    // Same name, another date of birth: another Ivo North.
    expect(await found(db, { client: person('Ivo', 'North', '', '1984-11-30') })).toEqual([]);
    // ...unless the email says it is the same person.
    expect(
      await found(db, { client: person('Ivo', 'North', 'ivo.north@example.com', '1984-11-30') }),
    ).toEqual(['client → Bay coclient (email)']);
    // The client's details were never downloaded here: the name alone, not compared.
    expect(await found(db, { client: person('Ada', 'Bay', '', '1970-01-01') })).toEqual([
      'client → Bay client (name)',
    ]);
  });

  it('puts an email or a name with its date of birth before a name alone', async () => {
    const db = openDb();
    await household(db, {
      ...BAY,
      'client.first_name': 'Ivo',
      'client.last_name': 'North',
      'client.email': 'i@n.test',
      'coclient.first_name': null,
      'coclient.last_name': null,
      'coclient.email': null,
    });
    await household(db);
    expect(await found(db, { client: person('Ivo', 'North', 'ivo.north@example.com') })).toEqual([
      'client → Bay coclient (email, name)',
      'client → North client (name)',
    ]);
  });

  it('leaves out the account being edited, but finds its member in another account', async () => {
    const db = openDb();
    const bay = await household(db);
    const typed = {
      client: person('Ada', 'Bay', 'ada.bay@example.com'),
      coclient: person('Ivo', 'North', 'ivo.north@example.com'),
    };
    expect(await found(db, typed, bay.id)).toEqual([]);
    const other = await household(db, {
      type: 'PROSPECT',
      'client.first_name': 'Ivo',
      'client.last_name': 'North',
      'client.email': 'ivo.north@example.com',
    });
    expect((await findDuplicates(db, { members: typed, exclude: bay.id })).map((d) => d.account.id)).toEqual([
      other.id,
    ]);
  });

  it('still finds an archived account and one created here and not yet sent; not one gone from the server', async () => {
    const db = openDb();
    const archived = await household(db, { ...BAY, archived: true });
    const typed = { client: person('', '', 'ada.bay@example.com') };
    expect((await findDuplicates(db, { members: typed })).map((d) => d.account.id)).toEqual([archived.id]);

    // Deleted on the platform, kept here only for a change still waiting: no longer an account.
    await db.accounts.update(archived.id, { deletedOnServer: Date.now() });
    expect(await found(db, typed)).toEqual([]);

    const { id } = await createRecord(db, 'accounts', {
      fields: {
        type: 'PROSPECT',
        'client.first_name': 'Ada',
        'client.last_name': 'Bay',
        'client.email': 'Ada.Bay@example.com',
      },
    });
    expect((await findDuplicates(db, { members: typed })).map((d) => d.account.id)).toEqual([id]);
  });
});
