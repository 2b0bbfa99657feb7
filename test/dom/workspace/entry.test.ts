// @vitest-environment happy-dom
// Keyboard-first entry in the workspace: Alt+N adds an item in the current section, Escape
// cancels (asking first when something was typed), Enter moves to the next field, Alt+↓/↑ move
// between sections, Ctrl+S saves a single-record form and leaves the cursor where it was; and the
// members' details, files and PIN reset all go through the change module.

import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import type { ComponentPublicInstance } from 'vue';
import { NUMERIC_DATE } from '../../../renderer/src/household/values.ts';
import {
  byTestId,
  choose,
  click,
  dialog,
  field,
  mountHousehold,
  mountSection,
  one,
  optionsOpen,
  outbox,
  press,
  settle,
  syncedSingle,
  typeNumber,
  typeText,
} from './harness.ts';

unmountAfterEach();

describe('keyboard-first entry', () => {
  it('a dialog shown or opened late (a slow animation) leaves the cursor where the user already took it', async () => {
    const mounted = await mountSection('assets');
    await press('n', { altKey: true }, document.body);
    const name = field(dialog(), 'name').querySelector('input') as HTMLInputElement;
    await vi.waitFor(() => expect(document.activeElement).toBe(name));
    await typeText(name, 'Lake cabin');
    await press('Enter', {}, name);
    await vi.waitFor(() => expect(field(dialog(), 'type').contains(document.activeElement)).toBe(true));
    // The dialog's show event, after the user has typed and moved on: the cursor stays theirs.
    const shown = mounted.wrapper.findAllComponents({ name: 'Dialog' }).find((d) => d.props('visible'));
    const vm = shown!.vm as ComponentPublicInstance & { focus(): void };
    vm.$emit('show');
    await settle();
    expect(field(dialog(), 'type').contains(document.activeElement)).toBe(true);
    // The end of its opening animation, later still: the dialog focuses its `[autofocus]` element.
    vm.focus();
    await settle();
    expect(field(dialog(), 'type').contains(document.activeElement)).toBe(true);
    expect(name.value).toBe('Lake cabin');
  });

  it('adds with Alt+N, cancels with Escape, moves between fields with Enter and between sections with Alt+arrows', async () => {
    const { db, router } = await mountSection('cash');

    await press('n', { altKey: true }, document.body);
    expect(one('item-dialog-title').textContent).toBe('New cash account');
    // The cursor is in the first field, ready to type.
    const name = field(dialog(), 'name').querySelector('input') as HTMLInputElement;
    await vi.waitFor(() => expect(document.activeElement).toBe(name));

    await typeText(name, 'Checking at First Bank');
    await press('Enter', {}, name);
    await vi.waitFor(() => expect(field(dialog(), 'type').contains(document.activeElement)).toBe(true));

    // Escape on a filled form asks first (issue 13: one Esc lost a filled dialog); Escape again
    // keeps editing, with the cursor where it was; Discard closes it, with nothing queued.
    const typeField = document.activeElement as HTMLElement;
    await press('Escape', {}, typeField);
    expect(one('discard-prompt').textContent).toContain('Discard the changes to this cash account?');
    expect(document.querySelector('[data-testid="item-dialog"]')).not.toBeNull();
    await press('Escape', {}, document.activeElement!);
    expect(byTestId('discard-prompt')).toEqual([]);
    await vi.waitFor(() => expect(document.activeElement).toBe(typeField));
    expect(name.value).toBe('Checking at First Bank');
    await press('Escape', {}, document.activeElement!);
    await click(one('discard-confirm'));
    await vi.waitFor(() => expect(document.querySelector('[data-testid="item-dialog"]')).toBeNull());
    expect(await outbox(db)).toEqual([]);

    await press('ArrowDown', { altKey: true }, document.body);
    expect(router.currentRoute.value.query.section).toBe('taxable');
    await press('ArrowUp', { altKey: true }, document.body);
    await press('ArrowUp', { altKey: true }, document.body);
    expect(router.currentRoute.value.query.section).toBe('assets');
  });

  it('Enter on a closed select moves on and keeps its value; with its list open, Enter chooses', async () => {
    const { db } = await mountSection('cash');
    await press('n', { altKey: true }, document.body);
    const combobox = (name: string) =>
      field(dialog(), name).querySelector<HTMLElement>('[role="combobox"]') as HTMLElement;
    const shown = (name: string) =>
      field(dialog(), name).querySelector('.p-select-label')?.textContent?.trim();
    const name = field(dialog(), 'name').querySelector('input') as HTMLInputElement;
    await vi.waitFor(() => expect(document.activeElement).toBe(name));
    await typeText(name, 'Checking at First Bank');
    await press('Enter', {}, name);
    await vi.waitFor(() => expect(document.activeElement).toBe(combobox('type')));

    // Closed, the type's list stays closed: Enter goes on to the owner, the type still unchosen.
    await press('Enter');
    await vi.waitFor(() => expect(document.activeElement).toBe(combobox('owner')));
    expect(optionsOpen()).toEqual([]);
    expect(combobox('type').getAttribute('aria-expanded')).toBe('false');
    expect(shown('type')).toBe('Choose…');

    // Space opens the owner's list; ↓ and Enter choose; the cursor stays on the select, its list closed.
    await press(' ', { code: 'Space' });
    await vi.waitFor(() => expect(optionsOpen().map((o) => o.textContent?.trim())).toContain('Joint'));
    expect(combobox('owner').getAttribute('aria-expanded')).toBe('true');
    const focusedOption = () =>
      optionsOpen()
        .find((o) => o.classList.contains('p-focus'))
        ?.textContent?.trim();
    for (let i = 0; i < optionsOpen().length && focusedOption() !== 'Joint'; i++) await press('ArrowDown');
    expect(focusedOption()).toBe('Joint');
    await press('Enter');
    await vi.waitFor(() => expect(optionsOpen()).toEqual([]));
    expect(shown('owner')).toBe('Joint');
    expect(document.activeElement).toBe(combobox('owner'));

    // Enter again, the list closed, moves on and keeps the choice.
    await press('Enter');
    const amount = field(dialog(), 'current_value').querySelector('input') as HTMLInputElement;
    await vi.waitFor(() => expect(document.activeElement).toBe(amount));
    expect(shown('owner')).toBe('Joint');
    amount.value = '1200';
    await press('Enter', {}, amount);
    const provider = field(dialog(), 'provider').querySelector('input') as HTMLInputElement;
    await vi.waitFor(() => expect(document.activeElement).toBe(provider));

    // A balance has no frequency beside it (issue 23, point 12): the amount is the whole field.
    expect(field(dialog(), 'current_value').querySelector('[role="combobox"]')).toBeNull();

    // The type by the mouse (the keys were shown on the owner): back on a select it left less than
    // 100 ms before, PrimeVue would still forget the option under the cursor as Enter arrives.
    await choose(dialog(), 'type', 'Checking');

    // A closed date picker moves on too: on the last field, Enter saves.
    const endDate = field(dialog(), 'end_date').querySelector('input') as HTMLInputElement;
    endDate.focus();
    await press('Enter', {}, endDate);
    await vi.waitFor(async () => expect(await outbox(db)).toHaveLength(1));
    expect((await outbox(db))[0]).toMatchObject({
      kind: 'create',
      fields: {
        name: 'Checking at First Bank',
        type: 'checking',
        owner: { type: 'joint' },
        current_value: { value: 1200 },
      },
    });
  });

  it('never leaves the cursor on the window: the title on opening, "Add" after Alt+F or a jump to a section', async () => {
    (document.activeElement as HTMLElement | null)?.blur();
    const { router } = await mountHousehold();

    // Opened with the cursor nowhere (the page before it is gone): the title has it.
    await vi.waitFor(() => expect(document.activeElement).toBe(one('workspace-title')));

    // Alt+F from the overview: the sections are drawn, the cursor on the first one's "Add".
    await press('f', { altKey: true });
    await vi.waitFor(() => expect(router.currentRoute.value.query.tab).toBe('financials'));
    await vi.waitFor(() => expect(document.activeElement).toBe(one('add-item')));
    const firstAdd = one('add-item');

    // Another section by the address (as the palette jumps): the old "Add" went with its table,
    // the new one takes the cursor.
    await router.replace({ query: { ...router.currentRoute.value.query, section: 'assets' } });
    await settle();
    await vi.waitFor(() => expect(document.activeElement).toBe(one('add-item')));
    expect(document.activeElement).not.toBe(firstAdd);
    expect(document.querySelector('[data-section="assets"]')?.getAttribute('aria-current')).toBe('page');
  });

  it('saves a single-record section with Ctrl+S, keeping the cursor in place', async () => {
    const { db, account } = await mountSection('expenses-fixed', (db, account) =>
      syncedSingle(db, account.id, 'expenses-fixed', {
        rent: 0,
        mortgage: { value: 2100, frequency: 'monthly' },
      }),
    );

    const page = one('single-expenses-fixed');
    expect((field(page, 'mortgage').querySelector('input') as HTMLInputElement).value).toBe('$2,100');
    await typeNumber(page, 'mortgage', 2450);
    await typeNumber(page, 'auto_insurance', 180);
    expect(one('unsaved').textContent).toBe('Unsaved changes');

    const input = field(page, 'auto_insurance').querySelector('input') as HTMLInputElement;
    input.focus();
    await press('s', { ctrlKey: true }, input);

    const [op] = await outbox(db);
    expect(op).toMatchObject({
      table: 'singles',
      recordId: `${account.id}:expenses-fixed`,
      kind: 'update',
      fields: {
        mortgage: { value: 2450, frequency: 'monthly' },
        auto_insurance: { value: 180, frequency: 'monthly' },
      },
    });
    // Only what changed: the untouched rent (a plain 0) is not sent again.
    expect(Object.keys(op!.fields).sort()).toEqual(['auto_insurance', 'mortgage']);
    expect(document.activeElement).toBe(input);
    await settle();
    expect(document.querySelector('[data-testid="unsaved"]')).toBeNull();
  });
});

describe('members', () => {
  it('edits the full member details, uploads a photo and resets the PIN, all queued', async () => {
    const { db, account } = await mountHousehold(
      { tab: 'members', member: 'coclient' },
      async (db, account) => {
        await syncedSingle(db, account.id, 'details:coclient', {
          first_name: 'Bob',
          last_name: 'Tester',
          email: 'bob@example.com',
          'address.city': 'Salem',
          birth_date: '1979-05-02 00:00:00',
          photo: null,
        });
        await db.memberSecurity.put({
          id: '7:coclient',
          accountServerId: 7,
          member: 'coclient',
          status: 'BLOCKED',
          server: { account_id: 7, type: 'co-client', status: 'BLOCKED' },
          pulledAt: Date.now(),
        });
      },
    );

    const page = one('single-details:coclient');
    // Every group of the member details is there.
    for (const group of ['Identity', 'Contact', 'Driver’s license', 'Planning'])
      expect(page.textContent).toContain(group);
    // Shown as the user writes dates (stored as the interface's 1979-05-02).
    expect((field(page, 'birth_date').querySelector('input') as HTMLInputElement).value).toBe(
      new Intl.DateTimeFormat(navigator.language, NUMERIC_DATE).format(new Date(1979, 4, 2)),
    );
    expect(one('security-status').textContent).toBe('Blocked');

    // Clearing a required field says so in the server's words; nothing is saved.
    const email = field(page, 'email').querySelector('input') as HTMLInputElement;
    await typeText(email, '');
    await click(one('single-save'));
    expect(field(page, 'email').textContent).toContain('E-mail: required, fill it in.');
    expect(await outbox(db)).toEqual([]);

    await typeText(email, 'bob@tester.family');
    await typeText(field(page, 'address.city').querySelector('input') as HTMLInputElement, 'Boston');
    await click(one('single-save'));
    const [details] = await outbox(db);
    // The date kept as the platform wrote it is not "changed" by showing it without a time.
    expect(details).toMatchObject({
      table: 'singles',
      recordId: `${account.id}:details:coclient`,
      fields: { email: 'bob@tester.family', 'address.city': 'Boston' },
    });
    expect(Object.keys(details!.fields).sort()).toEqual(['address.city', 'email']);

    const photo = one('member-photo').querySelector('input[type="file"]') as HTMLInputElement;
    const file = new File([new Uint8Array([137, 80, 78, 71, 1, 2, 3])], 'bob.png', { type: 'image/png' });
    Object.defineProperty(photo, 'files', { value: [file] });
    photo.dispatchEvent(new Event('change'));
    await vi.waitFor(async () => expect((await outbox(db)).some((op) => op.kind === 'upload')).toBe(true));
    const upload = (await outbox(db)).find((op) => op.kind === 'upload');
    expect(upload).toMatchObject({ fields: { photo: { filename: 'bob.png', filetype: 'image/png' } } });
    await vi.waitFor(() => expect(one('member-photo').textContent).toContain('bob.png'));
    expect(one('member-photo').textContent).toContain('waiting to upload');

    await click(one('reset-pin'));
    const reset = (await outbox(db)).find((op) => op.kind === 'resetPin');
    expect(reset).toMatchObject({ table: 'accounts', recordId: account.id, fields: { member: 'coclient' } });
    await vi.waitFor(() => expect(one('reset-pin').textContent).toContain('PIN reset queued'));
  });
});

describe('the cursor after a tab switch by keyboard', () => {
  const inWorkspace = () => document.querySelector('section.workspace')?.contains(document.activeElement);

  it('Alt+O from the financial sections lands on the overview’s heading', async () => {
    const { router } = await mountSection('assets');
    await vi.waitFor(() => expect(one('add-item')).toBeTruthy());
    // The cursor on the section's "Add", which goes away with the tab.
    one('add-item').focus();

    await press('o', { altKey: true });
    await vi.waitFor(() => expect(router.currentRoute.value.query.tab).toBe('overview'));
    await vi.waitFor(() => expect(document.activeElement).toBe(one('overview-title')));
    expect(document.activeElement?.textContent).toBe('Overview');
    expect(inWorkspace()).toBe(true);
  });

  it('Alt+M from the financial sections lands in the member’s first field', async () => {
    const { router } = await mountSection('assets');
    await vi.waitFor(() => expect(one('add-item')).toBeTruthy());
    one('add-item').focus();

    await press('m', { altKey: true });
    await vi.waitFor(() => expect(router.currentRoute.value.query.tab).toBe('members'));
    await vi.waitFor(() =>
      expect(document.activeElement).toBe(
        field(one('single-details:client'), 'first_name').querySelector('input'),
      ),
    );
    expect(inWorkspace()).toBe(true);
  });
});

describe('Alt+↓ / Alt+↑ on a select belong to the select', () => {
  const select = (root: ParentNode, name: string) =>
    field(root, name).querySelector<HTMLElement>('[role="combobox"]') as HTMLElement;

  it('in a single-record form: Alt+↓ opens the list, Alt+↑ closes it, the section stays', async () => {
    const { router } = await mountSection('expenses-fixed');
    await vi.waitFor(() => expect(one('single-expenses-fixed')).toBeTruthy());
    // The mortgage's frequency, a select beside its amount.
    const frequency = select(one('single-expenses-fixed'), 'mortgage');
    expect(frequency.getAttribute('aria-label')).toBe('Mortgage: how often');
    frequency.focus();

    // Closed, Alt+↑ leaves it closed, and is no move to the previous section.
    await press('ArrowUp', { altKey: true });
    expect(router.currentRoute.value.query.section).toBe('expenses-fixed');
    expect(optionsOpen()).toEqual([]);

    await press('ArrowDown', { altKey: true });
    await vi.waitFor(() => expect(optionsOpen().map((o) => o.textContent?.trim())).toContain('Yearly'));
    expect(frequency.getAttribute('aria-expanded')).toBe('true');
    expect(router.currentRoute.value.query.section).toBe('expenses-fixed');
    expect(document.activeElement).toBe(frequency);

    await press('ArrowUp', { altKey: true });
    await vi.waitFor(() => expect(optionsOpen()).toEqual([]));
    expect(router.currentRoute.value.query.section).toBe('expenses-fixed');
    expect(document.activeElement).toBe(frequency);

    // From a field that is no list, Alt+↓ still moves to the next section.
    const rent = field(one('single-expenses-fixed'), 'rent').querySelector('input') as HTMLInputElement;
    rent.focus();
    await press('ArrowDown', { altKey: true });
    expect(router.currentRoute.value.query.section).not.toBe('expenses-fixed');
  });

  it('on the members: Alt+↓ opens the list and the tab stays; from a text field it goes to the sections', async () => {
    const { router } = await mountHousehold({ tab: 'members' });
    await vi.waitFor(() => expect(one('single-details:client')).toBeTruthy());
    const marital = select(one('single-details:client'), 'marital_status');
    marital.focus();

    await press('ArrowDown', { altKey: true });
    await vi.waitFor(() => expect(optionsOpen().map((o) => o.textContent?.trim())).toContain('Married'));
    expect(marital.getAttribute('aria-expanded')).toBe('true');
    expect(router.currentRoute.value.query.tab).toBe('members');
    expect(document.activeElement).toBe(marital);
    await press('Escape');
    await vi.waitFor(() => expect(optionsOpen()).toEqual([]));

    // From the first name, Alt+↓ is the way to the sections: the cursor goes along, into the section.
    const first = field(one('single-details:client'), 'first_name').querySelector(
      'input',
    ) as HTMLInputElement;
    first.focus();
    await press('ArrowDown', { altKey: true });
    await vi.waitFor(() => expect(router.currentRoute.value.query.tab).toBe('financials'));
    await vi.waitFor(() => expect(document.activeElement).toBe(one('add-item')));
  });
});
