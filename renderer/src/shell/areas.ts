// The areas of the app, as the shell's navigation lists them. Only an area that is built is
// listed, never a page that says it is not built.

export interface Area {
  name: string;
  path: string;
  title: string;
  icon: string;
}

export const AREAS: Area[] = [
  { name: 'home', path: 'home', title: 'Home', icon: 'pi pi-home' },
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
  { name: 'forms', path: 'forms', title: 'Forms', icon: 'pi pi-file-edit' },
  { name: 'reports', path: 'reports', title: 'Reports', icon: 'pi pi-chart-bar' },
  { name: 'activity', path: 'activity', title: 'Activity', icon: 'pi pi-history' },
];
