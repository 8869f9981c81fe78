import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAUTH_SCOPES } from '../src/domain/scopes.js';
import { emptyOutcome } from '../src/domain/turn.js';
import { PROTECTED_RESOURCE_PATHS } from '../src/http/wellKnown.js';
import { ScriptedExecutor } from '../src/solver/scriptedExecutor.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { connectMcp } from './support/mcpClient.js';
import { storeFlavours } from './support/stores.js';

/**
 * Issue 27 item 17: a client is only sent to ask for scopes this deployment can admit. The
 * protected-resource metadata and the run tools' declared scopes both list the data scopes of the
 * logical scopes whose sources are configured here, and nothing a request naming any other answers
 * with anything but its documented refusal.
 */
const THEORY = 'helix.data.theory_registry.read';
const WEB = 'helix.data.public_web.read';
const SCHOLARLY = 'helix.data.scholarly_research.read';
const REPOSITORY = 'helix.data.repository_evidence.read';
const LIBRARY = 'helix.data.research_library.read';

type Described = { name: string; _meta?: { securitySchemes?: { scopes: string[] }[] } };

/** The SDK client keeps a tool's `_meta`, where the declared scopes are repeated (the standard field it strips). */
const scopesOf = (tools: readonly Described[], name: string): string[] | undefined =>
  tools.find((t) => t.name === name)?._meta?.securitySchemes?.[0]?.scopes;

const declaredScopes = async (client: Client, name: string): Promise<string[] | undefined> =>
  scopesOf((await client.listTools()).tools as Described[], name);

describe('advertised scopes: only what this deployment can admit', () => {
  const [flavour] = storeFlavours();

  describe('with only the always-present sources (library, room lanes)', () => {
    let h: TestHelix;
    let client: Client;
    beforeAll(async () => {
      h = await startTestHelix(flavour!, {
        executor: new ScriptedExecutor([], emptyOutcome()),
        env: { HELIX_AGENT_DATABASE_SCOPES: 'research_library,public_web' },
      });
      client = await connectMcp(h.url, await h.key());
    });
    afterAll(async () => {
      await client.close();
      await h.close();
    });

    it('no protected-resource document lists theory_registry or an unconfigured source', async () => {
      for (const path of PROTECTED_RESOURCE_PATHS) {
        const res = await api(h.url, 'GET', path);
        expect(res.status, path).toBe(200);
        expect(res.body.scopes_supported, path).not.toContain(THEORY);
        expect(res.body.scopes_supported, path).not.toContain(WEB);
        expect(res.body.scopes_supported, path).not.toContain(SCHOLARLY);
        expect(res.body.scopes_supported, path).not.toContain(REPOSITORY);
        // Everything else is still there, in the registry's order.
        expect(res.body.scopes_supported, path).toEqual(
          OAUTH_SCOPES.filter((s) => ![THEORY, WEB, SCHOLARLY, REPOSITORY].includes(s)),
        );
      }
    });

    it('tools/list: the start and continue tools declare only the data scopes a request can be admitted under', async () => {
      for (const name of ['helix_run_start', 'helix_run_continue']) {
        expect(await declaredScopes(client, name), name).toEqual([
          'helix.agent_runs.write',
          LIBRARY,
          'helix.rooms.read',
        ]);
      }
    });

    it('the /mcp/codex profile declares the same scopes', async () => {
      const codex = await connectMcp(h.url, await h.key(), '/mcp/codex');
      try {
        expect(await declaredScopes(codex, 'helix_run_start')).toEqual([
          'helix.agent_runs.write',
          LIBRARY,
          'helix.rooms.read',
        ]);
      } finally {
        await codex.close();
      }
    });

    it('naming an unadvertised scope still answers its documented refusal', async () => {
      const token = await h.key(`helix.agent_runs.write ${THEORY} ${WEB}`);
      const start = (scope: string) =>
        api(h.url, 'POST', '/api/v1/agent-runs', {
          token,
          idempotencyKey: idemKey(),
          body: { objective: 'x', database_scope: [scope] },
        });
      // theory_registry cannot be enabled (start-up refuses it), so check 1 refuses it.
      expect((await start('theory_registry')).body).toMatchObject({
        code: 'scope_not_admitted',
        scope: 'theory_registry',
      });
      // Enabled but no source configured: check 2.
      const web = await start('public_web');
      expect(web.status).toBe(409);
      expect(web.body).toMatchObject({ code: 'scope_unavailable', scope: 'public_web' });
    });
  });

  describe('with every configurable source set', () => {
    let h: TestHelix;
    beforeAll(async () => {
      h = await startTestHelix(flavour!, {
        executor: new ScriptedExecutor([], emptyOutcome()),
        env: {
          HELIX_SEARXNG_URL: 'http://127.0.0.1:9/search',
          HELIX_OPENALEX_URL: 'http://127.0.0.1:9/openalex',
          HELIX_REPOSITORY_ROOTS: process.cwd(),
        },
      });
    });
    afterAll(() => h.close());

    it('advertises their data scopes, but never theory_registry, which no source in this build backs', async () => {
      const res = await api(h.url, 'GET', '/.well-known/oauth-protected-resource/mcp');
      expect(res.body.scopes_supported).toEqual(OAUTH_SCOPES.filter((s) => s !== THEORY));
      const client = await connectMcp(h.url, await h.key());
      try {
        expect(await declaredScopes(client, 'helix_run_start')).toEqual([
          'helix.agent_runs.write',
          WEB,
          SCHOLARLY,
          LIBRARY,
          REPOSITORY,
          'helix.rooms.read',
        ]);
      } finally {
        await client.close();
      }
    });
  });
});
