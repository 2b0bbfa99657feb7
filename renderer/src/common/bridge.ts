// The one module that reaches `window.advisor`. Stores ask it for the Bridge; tests hand in another.

import type { Bridge } from '@shared/bridge.ts';
import { createHttpBridge } from './http-bridge.ts';

let current: Bridge | null = null;

export function bridge(): Bridge {
  current ??= window.advisor ?? createHttpBridge();
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
