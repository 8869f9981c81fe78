import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Every relative import of every non-test module under `root`, type-only and re-exports included. */
export const importGraph = (root: string): Map<string, Set<string>> => {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts')) files.push(path);
    }
  };
  walk(root);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    // preProcessFile sees `import type`, `export … from` and `import()` alike.
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName.replace(/\.js$/, '.ts'));
      if (existsSync(target)) targets.add(relative(root, target));
    }
    graph.set(relative(root, file), targets);
  }
  return graph;
};

/** The layer of a module: its top folder under src/, or the file's own name for a top-level file. */
export const layerOf = (module: string): string => {
  const [first = '', ...rest] = module.split('/');
  return rest.length === 0 ? first.replace(/\.ts$/, '') : first;
};

/** Edges between layers that the rules do not allow, and modules in no known layer. */
export const ruleViolations = (
  graph: ReadonlyMap<string, ReadonlySet<string>>,
  rules: Readonly<Record<string, readonly string[]>>,
): string[] => {
  const problems: string[] = [];
  for (const [from, targets] of graph) {
    const layer = layerOf(from);
    const allowed = rules[layer];
    if (allowed === undefined) {
      problems.push(`${from}: its layer "${layer}" is not in the rules table`);
      continue;
    }
    for (const to of targets) {
      const target = layerOf(to);
      if (target !== layer && !allowed.includes(target))
        problems.push(`${from} -> ${to}: ${layer} may not import ${target}`);
    }
  }
  return problems.sort();
};

/** Every import cycle between modules (Tarjan's strongly connected components of more than one module, or a self-import). */
export const importCycles = (graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] => {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.has(v) === true) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
};
