import { describe, expect, it } from 'vitest';
import { isCredentialShaped } from '../../domain/credentialShape.js';
import { isInviteToken, isRoomId, isRunChatBindingRef, isRunRoomBindingRef } from '../../domain/rooms.js';
import { newInviteToken, newRoomId, newRunChatBindingRef, newRunRoomBindingRef } from './ids.js';

describe('room identifiers as the server makes them', () => {
  it('SLR-06, WD-01: server-made ids and refs match their own format only', () => {
    for (let i = 0; i < 50; i++) {
      const [room, rrb, rcb, token] = [newRoomId(), newRunRoomBindingRef(), newRunChatBindingRef(), newInviteToken()];
      expect([isRoomId(room), isRunRoomBindingRef(rrb), isRunChatBindingRef(rcb), isInviteToken(token)]).toEqual([
        true,
        true,
        true,
        true,
      ]);
      expect(isRunRoomBindingRef(rcb) || isRunChatBindingRef(rrb) || isRoomId(rrb)).toBe(false);
      // SLR-08: an invite token is a credential wherever it turns up.
      expect(isCredentialShaped(`join with ${token}`)).toBe(true);
    }
  });
});
