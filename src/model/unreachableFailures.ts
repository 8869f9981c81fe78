import type { FailureReader } from './http/modelList.js';
import { ModelError, type ModelErrorKind } from './port.js';

/**
 * How an owner-registered provider's failures are told to its owner: mostly, not at all.
 *
 * An owner chooses the `base_url`, and Helix connects to it from inside the deployment. If the
 * turn's failure code said "connection refused" for one port, "not HTTP" for another and "HTTP
 * 500" for a third, an owner could map which hosts and ports listen and which of them speak HTTP,
 * one run at a time: a port scanner operated through Helix. So every failure a network peer can
 * cause before a well-formed model stream is one failure, `unreachable`, with one retry
 * behaviour (always retryable, no peer-stated wait honoured) so that the number of attempts
 * does not tell them apart either.
 *
 * That includes an HTTP 401 or 403 ("invalid API key"). Telling the owner "auth refused" needs a
 * real HTTP exchange with a server that answered with that status, which by itself says that the
 * port speaks HTTP: most internal services answer 401 to a stranger. Keeping only 401s whose body
 * has the OpenAI error shape would make a JSON parser the security boundary, and any service that
 * reflects caller input in its errors can produce that shape. The cost is usability: an owner with
 * a wrong key sees `model_unreachable` and checks the key with the provider directly; the operator
 * sees the real status in the debug log. The same goes for 429 and quota statuses.
 *
 * What still reaches the owner are errors a provider states inside a well-formed model stream
 * (`context_length`, `incomplete`, an in-stream `rate_limited` …): producing one already takes a
 * model API, which is what the owner said was there. Aborts stay aborts. The operator's own
 * provider and the Codex subscription are not wrapped: the operator chose their endpoints.
 */
/** Kinds only a peer's network or HTTP behaviour produces, whether or not an HTTP status came with them. */
const PEER_KINDS: ReadonlySet<ModelErrorKind> = new Set<ModelErrorKind>(['auth', 'server', 'transport', 'protocol']);

const unreachable = (): ModelError =>
  new ModelError('unreachable', 'the model provider could not be reached', { retryable: true });

/** The provider's failure before it is collapsed; for the server's debug log, never the owner. */
export type UnreachableReport = (original: ModelError) => void;

const collapse = (error: ModelError, report: UnreachableReport): ModelError => {
  if (error.kind === 'unreachable' || error.kind === 'aborted') return error;
  // An HTTP status on the error means it came from a non-2xx answer (or a redirect), not from a stream.
  if (error.details.httpStatus === undefined && !PEER_KINDS.has(error.kind)) return error;
  report(error);
  return unreachable();
};

/** `failures` with every peer-caused failure collapsed into `unreachable` (see the header). */
export const collapsingUnreachable = (failures: FailureReader, report: UnreachableReport): FailureReader => ({
  classifyHttpFailure: async (response, now) => collapse(await failures.classifyHttpFailure(response, now), report),
  toModelError: (error, signal) => collapse(failures.toModelError(error, signal), report),
});
