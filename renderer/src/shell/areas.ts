// The areas of the app, as the shell's navigation lists them. Only an area that is built is
// listed: forms, reports and activity join when their screens exist (issue 16),
// never before as a page that says it is not built.

export interface Area {
  name: string;
  path: string;
  title: string;
  icon: string;
}

export const AREAS: Area[] = [
  {
    name: 'accounts',
    path: 'accounts',
    title: 'Accounts',
    icon: 'pi pi-users',
  },
  {
    name: 'engagements',
    path: 'engagements',
    title: 'Engagements',
    icon: 'pi pi-send',
  },
];
