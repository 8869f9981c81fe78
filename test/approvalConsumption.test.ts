// Issue 27 item 9 (D-11, APR-03, M-04): a runtime approval receipt is consumed in the same
// transaction as the workflow it approves, so a call that fails (an idempotency_conflict, or losing
// the one-workflow-per-player race as environment_subject_busy) leaves the receipt usable for the
// correct retry. Over a real server with the scripted connector, on SQLite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { runtimeApprovalKeys } from '../src/config/runtimeApprovalConfig.js';
import { playerAction } from '../src/service/embodiment/playerAction.js';
import type { RoomDeps } from '../src/service/rooms/deps.js';
import type { Store } from '../src/store/port.js';
import { signDirectApproval, testApprovalHost } from './support/approvalKeys.js';
import { codeOf, embodimentWorld } from './support/embodimentWorld.js';
import { useEmbodimentServer } from './support/embodimentServer.js';
import { refusal, roomPrincipal } from './support/roomDeps.js';
import { serverStoreFlavours } from './support/stores.js';

const APPROVALS = testApprovalHost('https://approvals.example.test', 'consume-test-key');
const REGISTRY = APPROVALS.registryJson;
const ACT = 'helix.rooms.read helix.environment_actions.read helix.environment_actions.write';
const MINE = { kind: 'mine', target: { x: 1, y: -61, z: 1 } };
const AIR = { kind: 'block', target: MINE.target, block: 'air' };
const UP = { kind: 'position', position: { x: 0, y: -59, z: 0 }, distance_to_target: null };

/**
 * The store, except that its first transaction waits for `competitor` to finish first: the call's
 * checks outside a transaction have passed by then, so whatever the competitor commits is what the
 * call's own transaction meets, every time.
 */
const racedBy = (store: Store, competitor: () => Promise<unknown>): Store => {
  let raced = false;
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name !== 'transaction') return Reflect.get(target, name, receiver);
      return async <T>(fn: Parameters<Store['transaction']>[0]) => {
        if (!raced) {
          raced = true;
          await competitor();
        }
        return target.transaction(fn) as Promise<T>;
      };
    },
  });
};

describe.each(serverStoreFlavours())(
  'approval receipts consumed with their effect on $name (D-11, APR-03)',
  (flavour) => {
    const server = useEmbodimentServer(flavour, { HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON: REGISTRY });
    const { clock, clients } = server;

    /** A room whose owner holds the player, with a receipt for one `mine` of it. */
    const ready = async () => {
      const w = await embodimentWorld(server.h, clock.now, clients);
      expect((await w.select()).isError).toBeFalsy();
      const subject = await w.subjectRef();
      const receipt = await signDirectApproval(
        APPROVALS,
        { action: MINE, roomId: w.source.roomId, subjectRef: subject },
        clock.now(),
      );
      const mine = (key: string) =>
        w.call('helix_minecraft_player_action', {
          room_id: w.source.roomId,
          idempotency_key: key,
          action: MINE,
          approval_receipt: receipt,
        });
      /** Hands out the open workflow's action and reports it done. */
      const finish = async (post: object) => {
        const [pending] = (await w.connector.poll()).actions;
        expect((await w.connector.result(pending.action_id, pending.workflow_ref, 'completed', post)).status).toBe(200);
        expect((await w.status(pending.workflow_ref)).structuredContent.status).toBe('completed');
      };
      return { w, receipt, mine, finish };
    };

    it('M-04, D-11: a call refused as idempotency_conflict leaves the receipt usable by the correct retry', async () => {
      const { w, mine, finish } = await ready();
      const jumped = await w.call('helix_minecraft_player_action', {
        room_id: w.source.roomId,
        idempotency_key: 'reused-key-0001',
        action: { kind: 'jump' },
      });
      expect(jumped.structuredContent.status).toBe('running');
      await finish(UP);
      // The same key for another action is a conflict, and it must not burn the approval.
      expect(codeOf(await mine('reused-key-0001'))).toBe('idempotency_conflict');
      const retried = await mine('fresh-key-0001');
      expect(retried.structuredContent).toMatchObject({ status: 'running', approval_consumed: true });
      await finish(AIR);
      // Consumed once it took effect: a second use is a replay, and a retry of the winner replays it.
      expect(codeOf(await mine('fresh-key-0002'))).toBe('runtime_approval_receipt_replayed');
      expect((await mine('fresh-key-0001')).structuredContent.workflow_ref).toBe(
        retried.structuredContent.workflow_ref,
      );
    });

    it('MC-12, D-11: losing the one-workflow-per-player race (environment_subject_busy) does not burn the receipt', async () => {
      const { w, receipt, mine, finish } = await ready();
      const principal = roomPrincipal(w.owner.accountId, ACT, 'tenant-a');
      const deps = (store: Store): RoomDeps => ({
        ...w.owner.rooms,
        store,
        runtimeApprovalKeys: runtimeApprovalKeys({ HELIX_RUNTIME_APPROVAL_TRUSTED_PUBLIC_KEYS_JSON: REGISTRY }),
      });
      const store = server.h.testStore.store;
      const jump = () =>
        playerAction(deps(store), principal, {
          room_id: w.source.roomId,
          idempotency_key: 'racing-jump-0001',
          action: { kind: 'jump' },
        });
      const lost = await refusal(
        playerAction(deps(racedBy(store, jump)), principal, {
          room_id: w.source.roomId,
          idempotency_key: 'racing-mine-0001',
          action: MINE,
          approval_receipt: receipt,
        }),
      );
      expect(lost?.code).toBe('environment_subject_busy');
      await finish(UP);
      // The same key is judged afresh (the refusal recorded nothing), and the receipt still approves it.
      const retried = await mine('racing-mine-0001');
      expect(retried.structuredContent).toMatchObject({ status: 'running', approval_consumed: true });
      await finish(AIR);
    });

    it('MC-12, D-11: of a mine and a jump sent at once for one player, a mine that loses keeps its receipt (repeated)', async () => {
      const { w, mine, finish } = await ready();
      for (let i = 0; i < 6; i++) {
        const [mined, jumped] = await Promise.all([
          mine(`concurrent-mine-${i}-x`),
          w.call('helix_minecraft_player_action', {
            room_id: w.source.roomId,
            idempotency_key: `concurrent-jump-${i}-x`,
            action: { kind: 'jump' },
          }),
        ]);
        const codes = [mined, jumped].map((r) => (r.isError ? codeOf(r) : r.structuredContent.status));
        expect(
          codes.filter((c) => c === 'running'),
          JSON.stringify(codes),
        ).toHaveLength(1);
        if (!mined.isError) {
          await finish(AIR);
          return;
        }
        expect(codeOf(mined)).toBe('environment_subject_busy');
        await finish(UP);
      }
      // The jump won every time: the receipt was never consumed, so it still approves the mine.
      expect((await mine('concurrent-mine-last')).structuredContent).toMatchObject({ approval_consumed: true });
      await finish(AIR);
    });
  },
);
