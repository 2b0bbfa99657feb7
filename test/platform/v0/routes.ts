import type { Router } from '../router.ts';
export function registerV0(_r: Router): void {}
