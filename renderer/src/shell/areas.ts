// The areas of the app, as the shell's navigation lists them and the router mounts them.

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
