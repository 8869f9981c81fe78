import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { registerRequestLog } from './requestLog.js';

const FIELDS = ['level', 'time', 'service', 'request_id', 'method', 'path', 'status', 'ms', 'principal', 'msg'];

describe('the request line', () => {
  it('carries exactly its fixed fields, once each, while everything else a request logs stays redacted', async () => {
    const written: string[] = [];
    const logger: FastifyBaseLogger = createLogger('info', { write: (line: string) => written.push(line) });
    const app = Fastify({
      loggerInstance: logger,
      logController: new LogController({ disableRequestLogging: true }),
      genReqId: () => 'req_1',
    });
    registerRequestLog(app, logger);
    app.get('/echo', async (request) => {
      request.principalId = 'key_abc';
      request.log.info({ token: 'hlx_secret', headers: { authorization: 'Bearer hlx_secret' } }, 'inside');
      return { ok: true };
    });
    const response = await app.inject({ method: 'GET', url: '/echo?access_token=hlx_secret' });
    expect(response.statusCode).toBe(200);
    await app.close();

    const entries = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    const line = entries.find((e) => e.msg === 'request');
    expect(line).toBeDefined();
    expect(Object.keys(line ?? {})).toEqual(FIELDS);
    expect(line).toMatchObject({
      request_id: 'req_1',
      method: 'GET',
      path: '/echo',
      status: 200,
      principal: 'key_abc',
    });
    const inside = entries.find((e) => e.msg === 'inside');
    expect(inside).toMatchObject({ token: '[redacted]', headers: { authorization: '[redacted]' } });
    expect(written.join('')).not.toContain('hlx_secret');
  });
});
