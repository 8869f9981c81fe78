import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { accountDeps } from './support/accounts.js';
import { agentTool, pendingCallOf } from './support/agentTaskClient.js';
import { consoleForm, signInCookie } from './support/consoleSession.js';
import { api, idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { connectMcp } from './support/mcpClient.js';
import { serverStoreFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';
/** The attack's key: only the ADR-0004 agent scopes, which grant reading and continuing runs. */
const AGENT_SCOPES = 'agent.read agent.write';
/** A question once answered is never asked again, so each turn asks its own. */
const confirmation = (n: number) => ({
  question_id: `scope_ok_${n}`,
  prompt: 'Confirm the proposed scope?',
  kind: 'confirmation',
});
const CONFIRM = confirmation(1);

describe.each(serverStoreFlavours())(
  'ATP-31: agent execution cannot authorize a human confirmation on $name',
  (flavour) => {
    let h: TestHelix;
    let account: string;
    let keyA: string;
    let keyAId: string;
    let keyB: string;
    let agent: Client;
    let agentAsPerson: Client;
    let person: Client;

    beforeAll(async () => {
      h = await startTestHelix(flavour);
      account = (await createAccount(await accountDeps(h.testStore.store), { displayName: 'Ada' })).accountId;
      keyA = await h.key(AGENT_SCOPES, 'tenant-a', account);
      keyAId = (await h.testStore.store.read.apiKeys.listForAccount(account))[0]!.keyId;
      // Key B: the same owner (tenant and account), the person's own client.
      keyB = await h.key(AGENT_SCOPES, 'tenant-a', account);
      agent = await connectMcp(h.url, keyA, '/mcp/codex');
      agentAsPerson = await connectMcp(h.url, keyA, '/mcp');
      person = await connectMcp(h.url, keyB, '/mcp');
    });
    afterAll(async () => {
      for (const client of [agent, agentAsPerson, person]) await client?.close();
      await h?.close();
    });

    const inspect = async (runId: string) => (await api(h.url, 'GET', `${RUNS}/${runId}`, { token: keyB })).body;
    /** The agent (key A) claims the run's open call and asks the person to confirm. */
    const agentAsksToConfirm = async (runId: string, claimId: string, question = CONFIRM) => {
      const callId = await pendingCallOf(agent, runId);
      const claimed = await agentTool(agent, 'claim', { runId, callId, claimId });
      expect(claimed.isError, JSON.stringify(claimed.body)).toBe(false);
      const asked = await agentTool(agent, 'complete', {
        ownedRef: claimed.body.ownedRef,
        result: { text: '', questions: [question] },
      });
      expect(asked.body.run).toMatchObject({ completion_status: 'needs_input', pending_questions: [question] });
      // What the turn's task told the agent: the answers so far.
      return claimed.body.task.instructions as string;
    };
    const confirmOver = (client: Client, runId: string, version: number, question = CONFIRM) =>
      client.callTool({
        name: 'helix_run_answer',
        arguments: {
          run_id: runId,
          idempotency_key: idemKey(),
          request: { expected_version: version, confirmation: { questionId: question.question_id, isConfirmed: true } },
        },
      });

    it("refuses the claiming key's confirmation over helix_run_answer and REST continue, and takes another key's and the console's", async () => {
      const started = await api(h.url, 'POST', RUNS, {
        token: keyA,
        idempotencyKey: idemKey(),
        body: { objective: 'Migrate the staging database to the new schema', turn_executor: 'agent_task' },
      });
      expect(started.status, started.text).toBe(201);
      const runId = started.body.run_id as string;
      const firstTurn = api(h.url, 'POST', `${RUNS}/${runId}/continue`, {
        token: keyA,
        idempotencyKey: idemKey(),
        body: { expected_version: 1, instruction: 'Plan the migration.' },
      });
      await agentAsksToConfirm(runId, 'claim-1');
      const asked = (await firstTurn).body;
      expect(asked).toMatchObject({ lifecycle_status: 'waiting', pending_questions: [CONFIRM] });

      // Key A executed agent work in this run: its confirmation is refused, whatever the surface.
      // An admitted answer would start a turn that waits for an agent: bound the wait, so a
      // regression fails here, on this call, rather than at the test's timeout.
      const refused = await Promise.race([
        confirmOver(agentAsPerson, runId, asked.version),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error("key A's confirmation was admitted: it started a turn")), 5_000),
        ),
      ]);
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ code: 'confirmation_requires_person', status: 403 });
      const rest = await api(h.url, 'POST', `${RUNS}/${runId}/continue`, {
        token: keyA,
        idempotencyKey: idemKey(),
        body: {
          expected_version: asked.version,
          answers: [{ question_id: CONFIRM.question_id, value: { is_confirmed: true } }],
        },
      });
      expect(rest.status, rest.text).toBe(403);
      expect(rest.body.code).toBe('confirmation_requires_person');
      // Nothing spent: same version, same steps, the question still pending.
      expect(await inspect(runId)).toMatchObject({
        version: asked.version,
        budget: { steps_used: asked.budget.steps_used },
        pending_questions: [CONFIRM],
      });

      // Key B, the same owner's other credential, confirms: the next turn runs and the agent asks again.
      const confirmed = confirmOver(person, runId, asked.version);
      expect(await agentAsksToConfirm(runId, 'claim-2', confirmation(2))).toContain(
        'scope_ok_1: {"is_confirmed":true}',
      );
      const afterB = (await confirmed).structuredContent as { version: number };
      expect(afterB.version).toBe(asked.version + 2);

      // The console is a signed-in person: it confirms even through key A, the only key left that owns the run.
      const keyBRow = (await h.testStore.store.read.apiKeys.listForAccount(account)).find((k) => k.keyId !== keyAId)!;
      await h.testStore.store.read.apiKeys.revoke(keyBRow.keyId, Date.now());
      const cookie = await signInCookie(h.url, await accountDeps(h.testStore.store), account);
      const consoleAnswer = consoleForm(h.url, cookie, `/account/runs/${runId}/answers`, {
        question_id: confirmation(2).question_id,
        expected_version: String(afterB.version),
        decision: 'confirm',
        idempotency_key: 'console-atp31-confirm',
      });
      expect(await agentAsksToConfirm(runId, 'claim-3', confirmation(3))).toContain(
        'scope_ok_2: {"is_confirmed":true}',
      );
      expect((await consoleAnswer).status).toBe(303);
      expect((await api(h.url, 'GET', `${RUNS}/${runId}`, { token: keyA })).body).toMatchObject({
        version: afterB.version + 2,
        pending_questions: [confirmation(3)],
      });
    });
  },
);
