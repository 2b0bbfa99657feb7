// Routes: the sign-in screen, and the app frame with one page per area (home, accounts,
// activity, settings); the frame opens on Home. Hash history keeps every
// route inside the one page that both hosts serve.

import { createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router';
import { useSessionStore } from '../common/session.ts';
import ShellView from './ShellView.vue';
import AccountListView from '../accounts/AccountListView.vue';
import HomeView from '../home/HomeView.vue';
import SettingsView from '../settings/SettingsView.vue';
import SignInView from '../sign-in/SignInView.vue';

/** The accounts area: the list (its landing page), the pipeline board, and one account. */
const ACCOUNT_ROUTES: RouteRecordRaw = {
  path: 'accounts',
  children: [
    { path: '', name: 'accounts', component: AccountListView },
    {
      // `prospect` or `client`: the user resource gives each pipeline stage an account type.
      path: 'board/:pipeline?',
      name: 'account-board',
      component: () => import('../accounts/PipelineBoardView.vue'),
    },
    {
      path: ':id',
      name: 'account',
      component: () => import('../workspace/AccountWorkspaceView.vue'),
    },
  ],
};

/** The engagements area: every questionnaire of the team, and one engagement. */
const ENGAGEMENT_ROUTES: RouteRecordRaw = {
  path: 'engagements',
  children: [
    {
      path: '',
      name: 'engagements',
      component: () => import('../engagements/EngagementListView.vue'),
    },
    {
      path: ':id',
      name: 'engagement',
      component: () => import('../engagements/EngagementDetailView.vue'),
    },
  ],
};

const routes: RouteRecordRaw[] = [
  { path: '/sign-in', name: 'sign-in', component: SignInView, meta: { public: true } },
  {
    path: '/',
    component: ShellView,
    children: [
      { path: '', redirect: { name: 'home' } },
      { path: 'home', name: 'home', component: HomeView },
      ACCOUNT_ROUTES,
      ENGAGEMENT_ROUTES,
      { path: 'activity', name: 'activity', component: () => import('../activity/ActivityView.vue') },
      { path: 'forms', name: 'forms', component: () => import('../forms/FormsView.vue') },
      { path: 'reports', name: 'reports', component: () => import('../reports/ReportsView.vue') },
      { path: 'settings', name: 'settings', component: SettingsView },
    ],
  },
  { path: '/:pathMatch(.*)*', redirect: '/' },
];

export function createAppRouter() {
  const router = createRouter({ history: createWebHashHistory(), routes });
  router.beforeEach(async (to) => {
    if (to.meta.public) return true;
    const session = useSessionStore();
    const status = session.status ?? (await session.refreshStatus());
    return status.v2.signedIn && status.v0.signedIn
      ? true
      : { name: 'sign-in', query: { next: to.fullPath } };
  });
  return router;
}
