import { describe, expect, it } from 'vitest';
import { scriptedArtifact, scriptedCandidate } from '../solver/scriptedExecutor.js';
import { evaluateTerminalAuthority } from './terminalAuthority.js';

const LIB = { capabilityId: 'research-library.search', family: 'research_library_evidence' };
const a = scriptedArtifact('alpha', LIB);
const b = scriptedArtifact('beta', LIB);

describe('terminal authority', () => {
  it('authorizes one writer whose text hash matches and whose refs are all current-turn artifacts', () => {
    expect(evaluateTerminalAuthority([scriptedCandidate('answer', [a.ref, b.ref])], [a, b], []).status).toBe(
      'authorized',
    );
  });

  it.each([
    ['no candidate', [], 'not_evaluated', 'no_candidate'],
    [
      'two writers',
      [scriptedCandidate('x', [a.ref], {}, 'w1'), scriptedCandidate('y', [a.ref], {}, 'w2')],
      'not_authorized',
      'multiple_writers',
    ],
    [
      'two candidates from one writer',
      [scriptedCandidate('x', [a.ref]), scriptedCandidate('y', [a.ref])],
      'not_authorized',
      'multiple_writers',
    ],
    ['a tampered text', [{ ...scriptedCandidate('x', [a.ref]), text: 'y' }], 'not_authorized', 'text_hash_mismatch'],
    ['no supporting refs', [scriptedCandidate('x', [])], 'not_authorized', 'no_supporting_refs'],
    [
      'a ref from elsewhere',
      [scriptedCandidate('x', [a.ref, 'artifact:sha256:earlier-turn'])],
      'not_authorized',
      'support_not_current_turn',
    ],
    ['blank text', [scriptedCandidate('   ', [a.ref])], 'not_authorized', 'empty_text'],
  ] as const)('refuses %s', (_label, candidates, status, reason) => {
    const decision = evaluateTerminalAuthority(candidates, [a, b], []);
    expect(decision.status).toBe(status);
    expect(decision.reason).toBe(reason);
  });

  it('refuses a written answer stating a value its cited passages never state (ungrounded_values)', () => {
    const written = (text: string) => evaluateTerminalAuthority([scriptedCandidate(text, [a.ref])], [a, b], []);
    expect(a.excerpt).not.toContain('6700');
    expect(written('The default value is 6700.')).toMatchObject({
      status: 'not_authorized',
      reason: 'ungrounded_values',
    });
    expect(written('It depends on `gc.auto`.')).toMatchObject({
      status: 'not_authorized',
      reason: 'ungrounded_values',
    });
    // A value stated only by a passage the answer does not cite is not grounded either; citing it is.
    const stating = scriptedArtifact('The default value is 6700.', LIB);
    const cites = (refs: string[]) =>
      evaluateTerminalAuthority([scriptedCandidate('By default 6700.', refs)], [a, stating], []).status;
    expect(cites([a.ref])).toBe('not_authorized');
    expect(cites([a.ref, stating.ref])).toBe('authorized');
    // The extractive executor's quotes are grounded by construction.
    const quoted = { ...scriptedCandidate('The default value is 6700.', [a.ref]), quotesOnly: true as const };
    expect(evaluateTerminalAuthority([quoted], [a, b], []).status).toBe('authorized');
  });

  it('refuses while a scope-required evidence family is missing', () => {
    expect(evaluateTerminalAuthority([scriptedCandidate('x', [a.ref])], [a], ['scholarly_evidence']).reason).toBe(
      'required_evidence_missing',
    );
  });
});
