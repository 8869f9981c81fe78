import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { challengeCheck, protectedResourceMetadataCheck } from '../deploymentProbe/discoveryChecks.js';
import { describeFailure, readBoundedText, type ProbeContext } from '../deploymentProbe/guardedFetch.js';
import { check, type Check } from '../deploymentProbe/report.js';
import { declaresScope, rawToolsList } from './authenticatedChecks.js';

/**
 * PCP-09: the Device Check surface (DC-01..DC-03, D-03). Its metadata document advertises only the
 * read-only room scope, its unauthenticated challenge points there, and its MCP server lists
 * exactly one tool, `helix_environment_device_check`, declaring that scope.
 */
const DEVICE_CHECK_PATH = '/mcp/device-check';
const DEVICE_CHECK_METADATA = '/.well-known/oauth-protected-resource/mcp/device-check';
const DEVICE_CHECK_TOOL = 'helix_environment_device_check';
const ROOMS_READ = 'helix.rooms.read';

const IDS = {
  metadata: 'device_check.protected_resource_metadata',
  onlyScope: 'device_check.metadata_scopes_only_rooms_read',
  challenge: 'device_check.unauthenticated_challenge',
  catalog: 'device_check.tools_list',
} as const;

/** DC-01: `scopes_supported` is exactly `["helix.rooms.read"]`. */
const onlyRoomsReadCheck = async (ctx: ProbeContext): Promise<Check> => {
  try {
    const response = await ctx.fetch(`${ctx.target}${DEVICE_CHECK_METADATA}`, {
      headers: { accept: 'application/json' },
    });
    const document = JSON.parse(await readBoundedText(response)) as { scopes_supported?: unknown };
    const scopes = document.scopes_supported;
    return Array.isArray(scopes) && scopes.length === 1 && scopes[0] === ROOMS_READ
      ? check(IDS.onlyScope, 'passed', `scopes_supported is ["${ROOMS_READ}"]`)
      : check(IDS.onlyScope, 'failed', `scopes_supported is ${JSON.stringify(scopes)}, expected ["${ROOMS_READ}"]`);
  } catch (err) {
    return check(IDS.onlyScope, 'failed', `GET ${DEVICE_CHECK_METADATA}: ${describeFailure(err)}`);
  }
};

/** The checks that need no credential. */
export const deviceCheckDiscoveryChecks = async (ctx: ProbeContext): Promise<Check[]> => [
  ...(await protectedResourceMetadataCheck(ctx, IDS.metadata, DEVICE_CHECK_METADATA, [ROOMS_READ])),
  await onlyRoomsReadCheck(ctx),
  await challengeCheck(ctx, {
    id: IDS.challenge,
    method: 'POST',
    path: DEVICE_CHECK_PATH,
    init: {
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    },
    metadataPaths: [DEVICE_CHECK_METADATA],
  }),
];

/** DC-02, DC-03: exactly one tool, declaring helix.rooms.read in both scheme fields. */
export const deviceCheckCatalogCheck = async (ctx: ProbeContext, token: string): Promise<Check> => {
  try {
    const tools = await rawToolsList(ctx, token, LATEST_PROTOCOL_VERSION, DEVICE_CHECK_PATH);
    const names = tools.map((t) => String(t.name));
    if (names.length !== 1 || names[0] !== DEVICE_CHECK_TOOL)
      return check(IDS.catalog, 'failed', `lists ${JSON.stringify(names)}, expected exactly ["${DEVICE_CHECK_TOOL}"]`);
    const tool = tools[0] as Record<string, unknown>;
    const meta = tool._meta as { securitySchemes?: unknown } | undefined;
    if (!declaresScope(tool.securitySchemes, ROOMS_READ) || !declaresScope(meta?.securitySchemes, ROOMS_READ))
      return check(IDS.catalog, 'failed', `${DEVICE_CHECK_TOOL} does not declare ${ROOMS_READ} in both scheme fields`);
    return check(IDS.catalog, 'passed', `exactly ${DEVICE_CHECK_TOOL}, declaring ${ROOMS_READ}`);
  } catch (err) {
    return check(IDS.catalog, 'failed', `tools/list on ${DEVICE_CHECK_PATH}: ${describeFailure(err)}`);
  }
};

export const deviceCheckNotConfigured = (variable: string): Check =>
  check(IDS.catalog, 'not_configured', `set ${variable} to list the Device Check catalog`);
