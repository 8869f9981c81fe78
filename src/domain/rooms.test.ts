import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { consentTextProblem, isRoomId, roleMayBindRuns, roomTitleProblem } from './rooms.js';

describe('room identifiers', () => {
  it('RREST-12: the room id format never admits the literal route segments', () => {
    expect(isRoomId('run-bindings')).toBe(false);
    expect(isRoomId('chat-bindings')).toBe(false);
    fc.assert(
      fc.property(fc.string(), (s) => {
        if (isRoomId(s)) expect(s).toMatch(/^room_[0-9a-f]{24}$/);
      }),
    );
  });
});

describe('room titles and consent text', () => {
  it('SLR-08: refuses empty, over-long, multi-line and credential-shaped titles; trims the rest', () => {
    expect(roomTitleProblem('  Build site ')).toBeUndefined();
    expect(roomTitleProblem('x'.repeat(200))).toBeUndefined();
    expect(roomTitleProblem('x'.repeat(201))).toMatch(/200/);
    expect(roomTitleProblem(' \t ')).toMatch(/empty/);
    expect(roomTitleProblem('a\u0000b')).toMatch(/control/);
    expect(roomTitleProblem('a\u0085b')).toMatch(/control/);
    expect(roomTitleProblem('ghp_abcdefghijklmnopqrstuvwx')).toMatch(/credential/);
  });

  it('consent text may span lines, up to 4,000 characters', () => {
    expect(consentTextProblem('First line.\nSecond line.')).toBeUndefined();
    expect(consentTextProblem('x'.repeat(4001))).toMatch(/4000/);
    expect(consentTextProblem('bell\u0007')).toMatch(/control/);
  });

  it('RREST-04: owners and members may bind runs, observers may not', () => {
    expect([roleMayBindRuns('owner'), roleMayBindRuns('member'), roleMayBindRuns('observer')]).toEqual([
      true,
      true,
      false,
    ]);
  });
});
