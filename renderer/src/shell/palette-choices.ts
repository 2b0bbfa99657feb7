// The command palette's choices that do not depend on what is on screen: the app's commands
// ("New account…", "Prepare for a meeting…") and every area of the navigation, the pipeline board
// and Settings, each with words that find it by what the advisor looks for.

import type { Router } from 'vue-router';
import { askNewAccount } from '../commands/new-account.ts';
import { choosePrepared } from '../commands/prepare-meeting.ts';
import { AREAS } from './areas.ts';

export interface Choice {
  id: string;
  group: 'Commands' | 'This account' | 'Accounts' | 'Go to';
  title: string;
  detail?: string;
  keys?: string;
  icon: string;
  run: () => void;
}

/** What each area holds, so that it is found by what the advisor looks for, not only by its name. */
const AREA_DETAILS: Record<string, string> = {
  home: 'Statistics, households prepared for a meeting, changes to send',
  accounts: 'Every household on this computer',
  engagements: 'Questionnaires sent to households',
  forms: 'The platform’s forms sent to households',
  reports: 'The platform’s team reports',
  activity: 'Your activity feed',
};

export function appChoices(router: Router): { commands: Choice[]; areas: Choice[] } {
  const go = (name: string) => () => void router.push({ name });
  const commands: Choice[] = [
    {
      id: 'command:new-account',
      group: 'Commands',
      title: 'New account…',
      detail: 'Create a prospect or a client',
      icon: 'pi pi-user-plus',
      run: () => {
        askNewAccount();
        go('accounts')();
      },
    },
    {
      id: 'command:prepare-meeting',
      group: 'Commands',
      title: 'Prepare for a meeting…',
      detail: 'Choose households to keep offline and fetch whole',
      icon: 'pi pi-briefcase',
      run: choosePrepared,
    },
  ];
  const areas: Choice[] = [
    ...AREAS.map((area): Choice => ({
      id: `area:${area.name}`,
      group: 'Go to',
      title: area.title,
      detail: AREA_DETAILS[area.name],
      icon: area.icon,
      run: go(area.name),
    })),
    {
      id: 'area:account-board',
      group: 'Go to',
      title: 'Pipeline board',
      detail: 'Households by pipeline stage',
      icon: 'pi pi-th-large',
      run: go('account-board'),
    },
    {
      id: 'area:settings',
      group: 'Go to',
      title: 'Settings',
      detail: 'Connection profile, theme, updates, diagnostics',
      icon: 'pi pi-cog',
      run: go('settings'),
    },
  ];
  return { commands, areas };
}
