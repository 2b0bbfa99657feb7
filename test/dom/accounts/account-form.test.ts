// @vitest-environment happy-dom
// Creating and editing an account: the platform's rules speak in the advisor's words, the same as
// every other form's, as the user types (once a field was left, or a save tried), a valid form
// saves one create through the change module, an edit queues only what changed, a prospect converts to a client where the role
// allows it, and what the role or the platform refuses is said on the form. A member typed who is
// already in another account is said, with a link to it, and the advisor may go on (past another
// member's email only by choosing to use it anyway).

import { describe, expect, it, vi } from 'vitest';
import type { ComponentPublicInstance } from 'vue';
import { updateRecord } from '../../../renderer/src/data/changes/index.ts';
import { outbox } from '../../support/store.ts';
import {
  account,
  blur,
  button,
  click,
  listedNames,
  mountAt,
  one,
  screensPerTest,
  settle,
  typeText,
  userConfig,
} from './harness.ts';

const screen = screensPerTest();

const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]')!;
const input = (id: string) => document.getElementById(id) as HTMLInputElement;
const messages = (field: string) =>
  [
    ...(document.getElementById(`account-${field.replace(/\./g, '-')}-messages`)?.querySelectorAll('small') ??
      []),
  ].map((m) => m.textContent?.trim());
const phoneMessages = (role: string) =>
  [...(document.getElementById(`account-${role}-phone-messages`)?.querySelectorAll('small') ?? [])].map((m) =>
    m.textContent?.trim(),
  );

async function openCreate() {
  await click(one('new-account'));
  await settle();
  expect(dialog().getAttribute('aria-labelledby')).toBeTruthy();
  expect(dialog().textContent).toContain('New account');
}

async function openEdit(name: string) {
  const row = [...document.querySelectorAll<HTMLElement>('.account-row')].find((r) =>
    r.textContent?.includes(name),
  )!;
  await click(row.querySelector('[data-testid="edit-account"]')!);
  await settle();
}

/** Saves, waits for the dialog to close, and reads what was queued. */
async function saveAndClose() {
  await click(one('account-save'));
  await vi.waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
  return outbox(screen.db);
}

describe('creating an account', () => {
  it('a dialog that finishes opening late leaves the cursor in the field the user moved to', async () => {
    await userConfig(screen.db);
    screen.mounted = await mountAt(screen.db, '/accounts');
    await openCreate();
    const first = input('account-client-first_name');
    expect(first.hasAttribute('autofocus')).toBe(true);
    first.focus();
    await typeText(first, 'Nora');
    const last = input('account-client-last_name');
    last.focus();
    // The end of the opening animation: PrimeVue's Dialog focuses its `[autofocus]` element.
    const shown = screen.mounted.wrapper
      .findAllComponents({ name: 'Dialog' })
      .find((d) => d.props('visible'));
    (shown!.vm as ComponentPublicInstance & { focus(): void }).focus();
    await settle();
    expect(document.activeElement).toBe(last);
    expect(first.value).toBe('Nora');
  });

  it('shows the platform’s rules as the user types, and saves one create', async () => {
    await userConfig(screen.db);
    screen.mounted = await mountAt(screen.db, '/accounts');
    await openCreate();
    // The type the role may create first, the user's own phone country by default.
    expect(button(dialog(), 'Prospect').getAttribute('aria-pressed')).toBe('true');
    expect(input('account-client-phone-code').value).toBe('+1');

    await typeText(input('account-client-first_name'), 'Nora');
    const email = input('account-client-email');
    await typeText(email, 'nora@');
    expect(messages('client.email')).toEqual([]); // not yet left: no scolding mid-word
    await blur(email);
    expect(messages('client.email')).toEqual(['Email: enter an e-mail address such as name@example.com.']);
    expect(email.getAttribute('aria-invalid')).toBe('true');
    await typeText(email, 'nora@example');
    expect(messages('client.email')).toEqual(['Email: enter an e-mail address such as name@example.com.']);
    await typeText(email, 'nora@example.com');
    expect(messages('client.email')).toEqual([]);

    await typeText(input('account-client-phone-number'), '12');
    await blur(input('account-client-phone-number'));
    expect(phoneMessages('client')).toEqual([
      'Phone: enter the number’s 4 to 15 digits (its country code goes in the box before it).',
    ]);
    await typeText(input('account-client-phone-number'), '555 0142 77');
    expect(phoneMessages('client')).toEqual([]);

    // A save shows what is still missing, and saves nothing.
    await click(one('account-save'));
    expect(messages('client.last_name')).toEqual(['Last name: required, fill it in.']);
    expect(document.activeElement).toBe(input('account-client-last_name'));
    expect(dialog().textContent).toContain('1 field needs attention before saving.');
    await typeText(input('account-client-last_name'), 'Quist');
    expect(messages('client.last_name')).toEqual([]);
    // The count follows the fields (issue 23, point 13): fixed, nothing is said to need attention.
    expect(dialog().textContent).not.toContain('needs attention');

    // A co-client, once given, needs its names and an email of its own.
    await click(one('add-coclient'));
    expect(document.activeElement).toBe(input('account-coclient-first_name'));
    await typeText(input('account-coclient-first_name'), 'Omar');
    await typeText(input('account-coclient-email'), 'NORA@example.com');
    await click(one('account-save'));
    expect(messages('coclient.last_name')).toEqual(['Co-client last name: required, fill it in.']);
    expect(messages('coclient.email')).toEqual([
      'Co-client email: enter an e-mail address other than the client’s.',
    ]);
    await typeText(input('account-coclient-last_name'), 'Quist');
    await typeText(input('account-coclient-email'), 'omar@example.com');
    expect(messages('coclient.email')).toEqual([]);
    expect(await outbox(screen.db)).toEqual([]);

    const ops = await saveAndClose();
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({
      table: 'accounts',
      kind: 'create',
      fields: {
        type: 'PROSPECT',
        'client.first_name': 'Nora',
        'client.last_name': 'Quist',
        'client.email': 'nora@example.com',
        'client.phone.code': '+1',
        'client.phone.number': '555014277',
        'client.phone.country': 'US',
        'coclient.first_name': 'Omar',
        'coclient.last_name': 'Quist',
        'coclient.email': 'omar@example.com',
        // The co-client's phone was left empty: no phone, not a country on its own.
        'coclient.phone.number': null,
        'coclient.phone.country': null,
      },
    });
    // The new prospect is in the list at once, newest first, waiting to be sent.
    await vi.waitFor(() => expect(listedNames()[0]).toBe('Nora Quist'));
    expect(document.querySelector('.account-row [data-sync="pending"]')).not.toBeNull();
  });

  it('offers only the types the role may create, and says why', async () => {
    await userConfig(screen.db, ['accounts.clients.create']);
    screen.mounted = await mountAt(screen.db, '/accounts');
    await openCreate();
    expect(button(dialog(), 'Client').hasAttribute('disabled')).toBe(true);
    // Clicking it anyway changes nothing.
    await click(button(dialog(), 'Client'));
    expect(button(dialog(), 'Prospect').getAttribute('aria-pressed')).toBe('true');
    expect(dialog().textContent).toContain('Your role on the platform does not let you create clients.');
    expect(one('account-save').textContent).toContain('Create prospect');
  });
});

describe('editing an account', () => {
  it('queues only what changed, and converts a prospect to a client in the first client stage', async () => {
    await userConfig(screen.db);
    const bob = await account(screen.db, { first: 'Bob', last: 'Xu', type: 'PROSPECT', stage: 'p2' });
    screen.mounted = await mountAt(screen.db, '/accounts');
    await openEdit('Bob Xu');
    expect(dialog().textContent).toContain('Edit Bob Xu');
    expect(input('account-client-first_name').value).toBe('Bob');
    await typeText(input('account-client-email'), 'bob.xu@example.org');
    await click(one('convert'));
    expect(dialog().textContent).toContain(
      'Becomes a client when you save, in the Onboard stage of the client pipeline.',
    );
    const ops = await saveAndClose();
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ kind: 'update', recordId: bob.id });
    expect(ops[0]?.fields).toEqual({
      'client.email': 'bob.xu@example.org',
      type: 'CLIENT',
      'pipeline.id': 'c1',
    });
  });

  it('saves nothing when nothing changed', async () => {
    await userConfig(screen.db);
    await account(screen.db, { first: 'Ann', last: 'Young', co: { first: 'Al', last: 'Young' } });
    screen.mounted = await mountAt(screen.db, '/accounts');
    await openEdit('Ann Young');
    expect(input('account-coclient-first_name').value).toBe('Al');
    expect(await saveAndClose()).toEqual([]);
  });

  it('shows the form read-only, saying why, when the role may not change the account', async () => {
    await userConfig(screen.db, ['accounts.prospects.update', 'accounts.convert']);
    await account(screen.db, { first: 'Bob', last: 'Xu', type: 'PROSPECT' });
    await account(screen.db, { first: 'Ann', last: 'Young', type: 'CLIENT' });
    screen.mounted = await mountAt(screen.db, '/accounts');
    await openEdit('Bob Xu');
    expect(one('account-form-readonly').textContent).toContain(
      'Your role on the platform does not let you change prospects.',
    );
    expect(input('account-client-first_name').disabled).toBe(true);
    expect(document.querySelector('[data-testid="account-save"]')).toBeNull();
    await click(button(dialog(), 'Cancel'));
    await vi.waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
  });

  it('says why a prospect cannot be converted', async () => {
    await userConfig(screen.db, ['accounts.convert']);
    await account(screen.db, { first: 'Bob', last: 'Xu', type: 'PROSPECT' });
    screen.mounted = await mountAt(screen.db, '/accounts');
    await openEdit('Bob Xu');
    expect(one('convert').hasAttribute('disabled')).toBe(true);
    expect(dialog().textContent).toContain(
      'Your role on the platform does not let you convert a prospect to a client.',
    );
  });

  it('shows what the platform refused on the fields it named, until they are edited', async () => {
    await userConfig(screen.db);
    const ann = await account(screen.db, { first: 'Ann', last: 'Young' });
    // A change the platform answered with 422 (as the push engine records it).
    const { opId } = await updateRecord(screen.db, 'accounts', ann.id, { 'client.email': 'ann@example' });
    const op = (await outbox(screen.db)).find((o) => o.id === opId)!;
    await screen.db.outbox.put({
      ...op,
      state: 'rejected',
      lastError: {
        kind: 'validation',
        status: 422,
        message: 'The client.email field must be a valid email address.',
        fields: { 'client.email': ['The client.email field must be a valid email address.'] },
      },
    });
    await screen.db.accounts.update(ann.id, { status: 'rejected' });
    screen.mounted = await mountAt(screen.db, '/accounts');
    expect(document.querySelector('.account-row [data-sync="rejected"]')?.textContent).toContain('Refused');
    await openEdit('Ann Young');
    await settle();
    expect(one('account-form-refused').textContent).toContain('The platform refused the last change');
    expect(messages('client.email')).toEqual(['Email: enter an e-mail address such as name@example.com.']);
    await typeText(input('account-client-email'), 'ann@example.com');
    expect(messages('client.email')).toEqual([]);
    // The fix goes into the refused change, which is queued again.
    const ops = await saveAndClose();
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ state: 'queued', fields: { 'client.email': 'ann@example.com' } });
  });
});

describe('a phone in the account dialog', () => {
  it('needs its country code: a number without a calling code is not saved', async () => {
    await userConfig(screen.db);
    screen.mounted = await mountAt(screen.db, '/accounts');
    await openCreate();
    await typeText(input('account-client-first_name'), 'Nora');
    await typeText(input('account-client-last_name'), 'Quist');
    await typeText(input('account-client-email'), 'nora@example.com');
    await typeText(input('account-client-phone-code'), '');
    await typeText(input('account-client-phone-number'), '555-0199');
    await click(one('account-save'));
    expect(phoneMessages('client')).toEqual([
      'Phone: choose the country, or type its calling code such as +1.',
    ]);
    expect(await outbox(screen.db)).toEqual([]);
    await typeText(input('account-client-phone-code'), '+1');
    expect(phoneMessages('client')).toEqual([]);
  });
});

describe('closing the account dialog', () => {
  it('asks before Cancel, × or Esc lose what was typed; an untouched dialog closes at once', async () => {
    await userConfig(screen.db);
    screen.mounted = await mountAt(screen.db, '/accounts');
    await openCreate();
    // Nothing typed: Cancel closes without a question.
    await click(one('account-cancel'));
    await vi.waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());

    await openCreate();
    await typeText(input('account-client-first_name'), 'Nora');
    await click(one('account-cancel'));
    expect(one('discard-prompt').textContent).toContain('Discard the changes to this new account?');
    await click(one('discard-keep'));
    expect(input('account-client-first_name').value).toBe('Nora');
    // The dialog's ×.
    await click(dialog().querySelector('.p-dialog-close-button')!);
    expect(one('discard-prompt')).toBeTruthy();
    await click(one('discard-keep'));
    // Esc asks too; Discard closes, and nothing is queued.
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await settle();
    await click(one('discard-confirm'));
    await vi.waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(await outbox(screen.db)).toEqual([]);
  });
});

describe('a household that may already be here', () => {
  /** The warning's lines, once typing has paused and the local store answered. */
  async function warned(): Promise<string[]> {
    await vi.waitFor(() =>
      expect(document.querySelector('[data-testid="duplicate-warning"]')).not.toBeNull(),
    );
    return [...document.querySelectorAll('[data-testid="duplicate"]')].map((li) =>
      (li.textContent ?? '').replace(/\s+/g, ' ').trim(),
    );
  }
  /** Ticks “Use this email anyway”. */
  async function useEmailAnyway() {
    const box = input('duplicate-use-email');
    box.click();
    await settle();
    expect(box.checked).toBe(true);
  }
  /** The list open, and a new account's client named. */
  async function newAccountNamed(first: string, last: string) {
    screen.mounted = await mountAt(screen.db, '/accounts');
    await openCreate();
    await typeText(input('account-client-first_name'), first);
    await typeText(input('account-client-last_name'), last);
    return screen.mounted.router;
  }
  const nothingWarned = async () => {
    // Past the pause after typing, with the store's answer in.
    await new Promise((r) => setTimeout(r, 400));
    await settle();
    expect(document.querySelector('[data-testid="duplicate-warning"]')).toBeNull();
  };

  it('names the existing co-client who has the email typed, links to the account, and creates once chosen deliberately', async () => {
    await userConfig(screen.db);
    const bay = await account(screen.db, { first: 'Ada', last: 'Bay', co: { first: 'Ivo', last: 'North' } });
    await account(screen.db, { first: 'Cy', last: 'Ode' });
    await newAccountNamed('Ivo', 'North');
    expect(await warned()).toEqual([
      'Ivo North (co-client of the Bay household) has the same name (dates of birth not compared). Open Ada Bay & Ivo North',
    ]);
    await typeText(input('account-client-email'), ' IVO.North@example.com');
    await vi.waitFor(() => expect(one('duplicate-warning').textContent).toContain('ivo.north@example.com'));
    expect(await warned()).toEqual([
      'Ivo North (co-client of the Bay household) has this name and the email ivo.north@example.com. Open Ada Bay & Ivo North',
    ]);
    const warning = one('duplicate-warning');
    expect(warning.textContent).toContain('This household may already be here.');
    // Said politely, as typing goes on, not as an alarm.
    expect(warning.getAttribute('aria-live')).toBe('polite');
    expect(warning.textContent).toContain('Compared with the accounts on this computer only');
    expect(warning.textContent).toContain('You can still create this account.');
    expect(one('duplicate-open').getAttribute('href')).toContain(`/accounts/${bay.id}`);

    // Another member's email is not taken in one click (issue 23, point 13): the save asks for a
    // deliberate choice, and queues nothing until it is made.
    expect(warning.textContent).toContain(
      'You can still create this account. Tick “Use this email anyway” first.',
    );
    await click(one('account-save'));
    expect(dialog().textContent).toContain(
      'This email is already another account’s: change it, or tick “Use this email anyway”.',
    );
    expect(await outbox(screen.db)).toEqual([]);
    expect(document.activeElement).toBe(document.getElementById('duplicate-use-email'));
    await useEmailAnyway();

    // Going on anyway: the one create is queued as typed (trimmed).
    const [create, ...more] = await saveAndClose();
    expect(more).toEqual([]);
    expect(create).toMatchObject({ table: 'accounts', kind: 'create' });
    expect(create?.fields).toMatchObject({
      'client.first_name': 'Ivo',
      'client.last_name': 'North',
      'client.email': 'IVO.North@example.com',
    });
  });

  it('asks again once the email changes after the choice, and never for a name alone', async () => {
    await userConfig(screen.db);
    await account(screen.db, { first: 'Ada', last: 'Bay', co: { first: 'Ivo', last: 'North' } });
    await account(screen.db, { first: 'Cy', last: 'Ode' });
    await newAccountNamed('Ivo', 'North');
    await typeText(input('account-client-email'), 'ivo.north@example.com');
    await warned();
    await useEmailAnyway();
    // Another account's email: the choice was about the first one.
    await typeText(input('account-client-email'), 'cy.ode@example.com');
    await click(one('account-save'));
    expect(dialog()).not.toBeNull();
    expect(await outbox(screen.db)).toEqual([]);
    // An email of the new member's own: the name alone only warns, and the create goes through.
    await typeText(input('account-client-email'), 'ivo@example.org');
    const [create] = await saveAndClose();
    expect(create?.fields).toMatchObject({ 'client.email': 'ivo@example.org' });
  });

  it('opens the existing account only through the question that keeps what was typed', async () => {
    await userConfig(screen.db);
    const bay = await account(screen.db, { first: 'Ada', last: 'Bay', archived: true });
    const router = await newAccountNamed('Ada', 'Bay');
    // The name alone, without a date of birth to compare: a softer notice, archived accounts included.
    expect(await warned()).toEqual([
      'Ada Bay (client of the Bay household, archived) has the same name (dates of birth not compared). Open Ada Bay',
    ]);
    expect(one('duplicate-warning').textContent).toContain('A similar name is already here.');

    await click(one('duplicate-open'));
    expect(one('discard-prompt').textContent).toContain('Discard the changes to this new account?');
    await click(one('discard-keep'));
    expect(router.currentRoute.value.name).toBe('accounts');
    expect(input('account-client-first_name').value).toBe('Ada');
    // Cancel then Discard after Keep editing: the link was not remembered.
    await click(one('account-cancel'));
    await click(one('discard-confirm'));
    await vi.waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(router.currentRoute.value.name).toBe('accounts');

    await openCreate();
    await typeText(input('account-client-first_name'), 'Ada');
    await typeText(input('account-client-last_name'), 'Bay');
    await warned();
    await click(one('duplicate-open'));
    await click(one('discard-confirm'));
    await vi.waitFor(() => expect(router.currentRoute.value.fullPath).toBe(`/accounts/${bay.id}`));
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    expect(await outbox(screen.db)).toEqual([]);
  });

  it('warns when a co-client added to an account is in another, and not about the account itself', async () => {
    await userConfig(screen.db);
    await account(screen.db, { first: 'Ada', last: 'Bay', co: { first: 'Ivo', last: 'North' } });
    await account(screen.db, { first: 'Ann', last: 'Young' });
    screen.mounted = await mountAt(screen.db, '/accounts');
    await openEdit('Ada Bay');
    // Its own members, unchanged, are no duplicates of themselves.
    await nothingWarned();
    await click(button(dialog(), 'Cancel'));
    await vi.waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());

    await openEdit('Ann Young');
    await click(one('add-coclient'));
    await typeText(input('account-coclient-first_name'), 'Ivo');
    await typeText(input('account-coclient-last_name'), 'Young');
    await typeText(input('account-coclient-email'), 'ivo.north@example.com');
    expect(await warned()).toEqual([
      'Ivo North (co-client of the Bay household) has the email ivo.north@example.com. Typed as the co-client. Open Ada Bay & Ivo North',
    ]);
    expect(one('duplicate-warning').textContent).toContain('You can still save.');
  });
});
