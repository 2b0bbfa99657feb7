// Lint rules for the whole repository: TypeScript-aware, strict on correctness, silent on style
// (Prettier owns formatting). Vue files are checked with the same TypeScript rules.
import js from '@eslint/js';
import pluginVue from 'eslint-plugin-vue';
import tseslint from 'typescript-eslint';
import vueParser from 'vue-eslint-parser';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'out/',
      'dist/',
      'coverage/',
      'test-results/',
      'playwright-report/',
      '.platform-data/',
      '.preview-data/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  ...pluginVue.configs['flat/recommended'],
  {
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './tsconfig.web.json'],
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.vue'],
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // TypeScript itself reports undefined names, and knows the DOM and Node globals.
      'no-undef': 'off',
    },
  },
  {
    files: ['**/*.vue'],
    languageOptions: {
      parser: vueParser,
      parserOptions: {
        parser: tseslint.parser,
        project: ['./tsconfig.web.json'],
        extraFileExtensions: ['.vue'],
        sourceType: 'module',
      },
    },
    rules: {
      // Prettier lays out templates.
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/html-indent': 'off',
      'vue/html-closing-bracket-newline': 'off',
      'vue/multiline-html-element-content-newline': 'off',
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  ...layers(),
);

/**
 * The layers of DESIGN.md §2 as lint (STYLE.md: "a rule in the linter beats a sentence in a
 * handbook"): each zone names what its files may not import. Specifiers are matched as written:
 * `climbTo('sync')` is a relative path that climbs out to a folder named `sync/`. A file gets the
 * rule of the last zone its path matches, so each zone repeats what the wider one forbids.
 */
function layers() {
  const climbTo = (...dirs) => `^(\\.\\./)+(${dirs.join('|')})(/|$)`;
  const pkg = (...names) => `^(${names.join('|')})(/|$)`;
  const rule = (...patterns) => [
    'error',
    { patterns: patterns.map(([regex, message]) => ({ regex, message })) },
  ];

  // From a file at the root (a config) the path starts with `./`.
  const testPlatform = [
    '^(\\.{1,2}/)+test/platform(/|$)',
    'Only test/ and scripts/ use the sandbox platform.',
  ];
  const notFromRenderer = [
    [
      climbTo('electron', 'test', 'scripts'),
      'The renderer reaches the outside only through the Bridge (common/bridge.ts).',
    ],
    [pkg('electron', 'node:.*'), 'The renderer is sandboxed: neither Electron nor Node is there.'],
  ];
  const noView = [
    'View\\.vue$',
    'A view (a screen the router mounts, *View.vue) is imported by the router only: move what this file needs out of it.',
  ];
  const engine = (layer) => [
    [
      pkg('vue', 'pinia', 'vue-router', 'primevue', '@primeuix/.*'),
      `The ${layer} is plain TypeScript over Dexie, run in Node tests too: no Vue.`,
    ],
    [
      climbTo(
        'shell',
        'sign-in',
        'accounts',
        'workspace',
        'sync-status',
        'settings',
        'common',
        'home',
        'activity',
      ),
      `The ${layer} is beneath the features: it imports none of them.`,
    ],
  ];
  return [
    {
      files: ['**/*.{ts,vue,js}'],
      ignores: ['test/**', 'scripts/**'],
      rules: { 'no-restricted-imports': rule(testPlatform) },
    },
    {
      files: ['electron/**'],
      rules: {
        'no-restricted-imports': rule([
          climbTo('renderer', 'test'),
          'The main process and its hosts import neither the renderer nor the tests.',
        ]),
      },
    },
    {
      files: ['shared/**'],
      rules: {
        'no-restricted-imports': rule(
          [
            climbTo('renderer', 'electron', 'test', 'scripts'),
            'shared/ imports nothing of the project outside it.',
          ],
          [
            pkg('electron', 'vue', 'pinia', 'dexie', 'primevue', 'node:.*'),
            'shared/ is imported by both sides: no Electron, Node, DOM or Vue.',
          ],
        ),
      },
    },
    {
      files: ['renderer/**'],
      rules: { 'no-restricted-imports': rule(...notFromRenderer, noView) },
    },
    {
      // The routes: the one place that mounts views.
      files: ['renderer/src/shell/router.ts'],
      rules: { 'no-restricted-imports': rule(...notFromRenderer) },
    },
    {
      files: ['renderer/src/sync/**'],
      rules: { 'no-restricted-imports': rule(...notFromRenderer, noView, ...engine('sync engine')) },
    },
    {
      files: ['renderer/src/data/**'],
      rules: {
        'no-restricted-imports': rule(...notFromRenderer, noView, ...engine('data layer'), [
          climbTo('sync'),
          'The data layer is beneath the sync engine: the engine imports it, not the reverse.',
        ]),
      },
    },
  ];
}
