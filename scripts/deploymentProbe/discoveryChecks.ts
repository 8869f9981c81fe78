import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { describeFailure, readBoundedText, type ProbeContext } from './guardedFetch.js';
import { expectedResource, type ExpectedResource } from './expectedResource.js';
import { check, type Check } from './report.js';

/** The run scopes the contract requires every Helix deployment to advertise. */
export const REQUIRED_SCOPES = ['helix.agent_runs.read', 'helix.agent_runs.write'] as const;
export const MCP_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';

const METADATA_DOCUMENTS = [
  { id: 'discovery.protected_resource_metadata', path: '/.well-known/oauth-protected-resource' },
  { id: 'discovery.protected_resource_metadata_mcp', path: MCP_METADATA_PATH },
] as const;

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'helix-provider-conformance', version: '1.0.0' },
  },
};

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

/** Helix serves no Agent Access page; the contract's manifest check does not apply to it. */
export const agentAccessManifestCheck = (): Check =>
  check(
    'discovery.agent_access_manifest',
    'skipped',
    'Helix does not serve an Agent Access manifest; the check applies to CasimirBot only',
  );

/** The resource a client requests tokens for must be the audience the deployment accepts (expectedResource.ts). */
const resourceProblem = (resource: unknown, target: string, expected: ExpectedResource): string | undefined => {
  if (typeof resource !== 'string') return 'resource is missing or not a string';
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return `resource ${JSON.stringify(resource)} is not an absolute URL`;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && target.startsWith('http:')))
    return `resource ${resource} is not https`;
  if (!expected.values.includes(resource))
    return `resource ${resource} is not the ${expected.source} ${expected.values.join(' or ')}: clients following this metadata would mint tokens the deployment refuses`;
  return undefined;
};

const metadataProblems = (
  document: Record<string, unknown>,
  ctx: ProbeContext,
  requiredScopes: readonly string[],
): string[] => {
  const problems: string[] = [];
  const resource = resourceProblem(document.resource, ctx.target, expectedResource(ctx.target, ctx.accessToken));
  if (resource !== undefined) problems.push(resource);
  const scopes = document.scopes_supported;
  if (!isStringArray(scopes)) problems.push('scopes_supported is not an array of strings');
  else {
    const missing = requiredScopes.filter((s) => !scopes.includes(s));
    if (missing.length > 0) problems.push(`scopes_supported lacks ${missing.join(', ')}`);
  }
  const methods = document.bearer_methods_supported;
  if (!isStringArray(methods) || !methods.includes('header'))
    problems.push('bearer_methods_supported does not contain "header"');
  if (!Array.isArray(document.authorization_servers)) problems.push('authorization_servers is not an array');
  return problems;
};

/** An empty list is legal RFC 9728 but leaves clients no way to obtain a token: a warning, not a failure. */
const authorizationServersCheck = (id: string, servers: unknown): Check => {
  if (!Array.isArray(servers)) return check(id, 'failed', 'authorization_servers is not an array');
  if (servers.length === 0)
    return check(
      id,
      'warning',
      'authorization_servers is empty: OAuth clients cannot discover where to obtain a token',
    );
  if (!isStringArray(servers)) return check(id, 'failed', 'authorization_servers holds a non-string entry');
  return check(id, 'passed', `${servers.length} authorization server(s) advertised`);
};

/**
 * One RFC 9728 document: the canonical resource, the required scopes and the header bearer method
 * (check `id`), then its authorization servers (check `<id>.authorization_servers`).
 */
export const protectedResourceMetadataCheck = async (
  ctx: ProbeContext,
  id: string,
  path: string,
  requiredScopes: readonly string[] = REQUIRED_SCOPES,
): Promise<Check[]> => {
  const serversId = `${id}.authorization_servers`;
  const notRead = (detail: string): Check[] => [
    check(id, 'failed', detail),
    check(serversId, 'skipped', 'metadata document not read'),
  ];
  let response: Response;
  let text: string;
  try {
    response = await ctx.fetch(`${ctx.target}${path}`, { headers: { accept: 'application/json' } });
    text = await readBoundedText(response);
  } catch (err) {
    return notRead(`GET ${path}: ${describeFailure(err)}`);
  }
  if (response.status !== 200) return notRead(`GET ${path} answered ${response.status}, expected 200`);
  const type = response.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type))
    return notRead(`GET ${path} answered content-type ${JSON.stringify(type)}, expected application/json`);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return notRead(`GET ${path} answered a body that is not JSON`);
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document))
    return notRead(`GET ${path} answered JSON that is not an object`);
  const fields = document as Record<string, unknown>;
  const problems = metadataProblems(fields, ctx, requiredScopes);
  const scopes = requiredScopes === REQUIRED_SCOPES ? 'run scopes' : `the ${requiredScopes.length} required scopes`;
  const main =
    problems.length === 0
      ? check(id, 'passed', `resource ${String(fields.resource)}; ${scopes} and header bearer method advertised`)
      : check(id, 'failed', problems.join('; '));
  return [main, authorizationServersCheck(serversId, fields.authorization_servers)];
};

/** `resource_metadata` from a Bearer challenge (RFC 9728 §5.1), or undefined when absent. */
export const challengeMetadataUrl = (header: string): string | undefined => {
  if (!/^\s*Bearer(\s|$)/i.test(header)) return undefined;
  return /(?:^|[\s,])resource_metadata\s*=\s*"([^"]*)"/i.exec(header)?.[1];
};

/** A request made without credentials, and the metadata documents its challenge may point at. */
export interface ChallengeProbe {
  readonly id: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly init?: RequestInit;
  readonly metadataPaths: readonly string[];
}

/** RFC 6750 §3 / RFC 9728 §5.1: 401 with a Bearer challenge naming one of the expected documents. */
export const challengeCheck = async (ctx: ProbeContext, probe: ChallengeProbe): Promise<Check> => {
  const { id, method, path } = probe;
  const expected = probe.metadataPaths.map((p) => `${ctx.target}${p}`);
  let response: Response;
  try {
    response = await ctx.fetch(`${ctx.target}${path}`, { ...probe.init, method });
    await response.body?.cancel();
  } catch (err) {
    return check(id, 'failed', `${method} ${path}: ${describeFailure(err)}`);
  }
  if (response.status !== 401)
    return check(id, 'failed', `${method} ${path} without credentials answered ${response.status}, expected 401`);
  const header = response.headers.get('www-authenticate');
  if (header === null) return check(id, 'failed', '401 without a WWW-Authenticate header');
  const metadata = challengeMetadataUrl(header);
  if (metadata === undefined)
    return check(id, 'failed', 'WWW-Authenticate is not a Bearer challenge with resource_metadata');
  if (!expected.includes(metadata))
    return check(id, 'failed', `challenge resource_metadata is ${metadata}, expected ${expected.join(' or ')}`);
  return check(id, 'passed', `401 with a Bearer challenge naming resource_metadata ${metadata}`);
};

/** POST /mcp without credentials must be challenged, pointing at the MCP metadata document. */
export const unauthenticatedChallengeCheck = (ctx: ProbeContext): Promise<Check> =>
  challengeCheck(ctx, {
    id: 'mcp.unauthenticated_challenge',
    method: 'POST',
    path: '/mcp',
    init: {
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(INITIALIZE),
    },
    metadataPaths: [MCP_METADATA_PATH],
  });

/** Stateless Streamable HTTP: no SSE stream to GET. */
const getNotAllowedCheck = async (ctx: ProbeContext): Promise<Check> => {
  const id = 'mcp.get_not_allowed';
  let response: Response;
  try {
    response = await ctx.fetch(`${ctx.target}/mcp`, { headers: { accept: 'text/event-stream' } });
    await response.body?.cancel();
  } catch (err) {
    return check(id, 'failed', `GET /mcp: ${describeFailure(err)}`);
  }
  if (response.status !== 405) return check(id, 'failed', `GET /mcp answered ${response.status}, expected 405`);
  return check(id, 'passed', `405 (Allow: ${response.headers.get('allow') ?? 'not given'})`);
};

/** Both protected-resource metadata documents, each with its authorization_servers check. */
export const protectedResourceMetadataChecks = async (ctx: ProbeContext): Promise<Check[]> => {
  const checks: Check[] = [];
  for (const { id, path } of METADATA_DOCUMENTS) checks.push(...(await protectedResourceMetadataCheck(ctx, id, path)));
  return checks;
};

/** The checks that need no credential. */
export const discoveryChecks = async (ctx: ProbeContext): Promise<Check[]> => [
  agentAccessManifestCheck(),
  ...(await protectedResourceMetadataChecks(ctx)),
  await unauthenticatedChallengeCheck(ctx),
  await getNotAllowedCheck(ctx),
];
