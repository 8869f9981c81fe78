import { createAccount } from '../../src/service/accounts/createAccount.js';
import { accountDeps } from '../../test/support/accounts.js';
import { signInCookie } from '../../test/support/consoleSession.js';
import type { StoreFlavour } from '../../test/support/stores.js';
import { startTestHelix } from '../../test/support/testHelix.js';
import { bindingsModel, freshCell, type BindingsOperation } from './bindings.js';
import type { CellIdentities } from './bindingsHttp.js';
import { bindingsWorkload, setUpCell, type Cell } from './bindingsWorkload.js';
import { Random } from './random.js';
import { mergeSummaries, summarize, type ScenarioSummary } from './summary.js';

export interface BindingsScenarioOptions {
  readonly cells: number;
  readonly clientsPerCell: number;
  readonly durationMs: number;
  readonly seed: number;
}

/** Room, chat and rate limits off (the workload is the one client they exist to slow down). */
const ENV = {
  HELIX_ACCOUNT_DEFAULT_FEATURES: 'shared_live_room',
  HELIX_ROOM_AGENT_IP_RATE_LIMIT: '0',
  HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT: '0',
  HELIX_AGENT_IP_RATE_LIMIT: '0',
  HELIX_AGENT_PRINCIPAL_RATE_LIMIT: '0',
  HELIX_AGENT_RUN_OBSERVER_IP_RATE_LIMIT: '0',
  HELIX_AGENT_RUN_OBSERVER_ACCOUNT_RATE_LIMIT: '0',
};
const MEMBER_SCOPES = 'helix.rooms.read helix.rooms.manage helix.agent_runs.read helix.agent_runs.write';

/**
 * A Helix in this process on a fresh `flavour` store, one room owner, and `cells` member accounts
 * each with two rooms, three runs and two chats (scripts/history/bindingsWorkload.ts); clients race
 * binds, claims, withdrawals and membership changes over real HTTP for `durationMs`. Answers the
 * history and the cells (whose rooms each cell's model starts from).
 */
export const recordBindings = async (
  flavour: StoreFlavour,
  options: BindingsScenarioOptions,
): Promise<{ history: BindingsOperation[]; cells: Cell[] }> => {
  const h = await startTestHelix(flavour, { env: ENV });
  try {
    const accounts = await accountDeps(h.testStore.store);
    const owner = (await createAccount(accounts, { displayName: 'Owner' })).accountId;
    const ownerCookie = await signInCookie(h.url, accounts, owner);
    const ownerToken = await h.key(MEMBER_SCOPES, 'tenant-a', owner);
    const operatorToken = await h.key('subject.export', 'tenant-ops', 'operator');
    const random = new Random(options.seed);
    const cells: Cell[] = [];
    for (let i = 0; i < options.cells; i++) {
      const member = (await createAccount(accounts, { displayName: `Member ${i}` })).accountId;
      const who: CellIdentities = {
        baseUrl: h.url,
        memberToken: await h.key(MEMBER_SCOPES, 'tenant-a', member),
        memberCookie: await signInCookie(h.url, accounts, member),
        ownerCookie,
        ownerToken,
        operatorToken,
        memberAccountId: member,
        timeoutMs: 10_000,
      };
      cells.push(await setUpCell(`cell${i}`, who, { rooms: 2, runs: 3, chats: 2 }, random));
    }
    const history = await bindingsWorkload(cells, {
      clientsPerCell: options.clientsPerCell,
      durationMs: options.durationMs,
      random: new Random(options.seed + 1),
    });
    return { history, cells };
  } finally {
    await h.close();
  }
};

/** Each cell checked alone against the bindings model, summed up as one scenario. */
export const summarizeBindings = (
  name: string,
  seed: number,
  recorded: { history: readonly BindingsOperation[]; cells: readonly Cell[] },
): ScenarioSummary => {
  const parts = recorded.cells.map((cell) =>
    summarize(
      { name, replicas: 1, kills: 0, seed },
      bindingsModel(freshCell(cell.rooms)),
      recorded.history.filter((op) => op.object === cell.name),
    ),
  );
  return mergeSummaries(parts);
};
