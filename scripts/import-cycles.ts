/**
 * Import cycles among the project's own modules. ES modules in a cycle run in an order set by whichever
 * module is loaded first, so a constant one of them reads from the other at load time can be read
 * before it exists ("Cannot access … before initialization"), depending on who imports whom first. The
 * unit test beside this file keeps the project free of them.
 *
 * An edge is a runtime import or re-export: `import type` and `export type` are erased and load
 * nothing, but under `verbatimModuleSyntax` an `import { type A }` still loads its module, so it counts.
 * Relative specifiers and the workspace packages (`@portal/…`, by the `exports` of their package.json)
 * are followed; anything else is a dependency and cannot be part of a cycle of ours.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The module specifiers a file loads when it runs. */
export function runtimeSpecifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      if (statement.importClause?.phaseModifier === ts.SyntaxKind.TypeKeyword) continue;
      if (ts.isStringLiteral(statement.moduleSpecifier)) specifiers.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly || statement.moduleSpecifier === undefined) continue;
      if (ts.isStringLiteral(statement.moduleSpecifier)) specifiers.push(statement.moduleSpecifier.text);
    }
  }
  return specifiers;
}

/** The modules in cycles: each strongly connected group of more than one module, or a module importing itself. */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative: the graph has hundreds of modules and deep chains.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next);
    next += 1;
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame === undefined) break;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge];
        frame.edge += 1;
        if (target === undefined) continue;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next);
          next += 1;
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(target) ?? 0));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) {
        low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      }
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const group: string[] = [];
      for (;;) {
        const member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        group.push(member);
        if (member === frame.node) break;
      }
      if (group.length > 1 || edges.includes(frame.node)) cycles.push(group.sort());
    }
  }
  return cycles;
}

const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', '.git', 'coverage']);

function typeScriptFilesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRECTORIES.has(entry.name) ? [] : typeScriptFilesUnder(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `@portal/…` to the file its package.json exports as `.`, for every workspace package under `roots`. */
function workspaceEntries(files: readonly string[]): Map<string, string> {
  const entries = new Map<string, string>();
  for (const manifest of new Set(files.map((file) => packageManifestOf(file)))) {
    if (manifest === null) continue;
    const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as {
      name?: string;
      exports?: Record<string, string> | string;
    };
    const entry = typeof parsed.exports === 'string' ? parsed.exports : parsed.exports?.['.'];
    if (parsed.name !== undefined && entry !== undefined) {
      entries.set(parsed.name, resolve(dirname(manifest), entry));
    }
  }
  return entries;
}

function packageManifestOf(file: string): string | null {
  for (let directory = dirname(file); directory !== dirname(directory); directory = dirname(directory)) {
    const manifest = join(directory, 'package.json');
    if (existsSync(manifest)) return manifest;
  }
  return null;
}

function resolveRelative(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}

/** The runtime import graph of every TypeScript file under `roots`, paths relative to `projectRoot`. */
export function projectImportGraph(projectRoot: string, roots: readonly string[]): Map<string, string[]> {
  const files = roots.flatMap((root) => typeScriptFilesUnder(join(projectRoot, root)));
  const packages = workspaceEntries(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = runtimeSpecifiers(file, readFileSync(file, 'utf8')).flatMap((specifier) => {
      const target = specifier.startsWith('.') ? resolveRelative(file, specifier) : packages.get(specifier);
      return target === undefined || target === null ? [] : [relative(projectRoot, target)];
    });
    graph.set(relative(projectRoot, file), targets);
  }
  return graph;
}
