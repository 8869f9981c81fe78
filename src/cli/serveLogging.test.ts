import { describe, expect, it } from 'vitest';
import { serveLogging } from './serveLogging.js';

describe('where helix serve logs', () => {
  it('in a terminal: warnings and errors only, to standard error, so requests do not interleave with `helix ask`', () => {
    expect(serveLogging({}, {}, true)).toEqual({ level: 'warn', to: 'stderr' });
  });

  it('piped or redirected: every request as JSON at info on standard output, as a service manager expects', () => {
    expect(serveLogging({}, {}, false)).toEqual({ level: 'info', to: 'stdout' });
  });

  it('--log-level, then HELIX_LOG_LEVEL, choose the level; --log-file takes the JSON to a file at info', () => {
    expect(serveLogging({ logLevel: 'debug' }, { HELIX_LOG_LEVEL: 'error' }, true)).toEqual({
      level: 'debug',
      to: 'stderr',
    });
    expect(serveLogging({}, { HELIX_LOG_LEVEL: 'error' }, false)).toEqual({ level: 'error', to: 'stdout' });
    expect(serveLogging({ logFile: '/var/log/helix.jsonl' }, {}, true)).toEqual({
      level: 'info',
      to: { file: '/var/log/helix.jsonl' },
    });
  });

  it('refuses an unknown level or an empty file name (exit 2), naming the option', () => {
    expect(() => serveLogging({ logLevel: 'verbose' }, {}, true)).toThrow(/--log-level must be one of fatal, error/);
    expect(() => serveLogging({}, { HELIX_LOG_LEVEL: 'loud' }, true)).toThrow(/HELIX_LOG_LEVEL must be one of/);
    expect(() => serveLogging({ logFile: '' }, {}, true)).toThrow(/--log-file must name a file/);
  });
});
