// The browser preview's entry (npm run web): the app over the HTTP bridge of the preview host
// (electron/preview/). Only this entry imports that bridge: the Electron app's never carries it.

import { mountApp } from './app.ts';
import { createHttpBridge } from './common/bridge/http.ts';
import { useBridge } from './common/bridge/index.ts';

useBridge(createHttpBridge());
mountApp();
