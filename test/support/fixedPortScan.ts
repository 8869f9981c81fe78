import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * Finds where test code binds (or tells a child to bind) a port it chose itself instead of port 0.
 * A fixed port is held by whatever else runs on the machine; a port "found free" and then bound is
 * taken between the two steps under load. Both fail a suite that passed alone (issue 27, item 19).
 *
 * What counts as a bind: `.listen(N, …)` or `.listen({ port: N })` with a literal N other than 0;
 * a call, in the same file, to a function that hands one of its parameters on to such a bind,
 * with a literal other than 0 in that place (or such a default); `'--port', 'N'` in an argument
 * list; and an environment entry named `…PORT`/`…PORTS` holding a literal port other than 0.
 */
export interface FixedPortFinding {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/** The literal port a node spells, if it is one (`1455`, `'1455'`, `1_455`); undefined otherwise. */
const literalPort = (node: ts.Node): number | undefined => {
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    return /^\d{1,5}$/.test(node.text) ? Number(node.text) : undefined;
  return undefined;
};

const isFixedPort = (node: ts.Node): boolean => {
  const port = literalPort(node);
  return port !== undefined && port !== 0;
};

/** Literal ports in a `'1455,1457'` list or an array literal, for `…PORTS` entries. */
const holdsFixedPort = (node: ts.Node): boolean => {
  if (ts.isArrayLiteralExpression(node)) return node.elements.some(isFixedPort);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    return node.text.split(',').some((part) => /^\s*\d{1,5}\s*$/.test(part) && Number(part) !== 0);
  return isFixedPort(node);
};

const calleeName = (call: ts.CallExpression): string | undefined => {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
};

const propertyName = (name: ts.PropertyName): string | undefined =>
  ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;

type FunctionNode = ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration | ts.MethodDeclaration;

/** The name a function is called by in its file: its declaration, its const, or its property. */
const functionName = (fn: FunctionNode): string | undefined => {
  if ((ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn)) && fn.name !== undefined)
    return propertyName(fn.name);
  const parent = fn.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent)) return propertyName(parent.name);
  return undefined;
};

const isFunctionNode = (node: ts.Node): node is FunctionNode =>
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node) ||
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node);

/** The parameter of an enclosing named function that `node` (an identifier) refers to. */
const enclosingParameter = (node: ts.Node): { name: string; index: number } | undefined => {
  if (!ts.isIdentifier(node)) return undefined;
  for (let scope: ts.Node | undefined = node.parent; scope !== undefined; scope = scope.parent) {
    if (!isFunctionNode(scope)) continue;
    const index = scope.parameters.findIndex((p) => ts.isIdentifier(p.name) && p.name.text === node.text);
    if (index < 0) continue;
    const name = functionName(scope);
    return name === undefined ? undefined : { name, index };
  }
  return undefined;
};

/** The argument of a `.listen(…)` call that carries its port. */
const listenPortArgument = (call: ts.CallExpression): ts.Node | undefined => {
  const [first] = call.arguments;
  if (first === undefined) return undefined;
  if (!ts.isObjectLiteralExpression(first)) return first;
  const port = first.properties.find(
    (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && propertyName(p.name) === 'port',
  );
  return port?.initializer;
};

const visitAll = (root: ts.Node, visit: (node: ts.Node) => void): void => {
  const walk = (node: ts.Node): void => {
    visit(node);
    ts.forEachChild(node, walk);
  };
  walk(root);
};

/** `name:index` for every function parameter in the file that ends up as the port of a bind. */
const portParameters = (source: ts.SourceFile): Set<string> => {
  const found = new Set<string>();
  const calls: ts.CallExpression[] = [];
  visitAll(source, (node) => {
    if (ts.isCallExpression(node)) calls.push(node);
  });
  const mark = (argument: ts.Node | undefined): boolean => {
    const parameter = argument === undefined ? undefined : enclosingParameter(argument);
    if (parameter === undefined) return false;
    const key = `${parameter.name}:${parameter.index}`;
    if (found.has(key)) return false;
    found.add(key);
    return true;
  };
  for (const call of calls) if (calleeName(call) === 'listen') mark(listenPortArgument(call));
  // Wrappers of wrappers: repeat until no new port parameter appears.
  for (let grew = true; grew; ) {
    grew = false;
    for (const call of calls) {
      const name = calleeName(call);
      call.arguments.forEach((argument, index) => {
        if (name !== undefined && found.has(`${name}:${index}`) && mark(argument)) grew = true;
      });
    }
  }
  return found;
};

/** Every fixed-port bind in one file's source text. */
export const fixedPortBinds = (file: string, text: string): FixedPortFinding[] => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const parameters = portParameters(source);
  const findings: FixedPortFinding[] = [];
  const report = (node: ts.Node): void => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    findings.push({ file, line, text: node.getText(source).split('\n')[0]! });
  };
  visitAll(source, (node) => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      const port = name === 'listen' ? listenPortArgument(node) : undefined;
      if (port !== undefined && isFixedPort(port)) report(node);
      node.arguments.forEach((argument, index) => {
        if (name !== 'listen' && parameters.has(`${name}:${index}`) && isFixedPort(argument)) report(node);
      });
    }
    if (isFunctionNode(node)) {
      const name = functionName(node);
      node.parameters.forEach((parameter, index) => {
        if (
          parameters.has(`${name}:${index}`) &&
          parameter.initializer !== undefined &&
          isFixedPort(parameter.initializer)
        )
          report(parameter);
      });
    }
    if (ts.isArrayLiteralExpression(node))
      node.elements.forEach((element, index) => {
        const next = node.elements[index + 1];
        if (ts.isStringLiteral(element) && element.text === '--port' && next !== undefined && isFixedPort(next))
          report(node);
      });
    if (ts.isPropertyAssignment(node)) {
      const name = propertyName(node.name);
      if (name !== undefined && /PORTS?$/.test(name) && holdsFixedPort(node.initializer)) report(node);
    }
  });
  return findings;
};

const SKIPPED = new Set(['node_modules', '.git', 'dist']);

/** The files that run as, or for, tests under `root`: test/ and scripts/ whole, and every `*.test.ts`. */
export const testCodeFiles = (root: string): string[] => {
  const files: string[] = [];
  const walk = (dir: string, wholeTree: boolean): void => {
    for (const name of readdirSync(dir)) {
      if (SKIPPED.has(name)) continue;
      const path = join(dir, name);
      const top = relative(root, path).split('/')[0];
      const whole = wholeTree || top === 'test' || top === 'scripts';
      if (statSync(path).isDirectory()) walk(path, whole);
      else if (path.endsWith('.ts') && !path.endsWith('.d.ts') && (whole || path.endsWith('.test.ts')))
        files.push(relative(root, path));
    }
  };
  walk(root, false);
  return files.sort();
};

/** Every fixed-port bind in the project's test code. */
export const fixedPortBindsUnder = (root: string): FixedPortFinding[] =>
  testCodeFiles(root).flatMap((file) => fixedPortBinds(file, readFileSync(join(root, file), 'utf8')));
