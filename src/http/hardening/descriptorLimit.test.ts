import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { connectionBudgetFor, descriptorHeadroom, openFileLimit, parseOpenFileLimit } from './descriptorLimit.js';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 524288               files
Max locked memory         8388608              8388608              bytes
`;

describe('the connection budget below the descriptor limit (issue 27, item 1)', () => {
  it('reads the soft limit of open files, and nothing from a text without one', () => {
    expect(parseOpenFileLimit(LIMITS)).toBe(1024);
    expect(parseOpenFileLimit(LIMITS.replace('1024 ', 'unlimited '))).toBeUndefined();
    expect(parseOpenFileLimit('')).toBeUndefined();
  });

  it('leaves a quarter of the descriptors, at least 64, for everything but inbound connections', () => {
    // The deployment: 1,024 descriptors, of which 4 × 250 slow sockets took all.
    expect(connectionBudgetFor(1024)).toBe(768);
    expect(connectionBudgetFor(256)).toBe(192);
    expect(connectionBudgetFor(100)).toBe(36);
    expect(connectionBudgetFor(10)).toBe(16);
    expect(connectionBudgetFor(1_048_576)).toBe(786_432);
    expect(connectionBudgetFor(100_000_000)).toBe(1_000_000);
    for (const limit of [128, 1024, 4096, 65_536])
      expect(connectionBudgetFor(limit) + descriptorHeadroom(limit)).toBe(limit);
  });

  it.runIf(process.platform === 'linux')("reads this process's own limit, the one a child shell inherits", async () => {
    const inherited = execFileSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
    expect(await openFileLimit()).toBe(Number(inherited));
  });
});
