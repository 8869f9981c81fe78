/**
 * The pinned Codex subscription contract (docs/spec/codex-subscription-protocol.md). OAuth
 * material goes only to the issuer, the loopback callback and the Codex API origin below.
 */
export const CODEX_CLIENT_ID = 'app_EMoamEEZ73f0CkXaXp7hrann';
/** Our own product's name, sent as `originator` in authorization and on every API request. */
export const CODEX_ORIGINATOR = 'helix';
export const CODEX_SCOPE = 'openid profile email offline_access';
export const CODEX_CALLBACK_PORTS = [1455, 1457] as const;
export const CODEX_CALLBACK_PATH = '/auth/callback';
export const CODEX_ACCOUNT_CLAIM = 'https://api.openai.com/auth';

export interface CodexEndpoints {
  /** `https://auth.openai.com`: authorize, token, device authorization. */
  readonly issuer: string;
  /** `https://chatgpt.com`: Responses and model discovery under `/backend-api/codex`. */
  readonly api: string;
}

export const PINNED_CODEX_ENDPOINTS: CodexEndpoints = { issuer: 'https://auth.openai.com', api: 'https://chatgpt.com' };

export const codexPaths = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  deviceStart: '/api/accounts/deviceauth/usercode',
  devicePoll: '/api/accounts/deviceauth/token',
  deviceVerification: '/codex/device',
  deviceRedirect: '/deviceauth/callback',
  responses: '/backend-api/codex/responses',
  models: '/backend-api/codex/models?client_version=0.0.0',
} as const;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The endpoints to use. Production always gets the pinned origins. A test harness (never
 * production) may point both at one loopback fixture server with HELIX_CODEX_TEST_ORIGIN; anything
 * that is not a loopback http origin is refused, so the override cannot send credentials elsewhere.
 */
export const codexEndpointsFromEnv = (env: Readonly<Record<string, string | undefined>>): CodexEndpoints => {
  const raw = env.HELIX_CODEX_TEST_ORIGIN?.trim();
  if (raw === undefined || raw === '') return PINNED_CODEX_ENDPOINTS;
  if (env.NODE_ENV === 'production') throw new Error('HELIX_CODEX_TEST_ORIGIN is refused in production');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('HELIX_CODEX_TEST_ORIGIN must be a loopback http origin such as http://127.0.0.1:4455');
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname) || url.pathname !== '/' || url.search !== '') {
    throw new Error('HELIX_CODEX_TEST_ORIGIN must be a loopback http origin such as http://127.0.0.1:4455');
  }
  return { issuer: url.origin, api: url.origin };
};

const CALLBACK_PORTS_VARIABLE = 'HELIX_CODEX_TEST_CALLBACK_PORTS';

/**
 * The loopback callback ports to try, in order. The real issuer accepts only the redirect URIs on
 * 1455 and 1457, so production and the pinned endpoints always get those. A test harness that has
 * pointed the endpoints at its loopback fixture (HELIX_CODEX_TEST_ORIGIN) may name others, `0`
 * meaning "any free port": the CLI prints the port it bound in the authorize URL, so a test never
 * has to hold, or guess, a fixed port.
 */
export const codexCallbackPortsFromEnv = (env: Readonly<Record<string, string | undefined>>): readonly number[] => {
  const raw = env[CALLBACK_PORTS_VARIABLE]?.trim();
  if (raw === undefined || raw === '') return CODEX_CALLBACK_PORTS;
  if (env.NODE_ENV === 'production') throw new Error(`${CALLBACK_PORTS_VARIABLE} is refused in production`);
  if ((env.HELIX_CODEX_TEST_ORIGIN?.trim() ?? '') === '')
    throw new Error(
      `${CALLBACK_PORTS_VARIABLE} needs HELIX_CODEX_TEST_ORIGIN: the real issuer only redirects to ports ${CODEX_CALLBACK_PORTS.join(' and ')}`,
    );
  const ports = raw.split(',').map((part) => part.trim());
  if (!ports.every((part) => /^\d{1,5}$/.test(part) && Number(part) <= 65_535))
    throw new Error(`${CALLBACK_PORTS_VARIABLE} must be a comma-separated list of TCP ports (0 = any free port)`);
  return ports.map(Number);
};
