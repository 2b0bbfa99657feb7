// Forms (0.0.1) against the sandbox platform over real HTTP, through the real transport, with the
// local store in fake-indexeddb: a form sent offline goes once when the network is back; an
// unanswered send is looked for before it is repeated (exactly one form); a resend and a close
// wait offline and go once; the answer's alternatives the document leaves open are read.

import { describe, expect, it } from 'vitest';
import {
  ChangeRefused,
  queueCloseForm,
  queueResendForm,
  queueSendForm,
  whenSynced,
} from '../../renderer/src/data/changes/index.ts';
import type { AccountRow } from '../../renderer/src/data/model.ts';
import { listForms } from '../../renderer/src/data/queries/index.ts';
import { answeredForm } from '../../renderer/src/sync/form-sends.ts';
import type { FormRecord } from '../platform/model.ts';
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
  unique,
} from './household-session.ts';

householdSession();

/** A 0.0.1 template of the advisor's team (its key is what a send names). */
const template = (i = 0) =>
  platform.control.store().templatesOf(platform.control.store().state.users[0]!)[i]!;

const onPlatform = (accountServerId: unknown): FormRecord[] =>
  platform.control.store().state.forms.filter((f) => f.account_id === accountServerId);

/** A household made on the platform for one test and pulled here (household-session.ts). */
const household = () => makeHousehold({ client: 'Fay', coclient: 'Cole', last: 'Formed' });

const formsPath = (account: AccountRow) => `/accounts/${account.serverId}/forms`;

describe('sending a form', () => {
  it('offline it waits; back online it is sent once, from the template, to the members chosen', async () => {
    const account = await household();
    setOnline(false);
    const { opId } = await queueSendForm(db, {
      accountId: account.id,
      templateKey: template(1).key,
      recipients: ['client', 'coclient'],
    });
    const push = engine();
    expect(await push.run()).toMatchObject({ requests: 0, remaining: 1 });
    expect((await db.accounts.get(account.id))?.status).toBe('pending');
    expect(onPlatform(account.serverId)).toHaveLength(0);

    setOnline(true);
    await push.rearm();
    expect(await push.run()).toMatchObject({ synced: 1, remaining: 0 });
    await whenSynced(db, opId!);
    expect(requestsOf()).toEqual(['GET /user', `POST ${formsPath(account)}`]);
    const made = onPlatform(account.serverId);
    expect(made).toHaveLength(1);
    expect(made[0]!.template_id).toBe(template(1).id);
    expect(made[0]!.status).toBe('NEW');
    expect(made[0]!.recipients).toEqual([
      { role: 'client', name: `Fay Formed${unique}` },
      { role: 'coclient', name: `Cole Formed${unique}` },
    ]);
    // Stored here from the platform's answer, listed with the account's forms; the badge is clear.
    const here = await listForms(db, { accountId: account.id });
    expect(here.map((f) => [f.key, f.status])).toEqual([[made[0]!.key, 'NEW']]);
    expect((await db.accounts.get(account.id))?.status).toBe('synced');
    expect(await push.run()).toMatchObject({ requests: 0 });
    expect(onPlatform(account.serverId)).toHaveLength(1);
  });

  it('a connection dropped after the platform made it: looked up, adopted, exactly one form', async () => {
    const account = await household();
    // One of the same template sent earlier from elsewhere and held here: not this send's result.
    const earlier = await advisor.send({
      api: 'v0',
      method: 'POST',
      path: formsPath(account),
      body: { template: template().key },
    });
    expect(earlier.ok).toBe(true);
    await pulls().pullForms({ accountId: account.id });
    advisor.requests.length = 0;
    const { opId } = await queueSendForm(db, {
      accountId: account.id,
      templateKey: template().key,
      recipients: ['client'],
    });
    platform.control.setFaults({
      queue: [{ kind: 'drop-after', methods: ['POST'], path: '^/api/v0/accounts/\\d+/forms$' }],
    });
    expect(await engine().run()).toMatchObject({ remaining: 0 });
    await whenSynced(db, opId!);
    expect(requestsOf()).toEqual(['GET /user', `POST ${formsPath(account)}`, `GET ${formsPath(account)}`]);
    expect(onPlatform(account.serverId)).toHaveLength(2);
    expect(
      await db.forms
        .where('accountServerId')
        .equals(account.serverId as number)
        .count(),
    ).toBe(2);
  });

  it('dropped before the platform got it: looked up, none found, sent again: exactly one form', async () => {
    const account = await household();
    const { opId } = await queueSendForm(db, {
      accountId: account.id,
      templateKey: template().key,
      recipients: ['client'],
    });
    platform.control.setFaults({
      queue: [{ kind: 'drop-before', methods: ['POST'], path: '^/api/v0/accounts/\\d+/forms$' }],
    });
    await engine().run();
    await whenSynced(db, opId!);
    expect(requestsOf()).toEqual([
      'GET /user',
      `POST ${formsPath(account)}`,
      `GET ${formsPath(account)}`,
      `POST ${formsPath(account)}`,
    ]);
    expect(onPlatform(account.serverId)).toHaveLength(1);
  });

  it('is refused in words for a template that is not the user’s, and a second click while it waits', async () => {
    const account = await household();
    await expect(
      queueSendForm(db, { accountId: account.id, templateKey: 'no-such-template', recipients: ['client'] }),
    ).rejects.toThrow(/not one of your templates/);
    setOnline(false);
    await queueSendForm(db, { accountId: account.id, templateKey: template().key, recipients: ['client'] });
    await expect(
      queueSendForm(db, { accountId: account.id, templateKey: template().key, recipients: ['client'] }),
    ).rejects.toBeInstanceOf(ChangeRefused);
    expect(await db.outbox.count()).toBe(1);
  });
});

describe('resending and closing a form', () => {
  /** A form sent and pulled here; its FormRow id. */
  async function sentForm(account: AccountRow): Promise<string> {
    const res = await advisor.send({
      api: 'v0',
      method: 'POST',
      path: formsPath(account),
      body: { template: template().key },
    });
    expect(res.ok).toBe(true);
    await pulls().pullForms({ accountId: account.id });
    advisor.requests.length = 0;
    return `${account.serverId}:${(res as { data: { key: string } }).data.key}`;
  }
  const resends = () =>
    platform.control.store().state.userActivities.filter((a) => a.type === 'form.resent').length;

  it('a resend made offline goes once online; a dropped answer is known done by the reminder, not sent again', async () => {
    const account = await household();
    const id = await sentForm(account);
    setOnline(false);
    const before = resends();
    const first = await queueResendForm(db, id);
    await expect(queueResendForm(db, id)).rejects.toThrow(/already waiting/);
    setOnline(true);
    const push = engine();
    await push.rearm();
    await push.run();
    await whenSynced(db, first.opId!);
    expect(resends()).toBe(before + 1);
    expect((await db.forms.get(id))?.server.reminded_at).not.toBeNull();

    const second = await queueResendForm(db, id);
    platform.control.setFaults({ queue: [{ kind: 'drop-after', methods: ['POST'], path: '/resend$' }] });
    await engine().run();
    await whenSynced(db, second.opId!);
    expect(resends()).toBe(before + 2);
  });

  it('a close made offline goes once online; closed, it is not closed again nor resent', async () => {
    const account = await household();
    const id = await sentForm(account);
    setOnline(false);
    const { opId } = await queueCloseForm(db, id);
    expect((await queueCloseForm(db, id)).opId).toBeNull();
    await expect(queueResendForm(db, id)).rejects.toThrow(/closed/);
    setOnline(true);
    const push = engine();
    await push.rearm();
    await push.run();
    await whenSynced(db, opId!);
    const key = id.split(':')[1];
    expect(onPlatform(account.serverId).find((f) => f.key === key)?.status).toBe('CLOSED');
    expect((await db.forms.get(id))?.status).toBe('CLOSED');
    expect((await queueCloseForm(db, id)).opId).toBeNull();
  });
});

describe('the answer to a send', () => {
  const form = {
    account_id: 7,
    key: 12,
    definition_key: '0b7c8f3e-1111-4222-8333-944445555666',
    status: 'NEW',
    template: null,
    recipients: [{ role: 'client', name: 'Fay' }],
    created_at: '2026-11-26 10:00:00',
    updated_at: '2026-11-26 10:00:00',
    opened_at: null,
    reminded_at: null,
    closed_at: null,
    urls: 'https://platform.example/forms/12',
  };
  it('is read as the document gives it, wrapped in data or form, or as a list of one; nothing else', () => {
    for (const answer of [form, { data: form }, { form }, [form]])
      expect(answeredForm(answer, 7, 0)).toMatchObject({ id: '7:12', key: '12', status: 'NEW' });
    expect(answeredForm({ ok: true }, 7, 0)).toBeNull();
    expect(answeredForm(null, 7, 0)).toBeNull();
  });
});
