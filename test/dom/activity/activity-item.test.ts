// @vitest-environment happy-dom
// An activity entry's link: the feed names no form or questionnaire, so an entry about one opens
// its household's Forms or Engagements tab, where the household's forms and questionnaires are
// listed; any other entry opens the household as it is.

import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { h } from 'vue';
import { createMemoryHistory, createRouter } from 'vue-router';
import ActivityItem from '../../../renderer/src/activity/ActivityItem.vue';
import { activityType } from '../../../renderer/src/activity-feed/activity-types.ts';
import type { ActivityEntry } from '../../../renderer/src/activity-feed/feed.ts';

unmountAfterEach();

const router = createRouter({
  history: createMemoryHistory(),
  routes: [
    { path: '/', component: { render: () => h('div') } },
    { path: '/accounts/:id', name: 'account', component: { render: () => h('div') } },
  ],
});

function linkOf(type: string, accountId: string | null = 'a-7'): string | null {
  const entry: ActivityEntry = {
    id: 1,
    kind: activityType(type),
    description: 'Ann Tester',
    when: 'Nov 1, 2026, 10:00 AM',
    accountId,
  };
  const wrapper = mount(ActivityItem, { props: { entry, linked: true }, global: { plugins: [router] } });
  const href = wrapper.find('[data-testid="activity-account-link"]');
  const found = href.exists() ? href.attributes('href')! : null;
  return found;
}

describe('an activity entry’s link', () => {
  it('opens the household’s Forms tab for an entry about a form', () => {
    expect(linkOf('form.sent')).toBe('/accounts/a-7?tab=forms');
    expect(linkOf('form.closed')).toBe('/accounts/a-7?tab=forms');
  });

  it('opens the household’s Engagements tab for an entry about a questionnaire', () => {
    expect(linkOf('engagement.completed')).toBe('/accounts/a-7?tab=engagements');
  });

  it('opens the household itself for an entry about the account, and links nothing without one', () => {
    expect(linkOf('account.client.created')).toBe('/accounts/a-7');
    expect(linkOf('form.sent', null)).toBeNull();
  });
});
