// Calls of the platform the app frame needs: the signed-in user and the team switch (version 2).

import type { ApiResult } from '@shared/api/request.ts';
import { bridge } from './bridge.ts';

export interface Team {
  id: number;
  name: string;
}

export interface PlatformUser {
  first_name: string;
  last_name: string;
  email: string;
  photo: string | null;
  timezone: string;
  currency: string;
  team: Team | null;
  teams: Team[];
  permissions: Record<string, boolean>;
}

export function fetchUser(): Promise<ApiResult<PlatformUser>> {
  return bridge().api.request<PlatformUser>({
    api: 'v2',
    method: 'GET',
    path: '/user',
    priority: 'interactive',
  });
}

export function switchTeam(id: number): Promise<ApiResult<PlatformUser>> {
  return bridge().api.request<PlatformUser>({
    api: 'v2',
    method: 'POST',
    path: '/user/switch',
    body: { id },
    priority: 'immediate',
  });
}
