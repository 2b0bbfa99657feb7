// The port every platform call of the sync engine goes through: `bridge().api.request` in the app,
// the main-side Transport in Node tests and the chaos runner.

import type { ApiRequest, ApiResult } from '@shared/api/request.ts';

export type Send = (req: ApiRequest) => Promise<ApiResult>;
