import { describe, expect, it } from 'vitest';
import type { RoomMemberRecord, RoomRecord, RunRoomBindingRecord } from '../domain/rooms.js';
import {
  ChatUnbindReceiptSchema,
  RoomCreateReceiptSchema,
  RoomInspectReceiptSchema,
  RoomListReceiptSchema,
  RunBindReceiptSchema,
  RunUnbindReceiptSchema,
} from './roomOutputSchemas.js';
import { projectRoom, roomListReceipt, roomReceipt, runBindReceipt, unbindReceipt } from './roomViews.js';

const room: RoomRecord = {
  roomId: `room_${'a'.repeat(24)}`,
  title: 'Build site',
  status: 'active',
  ownerAccountId: 'acct_alice',
  tenantHash: 't'.repeat(64),
  ownerHash: 'o'.repeat(64),
  consentVersion: 2,
  createdAt: 1_800_000_000_000,
  updatedAt: 1_800_000_000_000,
};
const member: RoomMemberRecord = {
  roomId: room.roomId,
  accountId: 'acct_alice',
  role: 'owner',
  acceptedConsentVersion: null,
  consentReceiptRef: null,
  joinedAt: 1_800_000_000_000,
  removedAt: null,
};
const binding: RunRoomBindingRecord = {
  bindingRef: `rrb_${'b'.repeat(32)}`,
  runId: 'run_schema0001',
  roomId: room.roomId,
  ownerHash: 'o'.repeat(64),
  accountId: 'acct_alice',
  role: 'member',
  consentVersion: 2,
  consentReceiptRef: `rcr_${'c'.repeat(32)}`,
  status: 'active',
  createdAt: 1_800_000_000_000,
  revokedAt: null,
};

describe('room receipts match the published outputSchemas (MCP-05)', () => {
  const view = projectRoom(room, member);

  it('list, inspect and create receipts', () => {
    expect(RoomListReceiptSchema.safeParse(roomListReceipt([view])).success).toBe(true);
    expect(RoomListReceiptSchema.safeParse(roomListReceipt([])).success).toBe(true);
    expect(RoomInspectReceiptSchema.safeParse(roomReceipt('inspect', view)).success).toBe(true);
    expect(RoomCreateReceiptSchema.safeParse(roomReceipt('create', view)).success).toBe(true);
    // Each receipt names its own schema: an inspect receipt is no creation receipt.
    expect(RoomCreateReceiptSchema.safeParse(roomReceipt('inspect', view)).success).toBe(false);
  });

  it('bind and unbind receipts', () => {
    expect(RunBindReceiptSchema.safeParse(runBindReceipt(binding)).success).toBe(true);
    expect(RunUnbindReceiptSchema.safeParse(unbindReceipt('runUnbind', binding.bindingRef, 'revoked')).success).toBe(
      true,
    );
    const chat = unbindReceipt('chatBindingUnbind', `rcb_${'d'.repeat(32)}`, 'already_revoked');
    expect(ChatUnbindReceiptSchema.safeParse(chat).success).toBe(true);
    expect(RunUnbindReceiptSchema.safeParse(chat).success).toBe(false);
  });

  it('a receipt claiming answer authority is refused', () => {
    expect(RunBindReceiptSchema.safeParse({ ...runBindReceipt(binding), answer_authority: true }).success).toBe(false);
  });
});
