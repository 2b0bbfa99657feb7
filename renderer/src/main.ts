// The Electron app's renderer entry: the app over the preload's bridge (`window.advisor`).

import { mountApp } from './app.ts';

mountApp();
