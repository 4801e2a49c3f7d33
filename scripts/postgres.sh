#!/usr/bin/env bash
# scripts/postgres.sh - a throw-away PostgreSQL cluster on 127.0.0.1 for rallyjudge's tests
# (RALLYJUDGE_POSTGRES=1) and for trying several judges on one database. Debian's `postgresql`
# package (version 15 expected); the cluster lives in $PG_ROOT, run by the `postgres` user with
# initdb and pg_ctl: no systemd, no /etc/postgresql, nothing listening beyond 127.0.0.1.
#
#   scripts/postgres.sh [start]   install the package if missing, make the cluster, start it, create
#                                 the role and database, print the DSN (idempotent)
#   scripts/postgres.sh stop      stop the cluster (pg_ctl stop -m fast)
#   scripts/postgres.sh status    running or not, the DSN, the log
#   scripts/postgres.sh wipe      stop + delete the cluster
#
# The role's password is made at random on the first start and kept in $PG_ROOT/password (mode
# 600, readable by root only); it is never printed. Point rallyjudge at it with
#   database: postgres://rallyjudge@127.0.0.1:$PG_PORT/rallyjudge?sslmode=disable
#   database_password_file: $PG_ROOT/password
# Must run as root. Standard output carries the two lines DSN=... and PASSWORD_FILE=... only;
# everything else goes to standard error.
set -euo pipefail

ROOT=${PG_ROOT:-/tmp/rallyjudge-postgres}
PORT=${PG_PORT:-55432}
DB=${PG_DATABASE:-rallyjudge}
ROLE=${PG_ROLE:-rallyjudge}
VERSION=${PG_VERSION:-15}

DATA=$ROOT/data; RUN=$ROOT/run; LOGF=$ROOT/postgres.log; PWFILE=$ROOT/password

log() { echo "[postgres] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

bindir() {
  local d=/usr/lib/postgresql/$VERSION/bin
  if [ ! -x "$d/pg_ctl" ]; then # another version than expected: take the newest installed
    d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  fi
  [ -n "$d" ] && [ -x "$d/pg_ctl" ] || return 1
  echo "$d"
}

install_pkgs() {
  if bindir >/dev/null; then return; fi
  local t0=$SECONDS
  log "installing postgresql (apt)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  # the package's own cluster (/var/lib/postgresql, systemd or init script) is not used: stop it
  # if its postinst started one, so that it holds no port or memory
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends postgresql >/dev/null
  command -v pg_ctlcluster >/dev/null && pg_ctlcluster --force "$VERSION" main stop 2>/dev/null || true
  log "apt install took $((SECONDS - t0))s"
}

as_pg() { runuser -u postgres -- "$@"; }

running() { [ -f "$DATA/postmaster.pid" ] && as_pg "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; }

psql_su() { as_pg "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$RUN" -p "$PORT" -U postgres "$@"; }

make_cluster() {
  mkdir -p "$ROOT" "$RUN"
  chmod 755 "$ROOT"
  chown postgres:postgres "$RUN"
  if [ ! -s "$DATA/PG_VERSION" ]; then
    log "initdb $DATA"
    mkdir -p "$DATA"; chown postgres:postgres "$DATA"; chmod 700 "$DATA"
    # the superuser logs in only through the socket in $RUN (peer); everyone else by password
    as_pg "$BIN/initdb" -D "$DATA" -U postgres -E UTF8 --locale=C.UTF-8 \
      --auth-local=peer --auth-host=scram-sha-256 >/dev/null
  fi
  if [ ! -s "$PWFILE" ]; then
    (umask 077; head -c 24 /dev/urandom | base64 | tr -d '/+=' >"$PWFILE")
  fi
  chmod 600 "$PWFILE"
}

start_cluster() {
  touch "$LOGF"; chown postgres:postgres "$LOGF"
  # 127.0.0.1 only; the socket in $RUN, not /var/run/postgresql; fsync stays on (the store's
  # guarantees are about commits on disk); enough connections for three judges and the tests
  as_pg "$BIN/pg_ctl" -D "$DATA" -l "$LOGF" -w -t 60 start -o \
    "-c listen_addresses=127.0.0.1 -p $PORT -c unix_socket_directories=$RUN -c max_connections=200 -c shared_buffers=64MB" >&2
}

make_role() {
  local pw
  pw=$(cat "$PWFILE")
  # the role may create schemas in its database (each test makes its own) and databases (db copy tests)
  psql_su -d postgres -v role="$ROLE" -v pw="$pw" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN CREATEDB', :'role') WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'role') \gexec
SELECT format('ALTER ROLE %I PASSWORD %L', :'role', :'pw') \gexec
SQL
  psql_su -d postgres -v role="$ROLE" -v db="$DB" <<'SQL'
SELECT format('CREATE DATABASE %I OWNER %I ENCODING %L', :'db', :'role', 'UTF8') WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'db') \gexec
SQL
}

dsn() { echo "postgres://$ROLE@127.0.0.1:$PORT/$DB?sslmode=disable"; }

status() {
  if running; then log "running: $(head -1 "$DATA/postmaster.pid") on 127.0.0.1:$PORT"; else log "not running"; fi
  log "log: $LOGF"
  echo "DSN=$(dsn)"
  echo "PASSWORD_FILE=$PWFILE"
}

main() {
  [ "$(id -u)" = 0 ] || die "run as root"
  case "${1:-start}" in
    start)
      install_pkgs
      BIN=$(bindir) || die "no PostgreSQL binaries under /usr/lib/postgresql"
      make_cluster
      if running; then log "already running"; else start_cluster; fi
      make_role
      status ;;
    stop)
      BIN=$(bindir) || die "no PostgreSQL binaries under /usr/lib/postgresql"
      if running; then as_pg "$BIN/pg_ctl" -D "$DATA" -w -t 60 stop -m fast >&2; else log "not running"; fi ;;
    status)
      BIN=$(bindir) || die "no PostgreSQL binaries under /usr/lib/postgresql"
      status ;;
    wipe)
      BIN=$(bindir) || die "no PostgreSQL binaries under /usr/lib/postgresql"
      if running; then as_pg "$BIN/pg_ctl" -D "$DATA" -w -t 60 stop -m fast >&2; fi
      rm -rf "$ROOT"; log "wiped" ;;
    *) die "usage: $0 [start|stop|status|wipe]" ;;
  esac
}

main "$@"
