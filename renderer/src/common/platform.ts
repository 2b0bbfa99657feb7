// Calls of the platform the app frame needs: the signed-in user and the team switch (version 2).
// Both answer the user resource, read with its schema (shared/wire/v2/user.ts).

import type { ApiResult } from '@shared/api/request.ts';
import { parseWire } from '@shared/wire/parse.ts';
import { User, type Team } from '@shared/wire/v2/user.ts';
import { bridge } from './bridge/index.ts';

export type { Team };
export type PlatformUser = User;

/** The answer's user as its schema reads it; an answer that is no user is a server failure. */
async function userOf(answer: Promise<ApiResult>): Promise<ApiResult<PlatformUser>> {
  const result = await answer;
  if (!result.ok) return result;
  const read = parseWire(User, result.data, 'user');
  if (read.ok) return { ...result, data: read.value };
  return {
    ok: false,
    kind: 'server',
    status: result.status,
    message: 'The platform sent a user that could not be read.',
    fields: {},
    retryAfterMs: null,
  };
}

export function fetchUser(): Promise<ApiResult<PlatformUser>> {
  return userOf(
    bridge().api.request({
      api: 'v2',
      method: 'GET',
      path: '/user',
      priority: 'interactive',
    }),
  );
}

export function switchTeam(id: number): Promise<ApiResult<PlatformUser>> {
  return userOf(
    bridge().api.request({
      api: 'v2',
      method: 'POST',
      path: '/user/switch',
      body: { id },
      priority: 'immediate',
    }),
  );
}
