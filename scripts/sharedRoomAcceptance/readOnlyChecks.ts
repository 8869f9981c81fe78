import { OAUTH_SCOPES } from '../../src/domain/scopes.js';
import { challengeCheck, protectedResourceMetadataCheck } from '../deploymentProbe/discoveryChecks.js';
import type { ProbeContext } from '../deploymentProbe/guardedFetch.js';
import type { Check } from '../deploymentProbe/report.js';
import { restCall, statusThen, step } from '../deploymentProbe/restCall.js';
import { ROOMS_METADATA_PATH, ROOMS_PATH } from './plan.js';
import { flagProblems, schemaProblems } from './roomReceipts.js';

/** SLR-14: the rooms document advertises the full run, room, source and environment-action scopes. */
export const ROOM_DOCUMENT_SCOPES = OAUTH_SCOPES.filter((scope) =>
  /^helix\.(agent_runs|rooms|room_sources|environment_actions)\./.test(scope),
);

/** The root document or the rooms one: both name the same canonical resource. */
const CHALLENGE_METADATA_PATHS = ['/.well-known/oauth-protected-resource', ROOMS_METADATA_PATH];

/** Network mode without mutation: metadata, the unauthenticated challenge and, with a bearer, the room list. */
export const readOnlyChecks = async (ctx: ProbeContext, token: string | undefined): Promise<Check[]> => {
  const checks = [
    ...(await protectedResourceMetadataCheck(
      token === undefined ? ctx : { ...ctx, accessToken: token },
      'rooms.protected_resource_metadata',
      ROOMS_METADATA_PATH,
      ROOM_DOCUMENT_SCOPES,
    )),
    await challengeCheck(ctx, {
      id: 'rooms.unauthenticated_challenge',
      method: 'GET',
      path: ROOMS_PATH,
      init: { headers: { accept: 'application/json' } },
      metadataPaths: CHALLENGE_METADATA_PATHS,
    }),
  ];
  if (token === undefined) return checks;
  const list = await step(
    'rooms.list',
    () => restCall(ctx, token, 'GET', ROOMS_PATH),
    (a) => statusThen(a, 200, () => [...schemaProblems(a.body, 'list'), ...flagProblems(a.body)]),
    'the visible rooms listed in a list receipt with false-authority flags',
  );
  return [...checks, list.check];
};
