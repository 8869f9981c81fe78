import { canonicalJson, hmacHex } from '../domain/hashing.js';
import type { Principal } from './principal.js';

/**
 * ATP-31, "agent execution cannot authorize a human confirmation". Every credential of one owner
 * is the same owner (all `hlx_` keys of a tenant and account, all tokens of one linked subject), so
 * ownership cannot tell the agent from the person; the credential can. What identifies the
 * credential that did agent work:
 *
 * - an `hlx_` key: its key id (the person's client uses another key of the account);
 * - an OAuth token: the owner's binding and the token's client (RFC 9068 §2.2 `client_id`, else
 *   OIDC `azp`), since a `jti` is new with every token. A token naming no client stands for every
 *   token of its binding: the person then confirms in the console or with an `hlx_` key;
 * - a local development JWT: likewise its `client_id`/`azp`, else its subject.
 *
 * Keyed with the instance secret like the owner hash, so the stored value names nobody outside
 * this installation.
 */
export const agentExecutorHash = (principal: Principal, instanceSecret: string): string =>
  hmacHex(
    instanceSecret,
    canonicalJson([
      'agent_executor',
      principal.kind,
      principal.tenantId,
      principal.issuer,
      principal.subject,
      principal.accountId,
      executingCredentialOf(principal),
    ]),
  );

const executingCredentialOf = (principal: Principal): string => {
  switch (principal.kind) {
    case 'api_key':
      return `key:${principal.credentialId}`;
    case 'oauth_jwt':
      return `binding:${principal.credentialId}:client:${principal.clientId ?? '*'}`;
    case 'local_jwt':
      return `client:${principal.clientId ?? '*'}`;
  }
};
