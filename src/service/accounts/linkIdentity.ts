import type { BindingRecord } from '../../store/port.js';
import { completeLink, type VerifiedIdentity } from './completeLink.js';
import type { AccountDeps } from './deps.js';
import { issueLinkIntent } from './issueLinkIntent.js';

/**
 * `helix accounts link`: the operator is the trusted adapter that verified the identity, so the
 * single-use intent is issued and consumed in one go.
 */
export const linkIdentity = async (
  deps: AccountDeps,
  accountId: string,
  identity: VerifiedIdentity,
): Promise<BindingRecord> => completeLink(deps, await issueLinkIntent(deps, accountId), identity);
