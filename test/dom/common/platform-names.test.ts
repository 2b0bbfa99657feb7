// @vitest-environment happy-dom
// Names from the platform with characters that draw nothing or reorder the text (issue 24) on the
// Reports screen, in the team switcher and beside the budget: each report's title, description
// and tags, each team's name and each item named beside its budget line sit in a <bdi> with every
// hidden character drawn as its mark (its code); the file a report is saved as is named as it
// will be written on disk, the `_` for U+202E marked.

import { flushPromises, mount, type MountingOptions } from '@vue/test-utils';
import Dexie from 'dexie';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import Tooltip from 'primevue/tooltip';
import { describe, expect, it, vi } from 'vitest';
import { h } from 'vue';
import { createMemoryHistory, createRouter, RouterView } from 'vue-router';
import type { PlatformUser } from '../../../renderer/src/common/platform.ts';
import { useSessionStore } from '../../../renderer/src/common/session.ts';
import type { ReportRow } from '../../../renderer/src/data/model.ts';
import { useLocalDb } from '../../../renderer/src/data/identity/current-store.ts';
import ReportsView from '../../../renderer/src/reports/ReportsView.vue';
import BudgetPayments from '../../../renderer/src/workspace/BudgetPayments.vue';
import TeamSwitcher from '../../../renderer/src/shell/TeamSwitcher.vue';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { marksIn, withoutCodes } from '../../support/dom/platform-text.ts';
import { fakeIdb, openDb } from '../../support/store.ts';

Object.assign(Dexie.dependencies, fakeIdb);
unmountAfterEach();

/** The app's plugins as the shell installs them. */
const plugins = (): Plugin[] => [createPinia(), [PrimeVue, { theme: 'none' }], ToastService];
type Plugin = NonNullable<NonNullable<MountingOptions<unknown>['global']>['plugins']>[number];

const byTestId = (id: string) => [...document.body.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];
function one(id: string): HTMLElement {
  const all = byTestId(id);
  if (all.length !== 1) throw new Error(`Expected one [data-testid="${id}"], found ${all.length}.`);
  return all[0]!;
}

/** The text as drawn: each hidden character as its code. */
const drawn = (el: Element) => el.textContent?.trim();

/** `el` holds the platform's text in one <bdi>, drawn with these marks, and no raw hidden character. */
function expectIsolated(el: Element, shown: string, marks: string[]) {
  const bdi = el.querySelector('bdi');
  expect(bdi).not.toBeNull();
  expect(drawn(bdi!)).toBe(shown);
  expect(marksIn(bdi!)).toEqual(marks);
  expect(el.textContent).not.toMatch(/[\u202E\u061C\u200B]/);
}

function report(id: string, server: Partial<ReportRow['server']>): ReportRow {
  return {
    id,
    key: id,
    type: 'DATADEFINITION',
    pulledAt: 1,
    server: {
      id,
      key: id,
      type: 'DATADEFINITION',
      source: 'd1',
      title: '',
      description: '',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      tags: [],
      ...server,
    },
  };
}

describe('the Reports screen', () => {
  it('isolates each report’s title, description and tags, and names its file as written on disk', async () => {
    const db = openDb();
    await db.reports.put(
      report('r1', {
        title: 'Household \u202Eweivrevo',
        description: 'Every\u061C household',
        tags: ['net\u200Bworth', 'plain'],
      }),
    );
    useLocalDb(db);
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [
        { path: '/reports', name: 'reports', component: ReportsView },
        { path: '/accounts', name: 'accounts', component: { render: () => h('div') } },
      ],
    });
    await router.push('/reports');
    await router.isReady();
    mount(RouterView, {
      attachTo: document.body,
      global: { plugins: [...plugins(), router], directives: { tooltip: Tooltip } },
    });
    await vi.waitFor(() => expect(byTestId('report-item')).toHaveLength(1));

    const item = one('report-item');
    expectIsolated(item.querySelector('[data-testid="report-title"]')!, 'Household U+202Eweivrevo', [
      'U+202E',
    ]);
    const tags = item.querySelector('[data-testid="report-tags"]')!;
    // Each tag its own isolate; the joining dot is the app's.
    expect([...tags.querySelectorAll('bdi')].map(drawn)).toEqual(['netU+200Bworth', 'plain']);
    expect(marksIn(tags)).toEqual(['U+200B']);
    expect(tags.textContent).not.toContain('\u200B');

    await vi.waitFor(() => expect(byTestId('report-heading')).toHaveLength(1));
    expectIsolated(one('report-heading'), 'Household U+202Eweivrevo', ['U+202E']);
    expectIsolated(one('report-description'), 'EveryU+061C household', ['U+061C']);

    // The name the save dialog suggests, as it goes to disk: the `_` that stands for U+202E marked.
    await vi.waitFor(() => expect(byTestId('report-file-name')).toHaveLength(1));
    const fileName = one('report-file-name');
    expect(withoutCodes(fileName.querySelector('bdi')!)).toMatch(
      /^Household _weivrevo – All households – \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\.pdf$/,
    );
    const mark = fileName.querySelector<HTMLElement>('[data-testid="hidden-char"]')!;
    expect(mark.textContent).toBe('_U+202E');
    expect(mark.getAttribute('aria-label')).toBe(
      'Hidden character U+202E (right-to-left override), written as “_”',
    );
    expect(fileName.textContent).not.toContain('\u202E');
  });
});

describe('the team switcher', () => {
  it('shows the current team’s name and each team of the list isolated, hidden characters marked', async () => {
    const db = openDb();
    useLocalDb(db);
    mount(TeamSwitcher, { attachTo: document.body, global: { plugins: plugins() } });
    const teams = [
      { id: 1, name: 'Main\u061CStreet\u200BAdvisors' },
      { id: 2, name: 'Harbor \u202Ehtlaew' },
    ];
    useSessionStore().user = { team: teams[0], teams } as unknown as PlatformUser;
    await flushPromises();

    const switcher = one('team-switcher');
    const current = switcher.querySelector('[data-testid="team-name"]')!;
    expect(current).not.toBeNull();
    expect(current.tagName).toBe('BDI');
    expect(drawn(current)).toBe('MainU+061CStreetU+200BAdvisors');
    expect(marksIn(current)).toEqual(['U+061C', 'U+200B']);
    expect(switcher.textContent).not.toMatch(/[\u061C\u200B]/);

    // The list, opened: every team's name isolated, its option named with the characters spelt out.
    switcher.click();
    await vi.waitFor(() => expect(document.body.querySelectorAll('[role="option"]')).toHaveLength(2));
    const options = [...document.body.querySelectorAll<HTMLElement>('[role="option"]')];
    expect(options.map((o) => drawn(o.querySelector('bdi')!))).toEqual([
      'MainU+061CStreetU+200BAdvisors',
      'Harbor U+202Ehtlaew',
    ]);
    expect(options.map((o) => marksIn(o))).toEqual([['U+061C', 'U+200B'], ['U+202E']]);
    expect(options.map((o) => o.getAttribute('aria-label'))).toEqual([
      'Main[U+061C]Street[U+200B]Advisors',
      'Harbor [U+202E]htlaew',
    ]);
    for (const option of options) expect(option.textContent).not.toMatch(/[\u202E\u061C\u200B]/);
  });
});

describe('the payments beside the budget', () => {
  it('names each item by its name isolated, marked, and the kind of item in the app’s words', () => {
    const monthly = (value: number) => ({ value, frequency: 'monthly' });
    mount(BudgetPayments, {
      attachTo: document.body,
      props: {
        items: [
          {
            section: 'liabilities',
            fields: { name: '\u202Eegagtrom', type: 'fixed', cost_value: monthly(1_650) },
          },
          {
            section: 'liabilities',
            fields: { name: 'Car\u200Bloan', type: 'auto', cost_value: monthly(420) },
          },
          {
            section: 'insurance',
            fields: {
              name: 'Term\u061Clife',
              type: 'term',
              premium_value: { value: 900, frequency: 'yearly' },
            },
          },
        ],
        fixed: { mortgage: monthly(1_650) },
        missing: [],
        net: null,
        currency: 'USD',
      },
      global: { plugins: plugins() },
    });

    const mortgage = document.body.querySelector('tr[data-line="mortgage"] th')!;
    expect(mortgage).not.toBeNull();
    const names = [...mortgage.querySelectorAll('bdi')];
    expect(names.map(drawn)).toEqual(['U+202Eegagtrom']);
    expect(mortgage.textContent?.replace(/\s+/g, ' ')).toContain('U+202Eegagtrom (liability)');
    expect(mortgage.textContent).not.toContain('\u202E');
    const all = one('budget-payments');
    expect(marksIn(all).sort()).toEqual(['U+061C', 'U+200B', 'U+202E']);
    expect(all.textContent).not.toMatch(/[\u202E\u061C\u200B]/);
  });
});
