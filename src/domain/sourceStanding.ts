import { type AccountPolicy, hasFeature } from './accountPolicy.js';
import { isCurrentMember, type RoomMemberRecord } from './rooms.js';

/**
 * Whether a room source still speaks with its creator's authority (SRC-06: "membership changes
 * and account-policy changes remain enforceable boundaries"; §22: owner-policy loss invalidates
 * admissions). A source is created by an owner of the room and feeds every member's bound runs on
 * that owner's word, so it authorizes nothing once its creator is no longer a current owner of
 * the room, or once the creator's account policy turns `shared_live_room` off.
 */
export const SOURCE_STANDINGS = ['authorized', 'creator_not_owner', 'feature_not_enabled'] as const;
export type SourceStanding = (typeof SOURCE_STANDINGS)[number];

export const sourceStanding = (creator: RoomMemberRecord | undefined, creatorPolicy: AccountPolicy): SourceStanding => {
  if (!isCurrentMember(creator) || creator.role !== 'owner') return 'creator_not_owner';
  if (!hasFeature(creatorPolicy, 'shared_live_room')) return 'feature_not_enabled';
  return 'authorized';
};
