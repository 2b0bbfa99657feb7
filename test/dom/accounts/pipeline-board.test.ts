// @vitest-environment happy-dom
// The pipeline board: a column per stage of the chosen pipeline, cards moved from the keyboard
// (Shift with an arrow, announced, the focus following the card) and by drag and drop, each move
// one update of `pipeline.id` through the change module; a role that may not move cards is told so;
// a card prepares its household for a meeting.

import { describe, expect, it, vi } from 'vitest';
import { useSyncStore } from '../../../renderer/src/common/sync.ts';
import { prepareDialogOpen } from '../../../renderer/src/commands/prepare-meeting.ts';
import { outbox } from '../../support/store.ts';
import {
  account,
  button,
  click,
  mountAt,
  type Mounted,
  one,
  press,
  screensPerTest,
  settle,
  userConfig,
} from './harness.ts';

const screen = screensPerTest();

const columns = () => [...document.querySelectorAll<HTMLElement>('[data-testid="board-column"]')];
const column = (title: string) => columns().find((c) => c.dataset.stage === title)!;
const cards = (title: string) =>
  [...column(title).querySelectorAll('[data-testid="board-card"] .name')].map((n) => n.textContent?.trim());
const card = (name: string) =>
  [...document.querySelectorAll<HTMLElement>('[data-testid="board-card"]')].find((c) =>
    c.querySelector('.name')?.textContent?.includes(name),
  );
const announced = () => one('board-announcement').textContent?.trim();

/** The prospect board, once its columns have read their cards. */
async function board(): Promise<Mounted> {
  const m = await mountAt(screen.db, '/accounts/board/prospect');
  await vi.waitFor(() => expect(cards('Onboard')).toHaveLength(2));
  return m;
}

async function prospects() {
  return {
    ann: await account(screen.db, { first: 'Ann', last: 'Able', type: 'PROSPECT', stage: 'p1' }),
    bob: await account(screen.db, { first: 'Bob', last: 'Bell', type: 'PROSPECT', stage: 'p1' }),
    cy: await account(screen.db, { first: 'Cy', last: 'Cole', type: 'PROSPECT', stage: 'p2' }),
    old: await account(screen.db, {
      first: 'Old',
      last: 'Ore',
      type: 'PROSPECT',
      stage: 'p3',
      archived: true,
    }),
    cli: await account(screen.db, { first: 'Cli', last: 'Ent', type: 'CLIENT', stage: 'c1' }),
  };
}

describe('the pipeline board', () => {
  it('shows a column per stage of the chosen pipeline, with its accounts', async () => {
    await userConfig(screen.db);
    await prospects();
    screen.mounted = await board();
    expect(columns().map((c) => c.dataset.stage)).toEqual(['Onboard', 'Acquire', 'Re-engage']);
    expect(cards('Onboard')).toEqual(['Ann Able', 'Bob Bell']);
    expect(cards('Acquire')).toEqual(['Cy Cole']);
    expect(column('Re-engage').textContent).toContain('No accounts in this stage.');

    await click(button(one('board-pipeline'), 'Client pipeline'));
    await settle();
    expect(screen.mounted.router.currentRoute.value.params.pipeline).toBe('client');
    expect(columns().map((c) => c.dataset.stage)).toEqual(['Onboard', 'Plan']);
    expect(cards('Onboard')).toEqual(['Cli Ent']);
  });

  it('moves the focused card a stage with Shift and an arrow, announces it and keeps the focus on it', async () => {
    await userConfig(screen.db);
    const { bob } = await prospects();
    screen.mounted = await board();
    const bobCard = card('Bob Bell')!;
    bobCard.focus();
    expect(bobCard.getAttribute('aria-describedby')).toBe('board-keys');

    await press(bobCard, 'ArrowRight', { shiftKey: true });
    await vi.waitFor(() => expect(cards('Acquire')).toEqual(['Bob Bell', 'Cy Cole']));
    expect(cards('Onboard')).toEqual(['Ann Able']);
    // The live board shows the card moved as soon as the store holds it; the move is announced
    // once its save has returned, a moment later.
    await vi.waitFor(() => expect(announced()).toBe('Bob Bell moved to Acquire, stage 2 of 3.'));
    await vi.waitFor(() => expect(document.activeElement).toBe(card('Bob Bell')));
    expect(column('Acquire').contains(document.activeElement)).toBe(true);
    let ops = await outbox(screen.db);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({
      table: 'accounts',
      recordId: bob.id,
      kind: 'update',
      fields: { 'pipeline.id': 'p2' },
    });

    // Onward, then back: still one queued change, holding the last stage.
    await press(document.activeElement!, 'ArrowRight', { shiftKey: true });
    await vi.waitFor(() => expect(cards('Re-engage')).toEqual(['Bob Bell']));
    await vi.waitFor(() => expect(document.activeElement).toBe(card('Bob Bell')));
    await press(document.activeElement!, 'ArrowRight', { shiftKey: true });
    expect(announced()).toBe('Already in the last stage.');
    await press(document.activeElement!, 'ArrowLeft', { shiftKey: true });
    await vi.waitFor(() => expect(cards('Acquire')).toContain('Bob Bell'));
    ops = await outbox(screen.db);
    expect(ops.map((o) => o.fields)).toEqual([{ 'pipeline.id': 'p2' }]);
  });

  it('walks the cards of a column with the arrows, one tab stop per column, and opens with Enter', async () => {
    await userConfig(screen.db);
    const { bob } = await prospects();
    screen.mounted = await board();
    const tabbable = [...column('Onboard').querySelectorAll('[data-testid="board-card"]')].map((c) =>
      c.getAttribute('tabindex'),
    );
    expect(tabbable).toEqual(['0', '-1']);
    card('Ann Able')!.focus();
    await press(card('Ann Able')!, 'ArrowDown');
    expect(document.activeElement).toBe(card('Bob Bell'));
    expect(card('Bob Bell')!.getAttribute('tabindex')).toBe('0');
    await press(card('Bob Bell')!, 'Enter');
    await settle();
    expect(screen.mounted.router.currentRoute.value).toMatchObject({
      name: 'account',
      params: { id: bob.id },
    });
  });

  it('prepares a household for a meeting from its card: P on the focused card, or its briefcase', async () => {
    await userConfig(screen.db);
    const { ann, bob } = await prospects();
    screen.mounted = await board();
    card('Ann Able')!.focus();
    await press(card('Ann Able')!, 'p');
    await click(card('Bob Bell')!.querySelector('[data-testid="prepare-card"]')!);
    await settle();

    // Kept offline from now on, listed in the preparation (this test's sync never reaches a
    // platform: they wait), the dialog open; the card's button did not open the account.
    expect(prepareDialogOpen.value).toBe(true);
    for (const id of [ann.id, bob.id]) expect((await screen.db.accounts.get(id))?.availableOffline).toBe(1);
    await vi.waitFor(() =>
      expect(useSyncStore().households.map((h) => [h.label, h.purpose, h.state])).toEqual([
        ['Ann Able', 'meeting', 'waiting'],
        ['Bob Bell', 'meeting', 'waiting'],
      ]),
    );
    expect(screen.mounted.router.currentRoute.value.name).toBe('account-board');
  });

  it('moves a card dropped on another stage', async () => {
    await userConfig(screen.db);
    const { ann } = await prospects();
    screen.mounted = await board();
    const data = new Map<string, string>();
    const transfer = {
      effectAllowed: 'all',
      dropEffect: 'none',
      setData: (type: string, value: string) => data.set(type, value),
      getData: (type: string) => data.get(type) ?? '',
    };
    const drag = (type: string, target: Element) => {
      const event = new Event(type, { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'dataTransfer', { value: transfer });
      target.dispatchEvent(event);
      return event;
    };
    drag('dragstart', card('Ann Able')!);
    await settle();
    // The own column takes no drop; another stage does.
    expect(drag('dragover', column('Onboard')).defaultPrevented).toBe(false);
    expect(drag('dragover', column('Re-engage')).defaultPrevented).toBe(true);
    drag('drop', column('Re-engage'));
    await vi.waitFor(() => expect(cards('Re-engage')).toEqual(['Ann Able']));
    await vi.waitFor(() => expect(announced()).toBe('Ann Able moved to Re-engage, stage 3 of 3.'));
    const ops = await outbox(screen.db);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ recordId: ann.id, fields: { 'pipeline.id': 'p3' } });
  });

  it('says why cards cannot be moved when the role may not change the accounts', async () => {
    await userConfig(screen.db, ['accounts.prospects.update']);
    await prospects();
    screen.mounted = await board();
    expect(one('board-readonly').textContent).toContain(
      'Your role on the platform does not let you change prospects.',
    );
    expect(card('Bob Bell')!.getAttribute('draggable')).toBe('false');
    card('Bob Bell')!.focus();
    await press(card('Bob Bell')!, 'ArrowRight', { shiftKey: true });
    expect(announced()).toBe('Your role on the platform does not let you change prospects.');
    expect(await outbox(screen.db)).toEqual([]);
    expect(cards('Onboard')).toEqual(['Ann Able', 'Bob Bell']);
  });
});
