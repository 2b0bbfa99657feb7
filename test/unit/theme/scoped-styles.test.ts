// A guard on the components' scoped styles: Vue compiles `:global(.app-dark) .x { … }` to a bare
// `.app-dark { … }` (everything after `:global(…)` is dropped), which once repainted the whole app
// root in dark mode and left every badge light. Colours that change with the theme come from the
// semantic variables of renderer/src/styles.css instead; a selector that must reach outside the
// component puts all of it inside the parentheses: `:global(.app-dark .x)`.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compileStyle, parse } from 'vue/compiler-sfc';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../../renderer/src');

function vueFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return vueFiles(path);
    return entry.name.endsWith('.vue') ? [path] : [];
  });
}

/** `:global(…)` followed, in the same selector, by more than a comma or the rule's brace. */
const GLOBAL_THEN_MORE = /:global\([^)]*\)\s*(?![\s,{])\S/;

/** Selectors of the compiled CSS that are nothing but a class the theme puts on the root. */
function bareRootRules(css: string): string[] {
  const selectors = [...css.matchAll(/(?:^|})\s*([^{}@]+)\{/g)].flatMap((m) =>
    (m[1] ?? '').split(',').map((s) => s.trim()),
  );
  return selectors.filter((s) => /^(:root)?\.app-dark$|^:root$|^html$|^body$/.test(s));
}

const files = vueFiles(ROOT);

describe('scoped styles of the components', () => {
  it('finds the components', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('never write `:global(…)` with more of the selector outside the parentheses', () => {
    const offenders = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line: line.trim(), at: `${relative(ROOT, file)}:${i + 1}` }))
        .filter(({ line }) => GLOBAL_THEN_MORE.test(line))
        .map(({ line, at }) => `${at}  ${line}`),
    );
    expect(offenders).toEqual([]);
  });

  it('compile to no rule on the bare document root (.app-dark, :root, html, body)', () => {
    const offenders: string[] = [];
    for (const file of files) {
      const { descriptor } = parse(readFileSync(file, 'utf8'), { filename: file });
      descriptor.styles.forEach((style, i) => {
        const { code, errors } = compileStyle({
          source: style.content,
          filename: file,
          id: `data-v-${i}`,
          scoped: style.scoped,
        });
        expect(errors).toEqual([]);
        for (const selector of bareRootRules(code)) offenders.push(`${relative(ROOT, file)}: ${selector}`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it('would catch the pattern that broke dark mode', () => {
    const bad = ':global(.app-dark) .sync-badge.is-pending {\n  color: #ffc46b;\n}';
    expect(GLOBAL_THEN_MORE.test(bad)).toBe(true);
    const { code } = compileStyle({ source: bad, filename: 'x.vue', id: 'data-v-1', scoped: true });
    expect(bareRootRules(code)).toEqual(['.app-dark']);
    const good = ':global(.app-dark .sync-badge) { color: red; }\n.a, :global(.b) { color: red; }';
    expect(good.split('\n').filter((l) => GLOBAL_THEN_MORE.test(l))).toEqual([]);
  });
});
