import vue from '@vitejs/plugin-vue';
import { configDefaults, defineConfig } from 'vitest/config';
import { SHARED_ALIAS } from './electron.vite.config.ts';

/**
 * The test files of the Node layers that replace a module (`vi.mock`) and import the code under
 * test afresh in each test: they need a module registry of their own, which the Node layers'
 * shared one (below) would hand them already filled. test/unit/suite/own-modules.test.ts fails
 * when a file that mocks a module is missing here.
 */
export const OWN_MODULES = ['test/unit/ipc/main-process.test.ts'];

// Every layer of the suite runs here; the layers are told apart by folder (DESIGN.md §6).
// Component tests import .vue files (and pick happy-dom with a `@vitest-environment` comment).
export default defineConfig({
  plugins: [vue()],
  // Modules resolve as in the build: `@shared/…` is the project's shared/ folder.
  resolve: { alias: SHARED_ALIAS },
  test: {
    // Waits bounded as under a second load (test/support/setup.ts).
    setupFiles: ['test/support/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: keep the platform servers the tests start from starving each other.
    maxWorkers: 2,
    projects: [
      // Component tests: each file in a fresh module registry and DOM (Pinia, the router, PrimeVue
      // and happy-dom keep state in modules and globals).
      { extends: true, test: { name: 'dom', include: ['test/dom/**/*.test.ts'] } },
      {
        // The Node layers (unit, integration, contract, chaos, the platform's own): plain modules
        // whose state lives in the objects each test makes (a store, a platform, a transport). A
        // worker keeps the modules it has imported for its next file: importing them again for
        // each file was half of these layers' CPU (144 against 74 CPU-s, 91 against 56 s).
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/dom/**', ...OWN_MODULES],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own-modules', include: OWN_MODULES } },
    ],
  },
});
