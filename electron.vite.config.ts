// Builds the three parts of the app: main (Node, ESM), preload (CommonJS, as sandboxed preloads
// must be) and the renderer, which the browser preview serves too, from an entry of its own
// (preview.html: the HTTP bridge) beside the app's (index.html).

import { resolve } from 'node:path';
import vue from '@vitejs/plugin-vue';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';

/** `@shared/…` is the project's shared/ folder in every part, as tsconfig.json's `paths` say. */
export const SHARED_ALIAS = { '@shared': resolve(import.meta.dirname, 'shared') };

// Rolldown's warning about time spent in plugins is a hint for plugin authors; here it only
// printed a block of yellow text into every `npm start` and build.
const checks = { bundlerTimings: false };

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    resolve: { alias: SHARED_ALIAS },
    // The public key that verifies updates (electron/main/updates/update-signature.ts): given by
    // the release's environment, never read from a file the installed app could have changed.
    define: { __UPDATE_PUBLIC_KEY__: JSON.stringify(process.env.ADVISOR_UPDATE_PUBLIC_KEY ?? '') },
    build: {
      outDir: 'out/main',
      rolldownOptions: { input: { index: resolve('electron/main/index.ts') }, checks },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    resolve: { alias: SHARED_ALIAS },
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
    resolve: { alias: SHARED_ALIAS },
    build: {
      outDir: resolve('out/renderer'),
      emptyOutDir: true,
      rolldownOptions: {
        input: { index: resolve('renderer/index.html'), preview: resolve('renderer/preview.html') },
        checks,
      },
    },
  },
});
