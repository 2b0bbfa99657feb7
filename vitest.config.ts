import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';
import { SHARED_ALIAS } from './electron.vite.config.ts';

// Every layer of the suite runs here; the layers are told apart by folder (DESIGN.md §6).
// Component tests import .vue files (and pick happy-dom with a `@vitest-environment` comment).
export default defineConfig({
  plugins: [vue()],
  // Modules resolve as in the build: `@shared/…` is the project's shared/ folder.
  resolve: { alias: SHARED_ALIAS },
  test: {
    include: ['test/**/*.test.ts'],
    // Waits bounded as under a second load (test/support/setup.ts).
    setupFiles: ['test/support/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: keep the platform servers the tests start from starving each other.
    maxWorkers: 2,
  },
});
