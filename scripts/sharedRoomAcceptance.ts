/**
 * `npm run helix:shared-room:live-acceptance`: the Shared Live Room live acceptance harness
 * (docs/spec/shared-live-room-requirements.md §17, D-08; docs/rooms.md "Live acceptance harness").
 *
 * By default a zero-network dry run: it prints the typed, redacted acceptance plan
 * (`helix.shared_live_room.live_acceptance.v1`) and requests nothing. With
 * HELIX_SHARED_ROOM_ACCEPTANCE_NETWORK=1 it runs the read-only checks against the room facade, and
 * with ..._ALLOW_MUTATION=1 and a bearer also the bounded create, bind, withdraw, rebind,
 * disabled-command and cleanup steps. It never starts a server (HAR-15) and takes configuration
 * from the environment only, so the bearer never appears in arguments (HAR-06).
 *
 * Exit 0: nothing failed; 1: a step or the cleanup failed (a release failure); 2: configuration
 * refused, nothing requested; 3: partial with ..._REQUIRE_COMPLETE=1.
 */
import { printRedacted, readConfigOrRefuse, reportProbeError } from './deploymentProbe/runProbe.js';
import { readHarnessConfig } from './sharedRoomAcceptance/config.js';
import {
  acceptanceExitCode,
  acceptanceSummary,
  buildAcceptanceReport,
  type Outcome,
} from './sharedRoomAcceptance/report.js';
import { runAcceptance } from './sharedRoomAcceptance/runAcceptance.js';

const NAME = 'helix:shared-room:live-acceptance';

const main = async (): Promise<number> => {
  if (process.argv.length > 2) {
    // Not echoed: an argument is exactly where a bearer must never be (HAR-06).
    process.stderr.write(
      `${NAME}: takes no arguments; set HELIX_SHARED_ROOM_ACCEPTANCE_* variables [unexpected_arguments]\n`,
    );
    return 2;
  }
  const config = readConfigOrRefuse(NAME, readHarnessConfig, process.env);
  if (config === undefined) return 2;
  let outcome: Outcome | undefined;
  if (config.network) {
    try {
      outcome = await runAcceptance(config);
    } catch (err) {
      return reportProbeError(NAME, err, config.secrets);
    }
  }
  const report = printRedacted(buildAcceptanceReport(config, outcome, new Date()), config.secrets, acceptanceSummary);
  return acceptanceExitCode(report, config.requireComplete);
};

process.exitCode = await main();
