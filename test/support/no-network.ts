// The transport's answer when the machine has no network, as the main process gives it to the
// renderer: what the bridges of the component and store tests answer offline.

import type { ApiFailure } from '@shared/api/request.ts';

export const NO_NETWORK: ApiFailure = {
  ok: false,
  kind: 'network',
  status: null,
  message: 'The platform could not be reached. Check the network connection.',
  fields: {},
  retryAfterMs: null,
};
