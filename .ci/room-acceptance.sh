# shellcheck shell=bash
# The Shared Live Room live acceptance harness against the real room facade. Sourced by .ci/run;
# defines functions only.
#
#   room_acceptance_run    start `helix serve` on 127.0.0.1 with a fresh SQLite file and a key
#                          made for the purpose, run the harness in network + mutation mode with
#                          REQUIRE_COMPLETE=1, then stop the server
#   room_acceptance_stop   stop that server and delete its files (safe to call more than once)
#
# The harness never starts a server itself (HAR-15): this script is the "user" who starts the keyed
# server, waits until it listens, and stops it when the battery ends.

RA_TMP=""  # private temp dir: the SQLite file, the server log, the report
RA_PID=""  # the `helix serve` process

ra_log() { echo "[ci/room-acceptance] $*" >&2; }

# The built CLI (npm ci's `prepare` compiled dist/).
ra_helix() { node bin/helix.js "$@" </dev/null; }

room_acceptance_stop() {
  if [[ -n "$RA_PID" ]]; then
    kill "$RA_PID" 2>/dev/null || true
    wait "$RA_PID" 2>/dev/null || true
    RA_PID=""
  fi
  if [[ -n "$RA_TMP" ]]; then
    rm -rf "$RA_TMP"
    RA_TMP=""
  fi
}

# Waits (up to 10 s) for the "helix listening on <url>" line and prints the url.
ra_wait_for_url() {
  local url=""
  for _ in $(seq 1 100); do
    url="$(sed -n 's/^helix listening on \([^ ]*\).*$/\1/p' "$RA_TMP/serve.log" | head -n 1)"
    if [[ -n "$url" ]]; then
      echo "$url"
      return 0
    fi
    kill -0 "$RA_PID" 2>/dev/null || break
    sleep 0.1
  done
  ra_log "helix serve did not start; its log:"
  cat "$RA_TMP/serve.log" >&2
  return 1
}

room_acceptance_run() {
  RA_TMP="$(mktemp -d)"
  local db="$RA_TMP/helix.db" account token url rc=0
  account="$(ra_helix accounts create --name "room acceptance" --database "$db" | tail -n 1)"
  ra_helix accounts policy set --account "$account" --feature shared_live_room=on --database "$db" >/dev/null
  token="$(ra_helix keys create --tenant ci --account "$account" --label room-acceptance --database "$db" \
    --scopes "helix.rooms.read helix.rooms.manage helix.agent_runs.read helix.agent_runs.write" | tail -n 1)"
  HELIX_LOG_LEVEL=warn node bin/helix.js serve --port 0 --database "$db" </dev/null >"$RA_TMP/serve.log" 2>&1 &
  RA_PID=$!
  url="$(ra_wait_for_url)"
  ra_log "harness against $url"
  HELIX_SHARED_ROOM_ACCEPTANCE_BASE_URL="$url" \
    HELIX_SHARED_ROOM_ACCEPTANCE_NETWORK=1 \
    HELIX_SHARED_ROOM_ACCEPTANCE_ALLOW_MUTATION=1 \
    HELIX_SHARED_ROOM_ACCEPTANCE_ALLOW_LOOPBACK_HTTP=1 \
    HELIX_SHARED_ROOM_ACCEPTANCE_REQUIRE_COMPLETE=1 \
    HELIX_SHARED_ROOM_ACCEPTANCE_ACCESS_TOKEN="$token" \
    npm run --silent helix:shared-room:live-acceptance </dev/null >"$RA_TMP/report.json" || rc=$?
  # The one-line-per-step summary went to stderr; on failure show the whole report (the bearer is redacted in it).
  if ((rc != 0)); then cat "$RA_TMP/report.json" >&2; fi
  room_acceptance_stop
  return "$rc"
}
