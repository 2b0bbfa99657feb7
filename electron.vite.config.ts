// Builds the three parts of the app: main (Node, ESM), preload (CommonJS, as sandboxed preloads
// must be) and the renderer, which is the same build the browser preview serves.

import { resolve } from 'node:path';
import vue from '@vitejs/plugin-vue';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';

// Rolldown's warning about time spent in plugins is a hint for plugin authors; here it only
// printed a block of yellow text into every `npm start` and build.
const checks = { bundlerTimings: false };

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      outDir: 'out/main',
      rolldownOptions: { input: { index: resolve('electron/main/index.ts') }, checks },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    build: {
      outDir: 'out/preload',
      rolldownOptions: {
        input: { index: resolve('electron/preload/index.ts') },
        checks,
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('renderer'),
    base: './',
    plugins: [vue()],
    build: {
      outDir: resolve('out/renderer'),
      emptyOutDir: true,
      rolldownOptions: { input: resolve('renderer/index.html'), checks },
    },
  },
});
