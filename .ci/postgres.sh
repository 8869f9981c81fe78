# shellcheck shell=bash
# Throwaway PostgreSQL server for CI. Sourced by .ci/run; defines functions only.
#
#   pg_ensure_installed   install Debian's postgresql package unless a server is already there
#   pg_start              initdb + start a private server on 127.0.0.1, export HELIX_TEST_POSTGRES_URL
#   pg_stop               stop that server and delete its files (safe to call more than once)
#
# We drive initdb/pg_ctl directly instead of the system service (pg_ctlcluster,
# systemd) so it works in containers without an init system, never touches a
# system cluster, and leaves nothing behind.

# Role the tests connect as. It is the bootstrap superuser of the throwaway
# cluster, so it can CREATE/DROP DATABASE as the tests require. Not a secret:
# the server only listens on loopback and is deleted when the run ends.
PG_ROLE=helix
PG_PASSWORD=helix
# First port to try; we move up until one is free. Override with HELIX_CI_PG_PORT.
PG_FIRST_PORT="${HELIX_CI_PG_PORT:-55432}"

PG_BIN=""      # e.g. /usr/lib/postgresql/15/bin
PG_OS_USER=""  # unprivileged OS user that owns the server (initdb refuses root)
PG_TMP=""      # private temp dir: data dir, unix socket, server log
PG_PORT=""

pg_log() { echo "[ci/postgres] $*" >&2; }

# Newest /usr/lib/postgresql/<version>/bin that has a server in it, or "".
# Found dynamically so this keeps working when Debian moves past PostgreSQL 15.
pg_find_bin() {
  local dir
  dir="$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -type d -name bin 2>/dev/null | sort -V | tail -n 1)"
  if [[ -n "$dir" && -x "$dir/initdb" && -x "$dir/pg_ctl" && -x "$dir/postgres" ]]; then
    echo "$dir"
  fi
}

pg_ensure_installed() {
  PG_BIN="$(pg_find_bin)"
  # HELIX_CI_FORCE_PG_INSTALL=1 exercises the apt path even when already installed
  # (apt-get is a no-op then); only useful for testing this script.
  if [[ -n "$PG_BIN" && "${HELIX_CI_FORCE_PG_INSTALL:-0}" != 1 ]]; then
    pg_log "PostgreSQL already installed: $PG_BIN"
    return 0
  fi
  if ! command -v apt-get >/dev/null; then
    pg_log "PostgreSQL is not installed and apt-get is unavailable; install it and rerun"
    return 1
  fi
  pg_log "installing PostgreSQL from Debian packages"
  # noninteractive + </dev/null: CI has no terminal and no stdin to answer prompts.
  # The package's postinst may also create/start a system "main" cluster on 5432;
  # harmless, we never use it.
  export DEBIAN_FRONTEND=noninteractive
  apt-get update </dev/null
  apt-get install -y --no-install-recommends postgresql </dev/null
  PG_BIN="$(pg_find_bin)"
  if [[ -z "$PG_BIN" ]]; then
    pg_log "postgresql installed but no /usr/lib/postgresql/*/bin/initdb found"
    return 1
  fi
  pg_log "installed: $PG_BIN"
}

# Run a command as the server's OS user. cd first: the caller's cwd (e.g. /root)
# may be unreadable to that user, which makes initdb/pg_ctl complain.
pg_as_owner() {
  (cd "$PG_TMP" && runuser -u "$PG_OS_USER" -- "$@")
}

# True if something already accepts TCP connections on 127.0.0.1:$1.
pg_port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

pg_start() {
  # The Debian package creates the "postgres" user; fall back to a dedicated
  # system user if PostgreSQL came from somewhere else.
  if id -u postgres >/dev/null 2>&1; then
    PG_OS_USER=postgres
  else
    PG_OS_USER=helix-ci-pg
    id -u "$PG_OS_USER" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$PG_OS_USER"
  fi

  # mktemp gives a fresh 0700 dir per run, so a second run never sees old data.
  # Owned by the server user; only it (and root) can reach the socket inside.
  PG_TMP="$(mktemp -d "${TMPDIR:-/tmp}/helix-ci-pg.XXXXXX")"
  chown "$PG_OS_USER:" "$PG_TMP"
  local data="$PG_TMP/data" pwfile="$PG_TMP/pwfile"

  # Bootstrap superuser = the test role, with its password, so no extra
  # CREATE ROLE step is needed. C locale: deterministic and always available,
  # even on minimal images without generated locales.
  printf '%s\n' "$PG_PASSWORD" >"$pwfile"
  chown "$PG_OS_USER:" "$pwfile"
  chmod 600 "$pwfile"
  pg_log "initdb in $data"
  pg_as_owner "$PG_BIN/initdb" --pgdata="$data" --username="$PG_ROLE" --pwfile="$pwfile" \
    --auth=scram-sha-256 --encoding=UTF8 --locale=C >"$PG_TMP/initdb.log" 2>&1 \
    || { cat "$PG_TMP/initdb.log" >&2; return 1; }
  rm -f "$pwfile"

  # Only password logins over IPv4 loopback; nothing else is accepted.
  cat >"$data/pg_hba.conf" <<'EOF'
# TYPE  DATABASE  USER  ADDRESS       METHOD
host    all       all   127.0.0.1/32  scram-sha-256
EOF

  # Later settings win, so appending overrides initdb's defaults.
  # fsync stays on (the default, stated explicitly) so the tests run against
  # real durability behaviour. max_connections: parallel vitest workers each
  # open pools of up to 10 connections, more than the default 100 allows.
  # log_checkpoints off: every CREATE/DROP DATABASE in the tests forces a
  # checkpoint, and those lines would bury real errors in the log tail we print.
  cat >>"$data/postgresql.conf" <<EOF

# --- added by .ci/postgres.sh ---
listen_addresses = '127.0.0.1'
unix_socket_directories = '$PG_TMP'
fsync = on
max_connections = 300
log_checkpoints = off
EOF

  # Pick a free port; if another process grabs it between the check and the
  # start, pg_ctl fails and we try the next one.
  local port=$PG_FIRST_PORT attempts=0
  while :; do
    if ((attempts >= 20)); then
      pg_log "could not start PostgreSQL on any port from $PG_FIRST_PORT; server log:"
      tail -n 50 "$PG_TMP/postgres.log" >&2 || true
      return 1
    fi
    attempts=$((attempts + 1))
    if pg_port_in_use "$port"; then
      port=$((port + 1))
      continue
    fi
    pg_log "starting server on 127.0.0.1:$port"
    # -w: return only once the server accepts connections (or has failed).
    if pg_as_owner "$PG_BIN/pg_ctl" start -w -t 60 -D "$data" -l "$PG_TMP/postgres.log" -o "-p $port" >/dev/null; then
      break
    fi
    pg_log "start on port $port failed; trying the next one"
    port=$((port + 1))
  done
  PG_PORT=$port

  export HELIX_TEST_POSTGRES_URL="postgres://$PG_ROLE:$PG_PASSWORD@127.0.0.1:$PG_PORT/postgres"

  # Check what the tests will actually do: password login over TCP with the URL.
  "$PG_BIN/psql" "$HELIX_TEST_POSTGRES_URL" -X -q -At -c 'select version()' >&2
  pg_log "ready: HELIX_TEST_POSTGRES_URL=$HELIX_TEST_POSTGRES_URL"
}

pg_stop() {
  [[ -n "$PG_TMP" && -d "$PG_TMP" ]] || return 0
  if [[ -f "$PG_TMP/data/postmaster.pid" ]]; then
    pg_log "stopping server"
    # fast: disconnect clients (tests may have left some) and shut down cleanly;
    # immediate as a last resort so we never leave a server running.
    pg_as_owner "$PG_BIN/pg_ctl" stop -w -t 30 -m fast -D "$PG_TMP/data" >/dev/null 2>&1 \
      || pg_as_owner "$PG_BIN/pg_ctl" stop -w -t 30 -m immediate -D "$PG_TMP/data" >/dev/null 2>&1 \
      || pg_log "warning: could not stop the server in $PG_TMP/data"
  fi
  rm -rf "$PG_TMP"
  PG_TMP=""
}
