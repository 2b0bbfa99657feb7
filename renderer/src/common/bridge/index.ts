// The one module that hands out the Bridge. In Electron it is the preload's `window.advisor`; the
// browser preview's entry (preview.ts) hands in its HTTP implementation, tests their own.

import type { Bridge } from '@shared/bridge.ts';

let current: Bridge | null = null;

export function bridge(): Bridge {
  current ??= window.advisor ?? null;
  if (!current)
    throw new Error('No bridge: Advisor Desk runs in its app, or in the browser preview (npm run web).');
  return current;
}

/** For tests and the preview: use this implementation from now on. */
export function useBridge(implementation: Bridge): void {
  current = implementation;
}

/** True when running inside the Electron app rather than the browser preview. */
export function isDesktop(): boolean {
  return window.advisor !== undefined;
}
