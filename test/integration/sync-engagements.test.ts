// Engagements against the sandbox platform over real HTTP, through the real transport, with the
// local store in fake-indexeddb: a questionnaire sent offline goes once when the network is back;
// an unanswered send is looked for before it is repeated (exactly one engagement); close and reopen
// wait offline and go as the last wish; delete asks for the password, online; a completed
// engagement's outputs are fetched when it is opened; after a close the account is pulled again.

import { describe, expect, it, vi } from 'vitest';
import {
  ChangeRefused,
  createRecord,
  queueCloseEngagement,
  queueReopenEngagement,
  queueSendEngagement,
  whenSynced,
  type EngagementSend,
} from '../../renderer/src/data/changes/index.ts';
import type { AccountRow } from '../../renderer/src/data/model.ts';
import { engagementParts } from '../../renderer/src/data/queries/engagements.ts';
import {
  dismissClosedAnswers,
  readClosedAnswers,
} from '../../renderer/src/sync/coordinator/closed-answers.ts';
import { DeleteRefused, deleteEngagementOnline } from '../../renderer/src/sync/online-only.ts';
import { PushEngine } from '../../renderer/src/sync/push/index.ts';
import type { EmailRecord, EngagementRecord } from '../platform/model.ts';
import { SANDBOX_PASSWORD } from '../platform/seed.ts';
import {
  advisor,
  db,
  engine,
  household as makeHousehold,
  householdSession,
  platform,
  pulls,
  requestsOf,
  setOnline,
} from './household-session.ts';
import { loneCoordinator } from './lone-coordinator.ts';
import { ASSISTANT, sandboxClient } from '../support/sandbox-client.ts';

householdSession();

/** The onboarding questionnaire of the advisor's team: high security, with documents and a signature. */
const intake = () =>
  platform.control
    .store()
    .state.templates.find((t) => t.teamId === 1 && t.title === 'Client intake questionnaire')!;

const onPlatform = (accountServerId: unknown): EngagementRecord[] =>
  platform.control.store().state.engagements.filter((e) => e.account_id === accountServerId);

/** A household made on the platform for one test and pulled here (household-session.ts). */
const household = (client = advisor) =>
  makeHousehold({ client: 'Erin', coclient: 'Cody', last: 'Engaged' }, client);

const sendTo = (account: AccountRow, member: 'client' | 'coclient' = 'coclient'): EngagementSend => ({
  accountId: account.id,
  member,
  templateId: intake().id,
  emailNew: true,
  emailReminders: true,
  emailCompleted: false,
});

/** An engagement sent straight to the platform (by another computer), and the household's list pulled here. */
async function sentElsewhere(account: AccountRow): Promise<string> {
  const res = await advisor.send({
    api: 'v2',
    method: 'POST',
    path: '/engagements',
    body: { template_id: intake().id, account_id: account.serverId, member_id: account.meta.clientId },
  });
  expect(res.ok).toBe(true);
  const id = (res as { data: { id: string } }).data.id;
  await pulls().pullEngagements({ accountId: account.id });
  advisor.requests.length = 0;
  return id;
}

const member = (id: string, action: string, seed = 4) =>
  fetch(`${platform.url}/__sandbox/engagements/${id}/member`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action, seed }),
  });

describe('sending a questionnaire', () => {
  it('offline it waits; back online it is sent once, to the co-client, with its email options', async () => {
    const account = await household();
    setOnline(false);
    const { opId } = await queueSendEngagement(db, sendTo(account));
    const push = engine();
    expect(await push.run()).toMatchObject({ requests: 0, remaining: 1 });
    expect((await db.accounts.get(account.id))?.status).toBe('pending');
    expect(onPlatform(account.serverId)).toHaveLength(0);

    setOnline(true);
    await push.rearm();
    expect(await push.run()).toMatchObject({ synced: 1, remaining: 0 });
    await whenSynced(db, opId!);
    expect(requestsOf(advisor)).toEqual(['GET /user', 'POST /engagements']);
    const made = onPlatform(account.serverId);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      member_id: account.meta.coclientId,
      template_id: intake().id,
      status: 'NEW',
      email_reminders: true,
      email_completed: false,
    });
    const emails = (platform.control.store().state.emails ?? []).filter(
      (m: EmailRecord) => m.engagement_id === made[0]!.id,
    );
    expect(emails.map((m) => [m.kind, m.to])).toEqual([['new', account.fields['coclient.email']]]);
    // Stored here from the platform's answer; the account's badge is clear again.
    expect((await db.engagements.get(made[0]!.id))?.memberId).toBe(account.meta.coclientId);
    expect((await db.accounts.get(account.id))?.status).toBe('synced');
    // Sent again later, it goes nowhere: nothing is left to send.
    expect(await push.run()).toMatchObject({ requests: 0 });
    expect(onPlatform(account.serverId)).toHaveLength(1);
  });

  it('a connection dropped after the platform made it: looked up, adopted, exactly one engagement', async () => {
    const account = await household();
    const earlier = await sentElsewhere(account);
    // The earlier one is of the same template, but to the client; one to the co-client is sent now.
    const { opId } = await queueSendEngagement(db, sendTo(account));
    platform.control.setFaults({
      queue: [{ kind: 'drop-after', methods: ['POST'], path: '^/api/v2/engagements$' }],
    });
    const report = await engine().run();
    await whenSynced(db, opId!);
    expect(report).toMatchObject({ remaining: 0 });
    expect(requestsOf(advisor)).toEqual(['GET /user', 'POST /engagements', 'GET /engagements']);
    const made = onPlatform(account.serverId).filter((e) => e.id !== earlier);
    expect(made).toHaveLength(1);
    expect(await db.engagements.get(made[0]!.id)).toBeDefined();
  });

  it('still unanswered when the team check before the next try fails: looked up then, not sent twice', async () => {
    const account = await household();
    const { opId } = await queueSendEngagement(db, sendTo(account));
    let now = Date.now();
    // Retries wait a minute, so each run is one try and the test says when the next falls due.
    const push = new PushEngine({ db, send: advisor.send, now: () => now, backoff: { baseMs: 60_000 } });
    platform.control.setFaults({
      queue: [{ kind: 'drop-after', methods: ['POST'], path: '^/api/v2/engagements$' }],
    });
    await push.run();
    expect(onPlatform(account.serverId)).toHaveLength(1);
    // Next try: asking the platform's team (before a questionnaire goes) meets a 503.
    platform.control.setFaults({
      queue: [{ kind: 'unavailable', methods: ['GET'], path: '^/api/v2/user$' }],
    });
    now += 10 * 60_000;
    await push.run();
    now += 60 * 60_000;
    advisor.requests.length = 0;
    await push.run();
    await whenSynced(db, opId!);
    expect(requestsOf(advisor)).toEqual(['GET /user', 'GET /engagements']);
    const made = onPlatform(account.serverId);
    expect(made).toHaveLength(1);
    expect(await db.engagements.get(made[0]!.id)).toBeDefined();
  });

  it('dropped before the platform got it: looked up, none found beside those known before, sent again, one', async () => {
    const account = await household();
    // The same template to the same member, already here before the send was queued: not its result.
    const earlier = await sentElsewhere(account);
    const { opId } = await queueSendEngagement(db, { ...sendTo(account), member: 'client' });
    platform.control.setFaults({
      queue: [{ kind: 'drop-before', methods: ['POST'], path: '^/api/v2/engagements$' }],
    });
    await engine().run();
    await whenSynced(db, opId!);
    expect(requestsOf(advisor)).toEqual([
      'GET /user',
      'POST /engagements',
      'GET /engagements',
      'POST /engagements',
    ]);
    const toClient = onPlatform(account.serverId).filter((e) => e.member_id === account.meta.clientId);
    expect(toClient.map((e) => e.id)).toContain(earlier);
    expect(toClient).toHaveLength(2);
  });

  it('to a household made offline: the send waits for the account, then goes to its new client', async () => {
    await pulls().pullConfig();
    setOnline(false);
    const email = `offline-${Date.now()}@example.com`;
    const { id } = await createRecord(db, 'accounts', {
      fields: {
        type: 'PROSPECT',
        'client.first_name': 'Olga',
        'client.last_name': 'Offline',
        'client.email': email,
      },
    });
    const { opId } = await queueSendEngagement(db, { ...sendTo({ id } as AccountRow), member: 'client' });
    const push = engine();
    setOnline(true);
    await push.rearm();
    await push.run();
    await whenSynced(db, opId!);
    const account = (await db.accounts.get(id))!;
    const onIt = onPlatform(account.serverId);
    expect(onIt).toHaveLength(1);
    expect(onIt[0]?.member_id).toBe(account.meta.clientId);
    expect(onIt[0]?.email).toBe(email);
    expect(requestsOf(advisor).filter((r) => r.startsWith('POST'))).toEqual([
      'POST /accounts',
      'POST /engagements',
    ]);
  });

  it('refuses, in words, a member without an email, a second click, and a user without the permission', async () => {
    const account = await household();
    await db.accounts.update(account.id, { fields: { ...account.fields, 'coclient.email': '' } });
    await expect(queueSendEngagement(db, sendTo(account))).rejects.toThrow(
      /co-client has no email address, so the questionnaire could not reach them/,
    );
    await queueSendEngagement(db, sendTo(account, 'client'));
    await expect(queueSendEngagement(db, sendTo(account, 'client'))).rejects.toThrow(
      /already waiting to be sent to the client/,
    );
    // The assistant's role: the user resource pulled under it says what it may do.
    const assistant = sandboxClient(platform, ASSISTANT);
    try {
      await pulls(assistant).pullConfig({ force: true });
      await expect(queueCloseEngagement(db, 'x')).rejects.toThrow(
        'Your role on the platform does not let you close or reopen questionnaires.',
      );
    } finally {
      assistant.transport.dispose();
    }
    expect(await db.outbox.count()).toBe(1);
  });
});

describe('closing and reopening', () => {
  it('queued offline as the last wish: close, reopen, close sends one close; then a reopen', async () => {
    const account = await household();
    const id = await sentElsewhere(account);
    setOnline(false);
    const first = await queueCloseEngagement(db, id);
    await queueReopenEngagement(db, id);
    const last = await queueCloseEngagement(db, id);
    expect(await db.outbox.count()).toBe(1);
    const push = engine();
    expect(await push.run()).toMatchObject({ requests: 0, remaining: 1 });
    expect(platform.control.store().state.engagements.find((e) => e.id === id)?.status).toBe('NEW');

    setOnline(true);
    await push.rearm();
    await push.run();
    await whenSynced(db, last.opId!);
    expect(first.opId).not.toBe(last.opId);
    expect(requestsOf(advisor)).toEqual([`POST /engagements/${id}/close`]);
    expect(platform.control.store().state.engagements.find((e) => e.id === id)?.status).toBe('COMPLETED');
    expect((await db.engagements.get(id))?.completed).toBe(1);

    const reopen = await queueReopenEngagement(db, id);
    await push.run();
    await whenSynced(db, reopen.opId!);
    expect(platform.control.store().state.engagements.find((e) => e.id === id)).toMatchObject({
      status: 'NEW',
      completed_at: null,
    });
    expect((await db.engagements.get(id))?.completed).toBe(0);
    // Reopening what is open already asks nothing of the platform.
    expect((await queueReopenEngagement(db, id)).opId).toBeNull();
  });
});

describe('deleting', () => {
  it('online with the password: a wrong one is refused on the password field; the right one deletes', async () => {
    const account = await household();
    const id = await sentElsewhere(account);
    const wrong = await deleteEngagementOnline(db, advisor.send, id, 'not-my-password').catch(
      (e: unknown) => e,
    );
    expect(wrong).toBeInstanceOf(DeleteRefused);
    expect(wrong).toMatchObject({ reason: 'password', fields: { password: ['The password is incorrect.'] } });
    expect(JSON.stringify(wrong)).not.toContain('not-my-password');
    expect(onPlatform(account.serverId).map((e) => e.id)).toContain(id);
    expect(await db.engagements.get(id)).toBeDefined();

    await deleteEngagementOnline(db, advisor.send, id, SANDBOX_PASSWORD);
    expect(onPlatform(account.serverId).map((e) => e.id)).not.toContain(id);
    expect(await db.engagements.get(id)).toBeUndefined();
  });

  it('offline nothing is sent; without engagements.delete nothing is sent either', async () => {
    const account = await household();
    const id = await sentElsewhere(account);
    await expect(
      deleteEngagementOnline(db, advisor.send, id, SANDBOX_PASSWORD, { online: false }),
    ).rejects.toThrow(/You are offline/);
    const assistant = sandboxClient(platform, ASSISTANT);
    try {
      await pulls(assistant).pullConfig({ force: true });
      const refused = await deleteEngagementOnline(db, assistant.send, id, SANDBOX_PASSWORD).catch(
        (e: unknown) => e,
      );
      expect(refused).toMatchObject({
        reason: 'forbidden',
        message: 'Your role on the platform does not let you delete questionnaires.',
      });
      expect(requestsOf(assistant).filter((r) => r.startsWith('DELETE'))).toEqual([]);
    } finally {
      assistant.transport.dispose();
    }
    expect(requestsOf(advisor)).toEqual([]);
    expect(onPlatform(account.serverId).map((e) => e.id)).toContain(id);
  });
});

describe('what the member gave, fetched when it is opened', () => {
  it('the list costs one request; a completed engagement opened brings answers, documents, signatures and history', async () => {
    const account = await household();
    const id = await sentElsewhere(account);
    expect((await member(id, 'complete')).status).toBe(200);
    await pulls().pullEngagements({ accountId: account.id });
    // The household's list is one request (the platform's team is confirmed before a change is kept).
    expect(requestsOf(advisor).filter((r) => r.startsWith('GET /engagements'))).toEqual(['GET /engagements']);
    advisor.requests.length = 0;
    expect(await engagementParts(db, id, 'data')).toEqual([]);

    await pulls().pullEngagement(id);
    // Opened: it, its answers, documents, signatures and history; nothing of any other engagement.
    expect(
      requestsOf(advisor)
        .filter((r) => r !== 'GET /user')
        .sort(),
    ).toEqual(
      ['', '/data', '/documents', '/history', '/signatures'].map((p) => `GET /engagements/${id}${p}`),
    );
    const theirs = platform.control.store().state.engagements.find((e) => e.id === id)!;
    const data = await engagementParts(db, id, 'data');
    expect(data.map((d) => d.server.value).sort()).toEqual(theirs.answers.map((a) => a.value).sort());
    expect(
      data.every((d) => d.server.member_id === account.meta.clientId && d.server.path.length === 3),
    ).toBe(true);
    expect((await engagementParts(db, id, 'documents')).map((d) => d.server.title).sort()).toEqual(
      theirs.documents.map((d) => d.title).sort(),
    );
    const signatures = await engagementParts(db, id, 'signatures');
    expect(signatures.map((s) => s.server.name)).toEqual([theirs.name]);
    expect(signatures[0]?.server.file).toContain(`/engagements/${id}/signatures/`);
    expect((await engagementParts(db, id, 'history')).map((h) => h.server.author)).toEqual([theirs.name]);
  });
});

describe('a household prepared for a meeting', () => {
  it("takes its list and the completed questionnaires' outputs along, not those of open ones", async () => {
    const account = await household();
    const done = await sentElsewhere(account);
    const open = await sentElsewhere(account);
    expect((await member(done, 'complete')).status).toBe(200);
    expect((await member(open, 'fill')).status).toBe(200);
    const sync = loneCoordinator({ db, send: advisor.send, pull: { recentAccounts: 0 } });
    try {
      sync.start();
      await sync.prepareForMeeting([account.id]);
      expect(sync.state.households.find((h) => h.accountId === account.id)?.state).toBe('ready');
      const theirs = platform.control.store().state.engagements.find((e) => e.id === done)!;
      expect((await engagementParts(db, done, 'data')).length).toBe(theirs.answers.length);
      expect((await engagementParts(db, done, 'signatures')).length).toBe(1);
      expect((await db.engagements.get(open))?.completed).toBe(0);
      expect(await db.engagementParts.where('engagementId').equals(open).count()).toBe(0);
      expect(advisor.requests.filter((r) => r.path.startsWith(`/engagements/${open}`))).toEqual([]);
    } finally {
      await sync.stop();
    }
  });
});

describe('after a close', () => {
  it("the account's sections and profile are pulled again, with the answers written into it", async () => {
    const account = await household();
    const id = await sentElsewhere(account);
    expect((await member(id, 'fill', 9)).status).toBe(200);
    const sync = loneCoordinator({ db, send: advisor.send });
    try {
      sync.start();
      // Nothing of the account but its list entry is here before the close.
      expect(await db.profileValues.count()).toBe(0);
      expect((await db.accounts.get(account.id))?.pulledAt).toBeNull();
      const { opId } = await queueCloseEngagement(db, id);
      await sync.whenSynced(opId!);
      const profile = () =>
        platform.control
          .store()
          .state.accounts.find((a) => a.id === account.serverId)!
          .profile.map((v) => v.id);
      expect(profile().length).toBeGreaterThan(0);
      await vi.waitFor(
        async () => {
          const here = await db.profileValues
            .where('accountServerId')
            .equals(Number(account.serverId))
            .toArray();
          expect(here.map((v) => v.id).sort()).toEqual(profile().sort());
          // Pulled whole: its sections too, not only the profile.
          expect((await db.accounts.get(account.id))?.pulledAt).toEqual(expect.any(Number));
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(advisor.requests.filter((r) => r.path.startsWith('/accounts/')).length).toBeGreaterThan(10);
    } finally {
      await sync.stop();
    }
  });
});

describe('what a close changed, said in the workspace', () => {
  it('names the parts of the account the platform wrote the answers into, and only those', async () => {
    const account = await household();
    const id = await sentElsewhere(account);
    expect((await member(id, 'fill', 9)).status).toBe(200);
    const sync = loneCoordinator({ db, send: advisor.send });
    try {
      sync.start();
      // The whole household is here before the close, as at a meeting.
      await sync.openAccount(account.id);
      expect((await db.accounts.get(account.id))?.pulledAt).toEqual(expect.any(Number));
      const theirs = () => platform.control.store().state.accounts.find((a) => a.id === account.serverId)!;
      const sections = () =>
        JSON.stringify([theirs().sections ?? {}, theirs().singles ?? {}, theirs().client, theirs().coclient]);
      const profile = () => JSON.stringify([...theirs().profile].sort((a, b) => a.id.localeCompare(b.id)));
      const [sectionsBefore, profileBefore] = [sections(), profile()];

      const { opId } = await queueCloseEngagement(db, id);
      await sync.whenSynced(opId!);
      // The platform wrote the answers into the profile (only fields connected to it do) and
      // nowhere else: the notice names the profile, and no section the close left alone.
      expect(profile()).not.toBe(profileBefore);
      expect(sections()).toBe(sectionsBefore);
      const notice = await vi.waitFor(
        async () => {
          const found = await readClosedAnswers(db, account.id);
          expect(found).not.toBeNull();
          return found!;
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(notice).toMatchObject({ engagementId: id, title: intake().title, parts: ['profile'] });

      await dismissClosedAnswers(db, account.id);
      expect(await readClosedAnswers(db, account.id)).toBeNull();
    } finally {
      await sync.stop();
    }
  });

  it('says it cannot tell what changed when nothing of the account was here before', async () => {
    const account = await household();
    const id = await sentElsewhere(account);
    expect((await member(id, 'fill', 5)).status).toBe(200);
    const sync = loneCoordinator({ db, send: advisor.send });
    try {
      sync.start();
      const { opId } = await queueCloseEngagement(db, id);
      await sync.whenSynced(opId!);
      await vi.waitFor(async () => expect((await readClosedAnswers(db, account.id))?.parts).toBeNull(), {
        timeout: 10_000,
        interval: 50,
      });
    } finally {
      await sync.stop();
    }
  });
});

describe('a refusal is named', () => {
  it('ChangeRefused for a questionnaire not on this computer', async () => {
    await expect(queueCloseEngagement(db, 'nowhere')).rejects.toBeInstanceOf(ChangeRefused);
  });
});
