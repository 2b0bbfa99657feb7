// The meeting change summary against the sandbox platform over real HTTP (local store in
// fake-indexeddb): what an advisor changed in a meeting, each change's state following the outbox
// through a real push (sent, and a refusal with the platform's reason), read back from the PDF
// with pdftotext and from the CSV with csv-parse. Expected values are what the test changed.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createRecord, resolveConflict, updateRecord } from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { meetingSummaryCsv } from '../../renderer/src/export/meeting-summary-csv.ts';
import { meetingSummary, type MeetingSummary } from '../../renderer/src/export/meeting-summary.ts';
import { PushEngine } from '../../renderer/src/sync/push/index.ts';
import { sandbox } from '../support/sandbox.ts';
import { storePerTest } from '../support/store.ts';
import { ADVISOR, ASSISTANT, sandboxUser } from '../support/sandbox-client.ts';

const platform = sandbox({ accounts: 5 });
const advisor = sandboxUser(platform, ADVISOR, { perTest: true });
const assistant = sandboxUser(platform, ASSISTANT, { perTest: true });
let db: AdvisorDb;
const dir = mkdtempSync(join(tmpdir(), 'meeting-summary-'));

storePerTest((fresh) => (db = fresh));

/**
 * The PDF writer, loaded by a path the type checker does not follow: pdfmake's types load the DOM,
 * which this Node configuration leaves out (the PDF's own tests typecheck with the renderer's).
 */
const PDF_WRITER = '../../renderer/src/export/meeting-summary-pdf.ts';
async function meetingSummaryPdf(summary: MeetingSummary, now: Date): Promise<Uint8Array> {
  const writer = (await import(PDF_WRITER)) as {
    meetingSummaryPdf(summary: MeetingSummary, now: Date): Promise<Uint8Array>;
  };
  return writer.meetingSummaryPdf(summary, now);
}

const push = () => new PushEngine({ db, send: advisor.send, backoff: { baseMs: 0 } }).run();
const once = (value: number) => ({ value, frequency: 'one-time' });

function pdfText(bytes: Uint8Array, name: string): string {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** A household on the platform with a car, before the meeting. */
async function household() {
  const { id: account } = await createRecord(db, 'accounts', {
    fields: {
      type: 'CLIENT',
      'client.first_name': 'Maya',
      'client.last_name': 'Meeting',
      'client.email': `maya-${Date.now()}@example.com`,
    },
  });
  const { id: car } = await createRecord(db, 'sectionItems', {
    accountId: account,
    section: 'assets',
    fields: { name: 'Car', type: 'vehicle', owner: { type: 'client', id: null }, current_value: once(9000) },
  });
  expect(await push()).toMatchObject({ synced: 2, rejected: 0 });
  return { account, car };
}

describe('meeting change summary', () => {
  it('lists the meeting’s changes, pending until the push, then sent or refused with the platform’s reason', async () => {
    const { account, car } = await household();
    const from = Date.now();
    // The meeting: two fields of the car, a savings account added, a goal without its target.
    await updateRecord(db, 'sectionItems', car, { name: 'Family car', current_value: once(8500) });
    await createRecord(db, 'sectionItems', {
      accountId: account,
      section: 'cash',
      fields: {
        name: 'Rainy day',
        type: 'savings',
        owner: { type: 'client', id: null },
        current_value: once(2000),
      },
    });
    await createRecord(db, 'sectionItems', {
      accountId: account,
      section: 'goals',
      fields: { name: 'Trip', type: 'travel', owner: 'client' },
    });

    const offline = await meetingSummary(db, account, { from, to: Date.now() });
    expect(offline.household).toBe('Maya Meeting');
    expect(offline.rows.map((r) => [r.section, r.item, r.field, r.before, r.after, r.state])).toEqual([
      ['Assets', 'Family car', 'Name', 'Car', 'Family car', 'pending'],
      ['Assets', 'Family car', 'Current value', '$9,000', '$8,500', 'pending'],
      ['Cash', 'Rainy day', 'Added', '', expect.stringContaining('Current value: $2,000'), 'pending'],
      ['Goals', 'Trip', 'Added', '', expect.stringContaining('Name: Trip'), 'pending'],
    ]);
    expect(offline.counts).toMatchObject({ pending: 4, sent: 0, refused: 0 });

    const report = await push();
    expect(report).toMatchObject({ synced: 2, rejected: 1 });
    const after = await meetingSummary(db, account, { from, to: Date.now() });
    expect(after.rows.map((r) => r.state)).toEqual(['sent', 'sent', 'sent', 'refused']);
    // In the advisor's words, with the form's label: what is missing and what to enter.
    expect(after.rows[3]?.reason).toMatch(/^Target: required/);
    expect(after.counts).toMatchObject({ sent: 3, pending: 0, refused: 1 });
    // The car as it was before the meeting is outside the span.
    expect(after.rows.some((r) => r.after.includes('$9,000'))).toBe(false);

    const now = new Date();
    const text = pdfText(await meetingSummaryPdf(after, now), 'meeting');
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('Meeting change summary');
    expect(flat).toContain('Maya Meeting');
    expect(flat).toContain('4 changes: 3 on the platform, 1 refused by the platform.');
    expect(text).toMatch(/Assets\s+Family car\s+Name\s+Car\s+Family car\s+On the platform/);
    expect(text).toMatch(/Assets\s+Family car\s+Current value\s+\$9,000\s+\$8,500\s+On the platform/);
    expect(text).toMatch(/Goals\s+Trip\s+Added\s+Name: Trip.*Refused by the platform/);
    expect(flat).toMatch(/Page 1 of 1/);

    const csv = meetingSummaryCsv(after);
    expect([...csv.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows: string[][] = parse(Buffer.from(csv), { bom: true });
    expect(rows[0]).toEqual([
      'When',
      'Section',
      'Item',
      'Field',
      'Before',
      'After',
      'Status',
      'Platform’s reason',
    ]);
    expect(rows.slice(1).map((r) => r.slice(1, 7))).toEqual([
      ['Assets', 'Family car', 'Name', 'Car', 'Family car', 'On the platform'],
      ['Assets', 'Family car', 'Current value', '$9,000', '$8,500', 'On the platform'],
      ['Cash', 'Rainy day', 'Added', '', expect.stringContaining('Rainy day'), 'On the platform'],
      ['Goals', 'Trip', 'Added', '', expect.stringContaining('Trip'), 'Refused by the platform'],
    ]);
    expect(rows[4]?.[7]).toMatch(/target/i);
    // The time as this computer's clock read it: the day of the meeting, to the second.
    for (const r of rows.slice(1)) expect(r[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('an edit that fixes a refused change is sent with it: both say sent', async () => {
    const { account } = await household();
    const from = Date.now();
    const { id: goal } = await createRecord(db, 'sectionItems', {
      accountId: account,
      section: 'goals',
      fields: { name: 'Trip', type: 'travel', owner: 'client' },
    });
    await push();
    expect((await meetingSummary(db, account, { from, to: Date.now() })).rows[0]?.state).toBe('refused');
    await updateRecord(db, 'sectionItems', goal, { target: { value: 5000, date: '2028-06-01' } });
    expect(await push()).toMatchObject({ synced: 1, rejected: 0 });
    const summary = await meetingSummary(db, account, { from, to: Date.now() });
    expect(summary.rows.map((r) => [r.field, r.state])).toEqual([
      ['Added', 'sent'],
      ['Target', 'sent'],
    ]);
  });

  it('a change the assistant also made on the platform is a conflict; kept, it is sent; dropped, it never was', async () => {
    const { account } = await household();
    const serverId = (await db.accounts.get(account))?.serverId;
    const from = Date.now();
    const mine = await updateRecord(db, 'accounts', account, { 'client.first_name': 'Mine' });
    const theirs = await assistant.transport.request({
      api: 'v2',
      method: 'POST',
      path: `/accounts/${serverId}`,
      body: { 'client.first_name': 'Theirs' },
    });
    expect(theirs.ok).toBe(true);
    expect(await push()).toMatchObject({ conflicts: 1 });
    const waiting = await meetingSummary(db, account, { from, to: Date.now() });
    expect(waiting.rows.map((r) => [r.section, r.field, r.before, r.after, r.state])).toEqual([
      ['Household', 'Client first name', 'Maya', 'Mine', 'conflict'],
    ]);

    await resolveConflict(db, mine.opId as string, 'mine');
    expect(await push()).toMatchObject({ synced: 1, remaining: 0 });
    expect((await meetingSummary(db, account, { from, to: Date.now() })).rows[0]?.state).toBe('sent');

    // Once more, the platform's value kept this time: the change never reached it.
    const again = await updateRecord(db, 'accounts', account, { 'client.last_name': 'Here' });
    const res = await assistant.transport.request({
      api: 'v2',
      method: 'POST',
      path: `/accounts/${serverId}`,
      body: { 'client.last_name': 'There' },
    });
    expect(res.ok).toBe(true);
    expect(await push()).toMatchObject({ conflicts: 1 });
    await resolveConflict(db, again.opId as string, 'theirs');
    const last = (await meetingSummary(db, account, { from, to: Date.now() })).rows.at(-1);
    expect(last).toMatchObject({ field: 'Client last name', after: 'Here', state: 'withdrawn' });
  });
});
