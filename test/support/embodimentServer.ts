// The server the embodiment tests start: the room rate limits off (they would throttle a test's
// burst of calls), the scripted environment adapter fixtures on, a manual clock; and the account
// policy that locks the room feature away (MC-12: a stop is never refused for it).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll } from 'vitest';
import { manualClock, startTestHelix, type TestHelix } from './harness.js';
import type { StoreFlavour } from './stores.js';

export const EMBODIMENT_ENV = {
  HELIX_ROOM_AGENT_IP_RATE_LIMIT: '0',
  HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT: '0',
  HELIX_ENVIRONMENT_ADAPTER_FIXTURES: '1',
} as const;

export const ROOM_FEATURE_LOCKED = {
  features: { shared_live_room: false },
  defaultCapability: 'admit' as const,
  capabilities: {},
} as any;

export interface EmbodimentServer {
  readonly clock: ReturnType<typeof manualClock>;
  /** MCP clients the test opens; closed after the suite. */
  readonly clients: Client[];
  /** The server, once `beforeAll` has started it. */
  readonly h: TestHelix;
}

/** Starts one embodiment server (with `env` on top) for the enclosing suite; stops it and its clients after it. */
export const useEmbodimentServer = (
  flavour: StoreFlavour,
  env: Readonly<Record<string, string>> = {},
): EmbodimentServer => {
  const clock = manualClock();
  const clients: Client[] = [];
  let helix: TestHelix | undefined;
  beforeAll(async () => {
    helix = await startTestHelix(flavour, { env: { ...EMBODIMENT_ENV, ...env }, clock });
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await helix?.close();
  });
  return {
    clock,
    clients,
    get h() {
      if (helix === undefined) throw new Error('the embodiment server starts in beforeAll');
      return helix;
    },
  };
};
