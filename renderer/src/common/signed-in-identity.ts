// The user and team signed in now, under which the sync sends (issue 12): the identity the main
// process keeps with the tokens (`AuthStatus.identity`), null while nobody is signed in. The one
// place that says where the session keeps it.

import type { AuthStatus } from '@shared/auth.ts';
import type { StoreIdentity } from '../data/identity.ts';
import { useSessionStore } from './session.ts';

/** `AuthStatus` as it carries the identity once the session binds one (branch i12-stores). */
type StatusWithIdentity = AuthStatus & { identity?: StoreIdentity | null };

export function signedInIdentity(): StoreIdentity | null {
  const status: StatusWithIdentity | null = useSessionStore().status;
  return status?.identity ?? null;
}
