import { mkdtempSync, readdirSync, rmSync, statSync, chmodSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeApprovalKeys } from '../src/config/runtimeApprovalConfig.js';
import { verifyAndConsumeApproval } from '../src/service/approvals/verifyAndConsumeApproval.js';
import { openStore } from '../src/store/openStore.js';
import { announcedServer, runCli, spawnTs } from './support/processes.js';
import { ceilingFor } from './support/ceilings.js';

// The reference approval host and the server's registry (D-11, APR-02..APR-07, APR-10, D-06),
// through the real `helix` processes.
const VARIABLE = 'HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON';
const ROOM = `room_${'1'.repeat(24)}`;
const RUN = 'run_cli-approval-1';
const ACTION = '{"kind":"place","block":"minecraft:stone","at":{"x":1,"y":64,"z":-3}}';

interface Entry {
  algorithm: string;
  issuer: string;
  keyId: string;
  publicKeyPem: string;
}

describe('helix approvals (D-11: the reference approval host, outside the server)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'helix-approvals-'));
  const keys = join(dir, 'keys');
  let entry: Entry;
  let keyFile: string;

  beforeAll(async () => {
    const made = await runCli(['approvals', 'keygen', '--out', keys, '--issuer', 'workstation.local']);
    expect(made.code, made.stderr).toBe(0);
    entry = JSON.parse(made.stdout) as Entry;
    keyFile = join(keys, readdirSync(keys)[0]!);
  }, ceilingFor(1));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const signArgs = (extra: readonly string[] = []): string[] => [
    'approvals',
    'sign',
    '--key',
    keyFile,
    '--issuer',
    entry.issuer,
    '--key-id',
    entry.keyId,
    '--room',
    ROOM,
    '--subject',
    'player-1',
    '--run',
    RUN,
    '--turn',
    '2',
    '--action',
    ACTION,
    ...extra,
  ];

  it('D-11: keygen writes the private key 0600 and prints only the public registry entry', () => {
    expect(entry).toEqual({
      algorithm: 'ed25519',
      issuer: 'workstation.local',
      keyId: expect.stringMatching(/^ed25519-[0-9a-f]{16}$/),
      publicKeyPem: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----\n.+\n-----END PUBLIC KEY-----$/),
    });
    expect(keyFile).toBe(join(keys, `${entry.keyId}.private.pem`));
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(keys).mode & 0o777).toBe(0o700);
  });

  it('D-11, APR-02, D-06: a receipt from `helix approvals sign` verifies against the printed entry, once', {
    timeout: ceilingFor(2),
  }, async () => {
    const signed = await runCli(signArgs());
    expect(signed.code, signed.stderr).toBe(0);
    const receipt = signed.stdout.trim();
    expect(signed.stdout).toBe(`${receipt}\n`);
    expect(receipt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(signed.stdout + signed.stderr).not.toContain('PRIVATE KEY');

    const trustedKeys = runtimeApprovalKeys({ [VARIABLE]: JSON.stringify([entry]) });
    const store = await openStore(join(dir, 'helix.db'));
    try {
      const deps = { store, trustedKeys, now: () => Date.now() };
      const request = {
        receipt,
        action: JSON.parse(ACTION),
        roomId: ROOM,
        subjectRef: 'player-1',
        runId: RUN,
        turn: 2,
        ownerHash: 'd'.repeat(64),
      };
      await expect(verifyAndConsumeApproval(deps, request)).resolves.toMatchObject({
        issuer: 'workstation.local',
        keyId: entry.keyId,
        roomId: ROOM,
      });
      await expect(verifyAndConsumeApproval(deps, request)).rejects.toMatchObject({
        code: 'runtime_approval_receipt_replayed',
      });
      // Another room than the one signed for.
      const other = await runCli(signArgs(['--ttl-seconds', '60']));
      await expect(
        verifyAndConsumeApproval(deps, { ...request, receipt: other.stdout.trim(), roomId: `room_${'2'.repeat(24)}` }),
      ).rejects.toMatchObject({ code: 'runtime_approval_receipt_invalid' });
    } finally {
      await store.close();
    }
  });

  it('sign refuses bad input and a key file others can read (exit 2), printing no receipt', {
    timeout: ceilingFor(5),
  }, async () => {
    const cases: [string[], RegExp][] = [
      [signArgs(['--ttl-seconds', '601']), /--ttl-seconds must be a whole number 1-600/],
      [signArgs(['--action', '{not json']), /--action is not valid JSON/],
      [signArgs(['--room', 'room-b']), /--room is not valid/],
    ];
    for (const [args, message] of cases) {
      const res = await runCli(args);
      expect(res).toMatchObject({ code: 2, stdout: '' });
      expect(res.stderr).toMatch(message);
    }
    const runWithoutTurn = signArgs().filter((_, i, all) => all[i] !== '--turn' && all[i - 1] !== '--turn');
    expect(await runCli(runWithoutTurn)).toMatchObject({ code: 2, stdout: '' });

    const loose = join(dir, 'loose.pem');
    writeFileSync(loose, 'x');
    chmodSync(loose, 0o644);
    const res = await runCli(signArgs().map((a) => (a === keyFile ? loose : a)));
    expect(res).toMatchObject({ code: 2, stdout: '' });
    expect(res.stderr).toContain('must not be accessible by group or others');
  });

  it('APR-03, D-06: status reports durable_store with the key identities, or fail_closed_unconfigured', {
    timeout: ceilingFor(2),
  }, async () => {
    const configured = await runCli(['approvals', 'status'], { [VARIABLE]: JSON.stringify([entry]) });
    expect(configured.code, configured.stderr).toBe(0);
    expect(JSON.parse(configured.stdout)).toEqual({
      schema: 'helix.runtime_tool_confirmation.server_bootstrap_status.v1',
      replay_protection: 'durable_store',
      trusted_key_count: 1,
      trusted_keys: [{ issuer: 'workstation.local', key_id: entry.keyId }],
      signer: 'none',
    });
    expect(configured.stdout).not.toContain('PUBLIC KEY');
    const unconfigured = await runCli(['approvals', 'status'], { [VARIABLE]: '' });
    expect(JSON.parse(unconfigured.stdout)).toMatchObject({
      replay_protection: 'fail_closed_unconfigured',
      trusted_key_count: 0,
      trusted_keys: [],
    });
  });

  it('APR-05: helix serve refuses to start with an ambiguous or malformed registry, naming the variable and code', {
    timeout: ceilingFor(3),
  }, async () => {
    const database = join(dir, 'serve.db');
    const bad = [JSON.stringify([entry, entry]), '{"algorithm":"ed25519"}', '[{"algorithm":'];
    for (const registry of bad) {
      const res = await runCli(['serve', '--port', '0', '--database', database], { [VARIABLE]: registry });
      expect(res.code).toBe(2);
      expect(res.stdout).not.toContain('helix listening');
      expect(res.stderr).toMatch(
        /^helix: configuration error: HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON is invalid \(runtime_approval_trusted_key_config_invalid\): /,
      );
    }
  });

  it('APR-02, APR-03: helix serve starts with the entry and logs its bootstrap status (durable_store)', {
    timeout: ceilingFor(1),
  }, async () => {
    // pino writes asynchronously: the log line may follow the announcement, so wait for the line itself.
    let logged: (line: { msg?: string; runtime_approvals?: unknown }) => void = () => undefined;
    const listeningLine = new Promise<{ runtime_approvals?: unknown }>((resolve) => (logged = resolve));
    const server = await announcedServer(
      spawnTs('src/cli/main.ts', ['serve', '--port', '0', '--database', join(dir, 'serve.db')], {
        [VARIABLE]: JSON.stringify([entry]),
        HELIX_LOG_LEVEL: 'info',
      }),
      (line) => {
        const record = line.startsWith('{') ? (JSON.parse(line) as { msg?: string }) : {};
        if (record.msg === 'helix listening') logged(record);
        return /helix listening on (\S+)/.exec(line)?.[1];
      },
    );
    try {
      const listening = await listeningLine;
      expect(listening.runtime_approvals).toEqual({
        schema: 'helix.runtime_tool_confirmation.server_bootstrap_status.v1',
        replay_protection: 'durable_store',
        trusted_key_count: 1,
        trusted_keys: [{ issuer: 'workstation.local', key_id: entry.keyId }],
        signer: 'none',
      });
    } finally {
      await server.kill();
    }
  });
});
