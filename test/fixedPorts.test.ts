import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixedPortBinds, fixedPortBindsUnder, testCodeFiles } from './support/fixedPortScan.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Issue 27 item 19: a suite that passes alone must pass next to whatever else holds ports. */
describe('no test binds a port it picked itself', () => {
  it('finds no fixed-port bind in test/, scripts/ or any *.test.ts', () => {
    const files = testCodeFiles(ROOT);
    expect(files).toContain('test/support/harness.ts');
    expect(files).toContain('connectors/minecraft/src/ingressClient.test.ts');
    expect(files).toContain('src/sources/library/passages.test.ts');
    expect(files.some((file) => file.includes('node_modules'))).toBe(false);
    expect(fixedPortBindsUnder(ROOT)).toEqual([]);
  });

  const found = (text: string) => fixedPortBinds('sample.ts', text).map((finding) => finding.line);

  it.each([
    ['a literal port to listen', 'server.listen(1455, "127.0.0.1");'],
    ['a string port to listen', "server.listen('8080');"],
    ['an options object with a port', 'await app.listen({ host: "127.0.0.1", port: 3000 });'],
    [
      'a helper that hands its parameter to listen',
      'const canBind = (port: number) => probe.listen(port, "127.0.0.1");\nawait canBind(1455);',
    ],
    [
      'a wrapper of such a helper',
      'function bind(p: number) { return s.listen(p); }\nconst hold = (q: number) => bind(q);\nhold(1457);',
    ],
    ['such a helper with a fixed default', 'const bind = (port = 4000) => s.listen(port);'],
    ['a child told to serve on a fixed port', "spawnTs('src/cli/main.ts', ['serve', '--port', '1522']);"],
    ['a child told a fixed port by its environment', "run({ HELIX_PORT: '1522' });"],
    ['a list of fixed callback ports', "run({ HELIX_CODEX_TEST_CALLBACK_PORTS: '0,1457' });"],
  ])('reports %s', (_what, text) => {
    expect(found(text).length).toBeGreaterThan(0);
  });

  it.each([
    ['port 0', 'server.listen(0, "127.0.0.1");'],
    ['a port read back from another server', 'second.listen(first.address().port);'],
    ['serve on port 0', "spawnTs('src/cli/main.ts', ['serve', '--port', '0']);"],
    ['an environment that asks for port 0', "run({ HELIX_CODEX_TEST_CALLBACK_PORTS: '0' });"],
    ['a URL that is only text', "register('http://127.0.0.1:8080/v1');"],
    ['a helper called with port 0', 'const bind = (port: number) => s.listen(port);\nbind(0);'],
  ])('lets %s pass', (_what, text) => {
    expect(found(text)).toEqual([]);
  });
});
