// package.json's `dependencies` are exactly what the main process and the preload load at run
// time: electron-vite leaves those out of the bundle (and bundles anything else into main), and
// electron-builder copies them, and only them, into app.asar. The renderer's libraries are
// bundled by vite, so they are devDependencies. Read from the sources' import graph.

import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Specifiers a file loads at run time: `import type` and `export type` are erased by the build. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The packages an entry point loads, following its own files (relative and `@shared/…`). */
function packagesLoadedBy(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const pending = [resolve(ROOT, entry)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of runtimeImports(file)) {
      if (spec.startsWith('.')) pending.push(resolve(dirname(file), spec));
      else if (spec.startsWith('@shared/')) pending.push(join(ROOT, 'shared', spec.slice('@shared/'.length)));
      else if (!spec.startsWith('node:') && !builtinModules.includes(spec)) packages.add(packageName(spec));
    }
  }
  return packages;
}

/** `electron-log/node` → `electron-log`, `@scope/name/x` → `@scope/name`. */
function packageName(spec: string): string {
  const parts = spec.split('/');
  return (spec.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

const main = packagesLoadedBy('electron/main/index.ts');
const preload = packagesLoadedBy('electron/preload/index.ts');

describe('runtime dependencies', () => {
  it('the graph is read: main loads Electron and its own libraries', () => {
    expect(main).toContain('electron');
    expect(main).toContain('openid-client');
  });

  it('every package the main process loads is a dependency (Electron itself is the runtime)', () => {
    const missing = [...main].filter((p) => p !== 'electron' && !(p in pkg.dependencies));
    expect(missing, 'move these to "dependencies": the build would bundle or drop them').toEqual([]);
  });

  it('every dependency is loaded by the main process: nothing else is copied into app.asar', () => {
    const unused = Object.keys(pkg.dependencies).filter((p) => !main.has(p));
    expect(unused, 'move these to "devDependencies": only the renderer uses them, bundled').toEqual([]);
  });

  it('the sandboxed preload loads nothing but Electron', () => {
    expect([...preload]).toEqual(['electron']);
  });

  it('Electron is a devDependency, as electron-builder requires', () => {
    expect(pkg.devDependencies.electron).toBeDefined();
    expect(pkg.dependencies.electron).toBeUndefined();
  });
});
