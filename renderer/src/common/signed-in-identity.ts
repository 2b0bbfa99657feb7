// The user and team signed in now, under which the sync sends (issue 12): the identity the main
// process keeps with the tokens (`AuthStatus.identity`), null while nobody is signed in or the
// identity is not bound yet. The one place that says where the session keeps it.

import type { StoreIdentity } from '../data/identity.ts';
// eslint-disable-next-line import-x/no-cycle -- removed by the lifecycle work
import { useSessionStore } from './session.ts';

export function signedInIdentity(): StoreIdentity | null {
  return useSessionStore().status?.identity ?? null;
}
