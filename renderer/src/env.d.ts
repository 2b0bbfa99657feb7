/// <reference types="vite/client" />

import type { Bridge } from '@shared/bridge.ts';

declare global {
  interface Window {
    /** Present in Electron (the preload); absent in the browser preview, which talks HTTP to its host. */
    advisor?: Bridge;
  }
}
