import { afterEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/auth/apiKeys.js';
import { agentTool, pendingCallOf } from './support/agentTaskClient.js';
import { api, idemKey } from './support/harness.js';
import { connectMcp } from './support/mcpClient.js';
import { startServerProcess, type ServerProcess } from './support/processes.js';
import { serverStoreFlavours, type TestStore } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

const RUNS = '/api/v1/agent-runs';

describe.each(serverStoreFlavours())('an agent task across a server restart on $name', (flavour) => {
  let servers: ServerProcess[] = [];
  let testStore: TestStore | undefined;
  afterEach(async () => {
    for (const server of servers) await server.kill();
    servers = [];
    await testStore?.dispose();
  });

  it('is not restored: the turn fails as run_interrupted, the run waits, the old owner token owns nothing', {
    timeout: ceilingFor(2),
  }, async () => {
    testStore = await flavour.create();
    const { key: token } = await createApiKey(
      testStore.store,
      { tenantId: 't', accountId: 'a', scopes: ['helix.agent_runs.read', 'helix.agent_runs.write'] },
      Date.now(),
    );
    const first = await startServerProcess(testStore.location!);
    servers.push(first);
    const started = await api(first.url, 'POST', RUNS, {
      token,
      idempotencyKey: idemKey(),
      body: { objective: 'Survive a restart mid-task', turn_executor: 'agent_task' },
    });
    expect(started.status, started.text).toBe(201);
    const runId = started.body.run_id as string;
    const inFlight = api(first.url, 'POST', `${RUNS}/${runId}/continue`, {
      token,
      idempotencyKey: idemKey(),
      body: { expected_version: 1, instruction: 'work it' },
    }).catch((err: unknown) => err);
    const agent = await connectMcp(first.url, token, '/mcp/codex');
    const callId = await pendingCallOf(agent, runId);
    const claimed = await agentTool(agent, 'claim', { runId, callId, claimId: 'codex-restart' });
    expect(claimed.isError).toBe(false);
    await agent.close().catch(() => undefined);
    await first.kill('SIGKILL');
    expect(await inFlight).toBeInstanceOf(Error);

    const second = await startServerProcess(testStore.location!);
    servers.push(second);
    const recovered = await api(second.url, 'GET', `${RUNS}/${runId}`, { token });
    expect(recovered.body).toMatchObject({
      lifecycle_status: 'waiting',
      completion_status: 'blocked',
      runtime_provider: 'helix.agent_task',
      latest_result: { outcome: 'failed', failure_code: 'run_interrupted' },
    });
    const events = (await api(second.url, 'GET', `${RUNS}/${runId}/events`, { token })).body.events as {
      kind: string;
      data: Record<string, unknown>;
    }[];
    expect(events.at(-1)).toMatchObject({ kind: 'run.blocked', data: { failure_code: 'run_interrupted' } });

    // No lease stealing and no fallback: the new process has no call, and the old token owns nothing.
    const reconnected = await connectMcp(second.url, token, '/mcp/codex');
    expect((await agentTool(reconnected, 'list', { runId })).body.calls).toEqual([]);
    const stale = await agentTool(reconnected, 'call_tool', {
      ownedRef: claimed.body.ownedRef,
      toolCallId: 'tc-1',
      name: 'research-library__search',
      input: { query: 'anything' },
    });
    expect(stale).toMatchObject({ isError: true, body: { code: 'agent_call_not_found' } });
    expect(await agentTool(reconnected, 'claim', { runId, callId, claimId: 'codex-restart' })).toMatchObject({
      isError: true,
      body: { code: 'agent_call_not_found' },
    });
    await reconnected.close();
    const after = await api(second.url, 'GET', `${RUNS}/${runId}`, { token });
    expect(after.body.version).toBe(recovered.body.version);
  });
});
