// Routes: the sign-in screen, and the app frame with one page per area. Hash history keeps every
// route inside the one page that both hosts serve.

import { createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router';
import { useSessionStore } from '../common/session.ts';
import ShellView from './ShellView.vue';
import AreaPlaceholderView from './AreaPlaceholderView.vue';
import AccountListView from '../accounts/AccountListView.vue';
import SettingsView from '../settings/SettingsView.vue';
import SignInView from '../sign-in/SignInView.vue';

export interface Area {
  name: string;
  path: string;
  title: string;
  icon: string;
  /** What the page will hold, for its empty state. */
  promise: string;
}

export const AREAS: Area[] = [
  {
    name: 'accounts',
    path: 'accounts',
    title: 'Accounts',
    icon: 'pi pi-users',
    promise: 'Your clients and prospects, their members and every financial section, available offline.',
  },
  {
    name: 'engagements',
    path: 'engagements',
    title: 'Engagements',
    icon: 'pi pi-send',
    promise: 'Questionnaires sent to account members, their answers, documents and signatures.',
  },
  {
    name: 'forms',
    path: 'forms',
    title: 'Forms',
    icon: 'pi pi-file-edit',
    promise: 'Forms sent to accounts: send, resend, close and preview them.',
  },
  {
    name: 'reports',
    path: 'reports',
    title: 'Reports',
    icon: 'pi pi-chart-bar',
    promise: 'Reports of your team and of each account, exported as PDF, Excel or CSV.',
  },
  {
    name: 'activity',
    path: 'activity',
    title: 'Activity',
    icon: 'pi pi-history',
    promise: 'What happened on your accounts and forms, newest first.',
  },
];

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

const routes: RouteRecordRaw[] = [
  { path: '/sign-in', name: 'sign-in', component: SignInView, meta: { public: true } },
  {
    path: '/',
    component: ShellView,
    children: [
      { path: '', redirect: { name: 'accounts' } },
      ...AREAS.filter((area) => area.name !== 'accounts').map((area) => ({
        path: area.path,
        name: area.name,
        component: AreaPlaceholderView,
        props: { area },
      })),
      ACCOUNT_ROUTES,
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
