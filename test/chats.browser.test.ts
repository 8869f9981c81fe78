import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { issueSignInLink } from '../src/service/accounts/issueSignInLink.js';
import { accountDeps } from './support/accounts.js';
import { hasChromium, launchChromium, screenshotPath, signedInPage } from './support/chromium.js';
import { idemKey, startTestHelix, type TestHelix } from './support/harness.js';
import { connectMcp } from './support/mcpClient.js';
import { storeFlavours } from './support/stores.js';
import { ceilingFor } from './support/ceilings.js';

const SCOPES =
  'helix.agent_runs.read helix.agent_runs.write helix.rooms.read helix.rooms.manage helix.data.repository_evidence.read';
const QUESTION = 'How does the SQLite write-ahead log checkpoint work?';
type ToolResult = { isError?: boolean; structuredContent?: any };

// Issue 17 item 5: the chat and observer flow in Chromium, with the official MCP SDK as the agent.
describe.skipIf(!hasChromium())(
  'a console chat observed through its run in a real browser (OBS-01..OBS-16, D-05)',
  () => {
    let h: TestHelix;
    let browser: Browser;
    let repo: string;
    let agent: Client;
    let accountId: string;

    const call = async (name: string, args: Record<string, unknown>) => {
      const result = (await agent.callTool({ name, arguments: args })) as ToolResult;
      expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
      return result.structuredContent;
    };
    const startRun = async (): Promise<string> =>
      (
        await call('helix_run_start', {
          idempotency_key: idemKey('chat'),
          request: { objective: QUESTION, database_scope: ['repository_evidence'] },
        })
      ).run_id;
    const assistantMessages = (page: Page) => page.locator('#messages li[data-role="assistant"] .content');

    beforeAll(async () => {
      // A small library of evidence the run can be authorized on: one notes file in a repository root.
      repo = mkdtempSync(join(tmpdir(), 'helix-chat-repo-'));
      writeFileSync(
        join(repo, 'NOTES.md'),
        '# Storage notes\n\nWe run SQLite in write-ahead log mode; a checkpoint copies WAL frames back into the database file.\n',
      );
      h = await startTestHelix(storeFlavours()[0]!, {
        env: {
          HELIX_ACCOUNT_DEFAULT_FEATURES: 'shared_live_room',
          HELIX_AGENT_DATABASE_SCOPES: 'repository_evidence',
          HELIX_REPOSITORY_ROOTS: repo,
        },
      });
      accountId = (await createAccount(await accountDeps(h.testStore.store), { displayName: 'Olive' })).accountId;
      agent = await connectMcp(h.url, await h.key(SCOPES, 'tenant-a', accountId));
      browser = await launchChromium();
    }, ceilingFor(1));
    afterAll(async () => {
      await agent?.close();
      await browser?.close();
      await h?.close();
      rmSync(repo, { recursive: true, force: true });
    });

    it('sign in, new chat, claim, the agent drives its run, progress in the lane, exactly one assistant message, reload, disconnect, a fresh claim', async () => {
      const errors: string[] = [];
      const code = await issueSignInLink(await accountDeps(h.testStore.store), accountId);
      const page = await signedInPage(browser, h.url, code, errors);

      // PRE-03, D-05: a new chat with the user's question.
      await page.getByRole('link', { name: 'Chats' }).click();
      await page.getByLabel('Title').fill('WAL <b>notes</b>');
      await page.getByRole('button', { name: 'New chat' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('WAL <b>notes</b>');
      await page.getByLabel('Message').fill(QUESTION);
      await page.getByRole('button', { name: 'Send' }).click();
      await expect
        .poll(() => page.locator('#messages li[data-role="user"] .content').allTextContents())
        .toEqual([QUESTION]);

      // OBS-01..OBS-03: the browser issues the show-once claim with a snapshot of the chat.
      await page.getByRole('button', { name: 'Connect an agent' }).click();
      await expect.poll(() => page.locator('#claim-handle').textContent()).toMatch(/^hlxclm_[A-Za-z0-9_-]{43}$/);
      const handle = (await page.locator('#claim-handle').textContent())!;
      expect(await page.locator('#observer-status').textContent()).toBe('Waiting for your agent to claim the handle.');

      // OBS-04..OBS-06, MRT-05: the agent claims it for its own run; the receipt holds no chat id.
      const runId = await startRun();
      const claimed = await call('helix_room_claim_chat_binding', { request: { claim_handle: handle, run_id: runId } });
      expect(claimed).toMatchObject({ binding_status: 'active', snapshot_message_count: 1 });
      expect(JSON.stringify(claimed)).not.toContain(page.url().split('/').at(-1));
      await expect
        .poll(() => page.locator('#observer-status').textContent())
        .toBe('Agent connected: following its run.');
      expect(await page.locator('#claim').isHidden()).toBe(true);

      // The agent drives one governed turn: the run completes with terminal authority.
      const continued = await call('helix_run_continue', {
        run_id: runId,
        idempotency_key: idemKey('chat'),
        request: { expected_version: 1, instruction: 'Answer from the notes.' },
      });
      expect(continued).toMatchObject({ completion_status: 'completed', terminal_authority_status: 'authorized' });
      const answer: string = continued.latest_result.text;

      // OBS-13, OBS-14: progress shows in the observer lane; exactly one assistant message, the answer.
      await expect.poll(() => assistantMessages(page).allTextContents(), { timeout: 15_000 }).toEqual([answer]);
      await expect.poll(() => page.locator('#progress li').count()).toBeGreaterThan(0);
      expect(await page.locator('#messages li').count()).toBe(2);
      await expect.poll(() => page.locator('#observer-status').textContent()).toBe('The run answered.');
      await page.screenshot({ path: screenshotPath('chat.png'), fullPage: true });

      // OBS-16: a reload keeps exactly one.
      await page.reload();
      await expect.poll(() => page.locator('#observer-status').textContent()).toBe('The run answered.');
      expect(await assistantMessages(page).allTextContents()).toEqual([answer]);

      // WD-06: disconnect; the lane is closed afterwards. OBS-16: a second tab of the chat follows.
      const bindingRef = (await page.locator('#observer').getAttribute('data-binding'))!;
      const tab = await page.context().newPage();
      await tab.goto(page.url());
      const tabReloaded = tab.waitForEvent('load');
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await expect.poll(() => page.locator('#observer-status').textContent()).toBe('Disconnected.');
      await tabReloaded;
      await expect.poll(() => tab.locator('#observer-status').textContent()).toBe('Disconnected.');
      expect(errors).toEqual([]);
      const afterDisconnect = await page.evaluate(
        async (ref) => (await fetch(`/api/agi/agent-run-observer/bindings/${ref}/events`)).status,
        bindingRef,
      );
      expect(afterDisconnect).toBe(409);
      // The browser logs that deliberate refusal as a console error; nothing else may appear.
      expect(errors.splice(0)).toEqual([
        'Failed to load resource: the server responded with a status of 409 (Conflict)',
      ]);

      // WD-08: a fresh claim binds a new ref.
      await page.getByRole('button', { name: 'Connect an agent' }).click();
      // The handle is cleared while the claim is issued: wait for a new one, not for "not the old one".
      const freshHandle = async () => {
        const shown = (await page.locator('#claim-handle').textContent()) ?? '';
        return /^hlxclm_[A-Za-z0-9_-]{43}$/.test(shown) && shown !== handle ? shown : undefined;
      };
      await expect.poll(freshHandle).toBeDefined();
      const fresh = (await freshHandle())!;
      // The other tab learns of the new binding, but the handle was shown once, in the tab that asked.
      await expect
        .poll(() => tab.locator('#observer-status').textContent())
        .toBe('Waiting for your agent to claim the handle.');
      expect(await tab.locator('#claim-handle').textContent()).toBe('');
      expect(await tab.content()).not.toContain(fresh);
      const reclaimed = await call('helix_room_claim_chat_binding', {
        request: { claim_handle: fresh, run_id: await startRun() },
      });
      expect(reclaimed.binding_ref).not.toBe(claimed.binding_ref);
      await expect
        .poll(() => page.locator('#observer-status').textContent())
        .toBe('Agent connected: following its run.');
      expect(await assistantMessages(page).allTextContents()).toEqual([answer]);
      expect(errors).toEqual([]);
    });
  },
);
