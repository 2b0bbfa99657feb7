// The files of an account as the local store names them (renderer/src/data/stored-files.ts): the
// version 2 files by the addresses the document gives (a profile IMAGE at
// /accounts/{id}/file/image/{element}/{name}, a FILE at …/file/document/{element}/{index}/{name};
// an engagement's uploaded documents and signature at the addresses its lists carry), each once.

import { afterEach, describe, expect, it } from 'vitest';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { engagementPartRow, engagementRow } from '../../../renderer/src/data/records.ts';
import { accountFiles } from '../../../renderer/src/data/stored-files.ts';
import { openDb, syncedAccount, syncedItem } from '../../support/store.ts';

let db: AdvisorDb;
afterEach(() => db.delete());

const V2 = 'https://platform.example/api/v2';

function engagement(id: string, accountId: number, title: string) {
  return {
    id,
    account_id: accountId,
    member_id: 11,
    template_id: 't1',
    title,
    description: '',
    security: 'LOW',
    name: 'Ann Tester',
    email: 'ann@example.com',
    url: `${V2}/engagements/${id}/preview`,
    status: 'COMPLETED',
    filled: 100,
    time: 60,
    created_at: '2026-01-05 10:00:00',
    opened_at: null,
    email_reminders: false,
    reminded_at: null,
    email_completed: false,
    completed_at: '2026-01-06 10:00:00',
  };
}

describe('accountFiles', () => {
  it('names profile and engagement files by the addresses of the version 2 document, each once', async () => {
    db = openDb();
    const account = await syncedAccount(db, 42);
    const profile = (id: string, element: string, type: string, value: string, member: number | null) => ({
      id,
      accountServerId: 42,
      memberId: member,
      datasetId: element,
      server: { id, dataset_id: element, member_id: member, row_id: `r-${id}`, type, value },
      pulledAt: 1,
    });
    await db.profileValues.bulkAdd([
      profile('p1', 'el-photo', 'IMAGE', 'portrait.png', 11),
      profile('p2', 'el-id', 'FILE', 'photo id.pdf', 11),
      profile('p3', 'el-id', 'FILE', 'photo id.pdf', 12),
      profile('p4', 'el-note', 'STRING', 'not a file', 11),
    ]);
    const e = engagementRow(engagement('e1', 42, 'Onboarding'), 1)!;
    await db.engagements.add(e);
    const doc = engagementPartRow(
      'documents',
      {
        id: 'd1',
        field_id: 'f1',
        title: 'Statements',
        files: [
          { name: 'march.pdf', url: `${V2}/engagements/e1/documents/f1/d1/0/march.pdf` },
          { name: 'scan.jpg', url: `${V2}/engagements/e1/documents/f1/d1/1/scan.jpg` },
        ],
        updated_at: '2026-01-06 10:00:00',
      },
      'e1',
      0,
      1,
    )!;
    const signature = engagementPartRow(
      'signatures',
      {
        id: 5,
        field_id: 'f2',
        title: 'Signature',
        name: 'Ann Tester',
        email: 'ann@example.com',
        ip: '10.0.0.1',
        signed_at: '2026-01-06 10:00:00',
        file: `${V2}/engagements/e1/signatures/f2/signature.png`,
      },
      'e1',
      0,
      1,
    )!;
    await db.engagementParts.bulkAdd([doc, signature]);
    // Two Documents items naming the same stored file: listed once.
    const same = {
      type: 'document',
      url: 'https://platform.example/api/v0/files/x/a.pdf',
      filename: 'a.pdf',
    };
    await syncedItem(db, account.id, 'documents', 's1', { file: same });
    await syncedItem(db, account.id, 'documents', 's2', { file: same });

    const files = await accountFiles(db, account.id);
    expect(files.map((f) => [f.api, f.url, f.name, f.image])).toEqual([
      ['v0', 'https://platform.example/api/v0/files/x/a.pdf', 'a.pdf', false],
      ['v2', '/accounts/42/file/image/el-photo/portrait.png', 'portrait.png', true],
      ['v2', '/accounts/42/file/document/el-id/0/photo%20id.pdf', 'photo id.pdf', false],
      ['v2', '/accounts/42/file/document/el-id/1/photo%20id.pdf', 'photo id.pdf', false],
      ['v2', `${V2}/engagements/e1/documents/f1/d1/0/march.pdf`, 'march.pdf', false],
      ['v2', `${V2}/engagements/e1/documents/f1/d1/1/scan.jpg`, 'scan.jpg', true],
      ['v2', `${V2}/engagements/e1/signatures/f2/signature.png`, 'signature.png', true],
    ]);
    expect(files.filter((f) => f.source === 'engagement').map((f) => f.label)).toEqual([
      'Onboarding',
      'Onboarding',
      'Onboarding: signature',
    ]);
  });

  it('an account not on this computer lists no files', async () => {
    db = openDb();
    expect(await accountFiles(db, 'nobody')).toEqual([]);
  });
});
