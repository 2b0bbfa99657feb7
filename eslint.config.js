// Lint rules for the whole repository: TypeScript-aware, strict on correctness, silent on style
// (Prettier owns formatting). Vue files are checked with the same TypeScript rules.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import pluginVue from 'eslint-plugin-vue';
import tseslint from 'typescript-eslint';
import vueParser from 'vue-eslint-parser';
import layerRules from './eslint.layers.js';

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
      // Bundled configs that electron-vite and Vite write beside their config while loading it,
      // and remove: the build runs beside the lint (scripts/checks.sh), which would find one and
      // fail to read it once gone.
      '*.config.ts.*.mjs',
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
  {
    // A module of one idea reads at once (STYLE.md, "Small modules, one verb each"): past 500
    // lines a file holds two or three ideas, to be split along them. Blank and comment lines
    // count, as a reader reads them too; no file is exempt today.
    files: ['renderer/src/**/*.{ts,vue}', 'electron/**/*.ts', 'shared/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 500, skipBlankLines: false, skipComments: false }] },
  },
  ...layers(),
);

/**
 * The layers of DESIGN.md §2 as lint (STYLE.md: "a rule in the linter beats a sentence in a
 * handbook"). Which folder may import which is one allow-list per zone, in eslint.layers.js; here
 * are what the zones may not take from packages (the runtime each one runs in), and the cycle rule.
 * A file gets the `no-restricted-imports` of the last block its path matches, so each block
 * repeats what the wider one forbids.
 */
function layers() {
  const pkg = (...names) => `^(${names.join('|')})(/|$)`;
  const rule = (...patterns) => [
    'error',
    { patterns: patterns.map(([regex, message]) => ({ regex, message })) },
  ];
  const notInRenderer = [
    pkg('electron', 'node:.*'),
    'The renderer is sandboxed: neither Electron nor Node is there.',
  ];
  const noVue = (layer) => [
    pkg('vue', 'pinia', 'vue-router', 'primevue', '@primeuix/.*'),
    `The ${layer} is plain TypeScript over Dexie, run in Node tests too: no Vue.`,
  ];
  return [
    {
      files: ['**/*.{ts,vue,js}'],
      plugins: { layers: layerRules },
      rules: { 'layers/imports': 'error' },
    },
    {
      files: ['shared/**'],
      rules: {
        'no-restricted-imports': rule([
          pkg('electron', 'vue', 'pinia', 'dexie', 'primevue', 'node:.*'),
          'shared/ is imported by both sides: no Electron, Node, DOM or Vue.',
        ]),
      },
    },
    { files: ['renderer/**'], rules: { 'no-restricted-imports': rule(notInRenderer) } },
    {
      files: ['renderer/src/sync/**'],
      rules: { 'no-restricted-imports': rule(notInRenderer, noVue('sync engine')) },
    },
    {
      files: ['renderer/src/data/**'],
      rules: { 'no-restricted-imports': rule(notInRenderer, noVue('data layer')) },
    },
    {
      // An import cycle in the renderer fails (a feature's folders point down, so a cycle is a
      // wrong import). Dependencies are parsed without type information, once per run; type-only
      // imports are left out, as they vanish from the build.
      files: ['renderer/**/*.{ts,vue}'],
      plugins: { 'import-x': importX },
      languageOptions: { parserOptions: { parser: tseslint.parser } },
      settings: {
        'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.vue'] })],
        'import-x/extensions': ['.ts', '.vue'],
        'import-x/parsers': { 'vue-eslint-parser': ['.vue'], '@typescript-eslint/parser': ['.ts'] },
        'import-x/ignore': ['node_modules'],
      },
      rules: { 'import-x/no-cycle': 'error' },
    },
  ];
}
