import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodexAuthError } from './codexAuthError.js';
import {
  documentAfterRefresh,
  documentAfterTerminalRefresh,
  documentFromLogin,
  parseCredentialDocument,
  serializeCredentialDocument,
  type CredentialDocument,
} from './credentialDocument.js';
import { TERMINAL_REFRESH_REASONS } from './tokenClient.js';

const v1Text = readFileSync(new URL('../../../test/fixtures/codex-credentials/v1.json', import.meta.url), 'utf8');

const login = documentFromLogin(
  { idToken: 'id.a.b', accessToken: 'ac.a.b', refreshToken: 'rt-1', expiresAt: 5_000_000, accountId: 'acct_1' },
  1_000_000,
);

describe('the credential document', () => {
  it('reads the version-1 document an earlier release wrote, as healthy', () => {
    const doc = parseCredentialDocument(v1Text);
    expect(doc.version).toBe(1);
    expect(doc.refreshToken).toBe('rt_v1_fixture_refresh_token_0001');
    expect(doc.accountId).toBe('acct_v1fixture0001');
    expect(doc.expiresAt).toBeUndefined();
    expect(doc.health).toEqual({ state: 'ok', since: Date.parse('2024-05-29T15:06:40.000Z') });
  });

  it('writes every document as version 2, so a v1 migrates on its next write', () => {
    const written = JSON.parse(serializeCredentialDocument(parseCredentialDocument(v1Text))) as {
      version: number;
      health: unknown;
    };
    expect(written.version).toBe(2);
    expect(written.health).toEqual({ state: 'ok', since: '2024-05-29T15:06:40.000Z' });
  });

  it('refuses text that is not a known version without echoing it', () => {
    for (const text of [
      'not json',
      '{"version":3}',
      JSON.stringify({ version: 2, tokens: {}, account_id: 'x' }),
      JSON.stringify({ ...JSON.parse(v1Text), version: 2 }),
    ]) {
      let caught: unknown;
      try {
        parseCredentialDocument(text);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(CodexAuthError);
      expect((caught as CodexAuthError).code).toBe('document_unreadable');
      expect((caught as Error).message).not.toContain('rt_v1');
    }
  });

  it('a refresh keeps what the response omitted and clears terminal health', () => {
    const broken = documentAfterTerminalRefresh(login, 'refresh_token_reused', 2_000_000);
    const after = documentAfterRefresh(broken, { refreshToken: 'rt-2', expiresAt: 9_000_000 }, 'acct_1', 3_000_000);
    expect(after).toMatchObject({
      idToken: 'id.a.b',
      accessToken: 'ac.a.b',
      refreshToken: 'rt-2',
      expiresAt: 5_000_000,
      health: { state: 'ok', since: 3_000_000 },
    });
    const rotated = documentAfterRefresh(login, { accessToken: 'ac.new.x', expiresAt: 9_000_000 }, 'acct_1', 3_000_000);
    expect(rotated).toMatchObject({ accessToken: 'ac.new.x', refreshToken: 'rt-1', expiresAt: 9_000_000 });
  });

  it('round-trips any document through its stored form', () => {
    const ms = fc.integer({ min: 0, max: 4_102_444_800_000 });
    const tokenText = fc.string({ minLength: 1, maxLength: 40 });
    const health = fc.oneof(
      ms.map((since) => ({ state: 'ok' as const, since })),
      fc
        .tuple(fc.constantFrom(...TERMINAL_REFRESH_REASONS), ms)
        .map(([reason, since]) => ({ state: 'reconnect-required' as const, reason, since })),
    );
    fc.assert(
      fc.property(
        tokenText,
        tokenText,
        tokenText,
        tokenText,
        ms,
        fc.option(ms, { nil: undefined }),
        health,
        (idToken, accessToken, refreshToken, accountId, savedAt, expiresAt, h) => {
          const doc: CredentialDocument = {
            version: 2,
            idToken,
            accessToken,
            refreshToken,
            accountId,
            savedAt,
            ...(expiresAt === undefined ? {} : { expiresAt }),
            health: h,
          };
          expect(parseCredentialDocument(serializeCredentialDocument(doc))).toEqual(doc);
        },
      ),
    );
  });
});
