#!/usr/bin/env bash
# scripts/mailstack.sh - rallyjudge's throw-away IMAP (Dovecot) + SMTP (Postfix) stack on 127.0.0.1,
# for the tests that need real servers (RALLYJUDGE_MAILSTACK=1) and for trying `rallyjudge serve`.
# No systemd needed; must run as root. Everything except the apt packages lives under $MAILSTACK_ROOT.
# Adapted from the tested recipe in ../shared/mailstack/start-mailstack.sh.
#
#   scripts/mailstack.sh [start]   install packages if missing, write config, start (idempotent)
#   scripts/mailstack.sh stop      stop the daemons using the PIDs recorded at start
#   scripts/mailstack.sh status    print PIDs / ports / users
#   scripts/mailstack.sh restart   stop + start
#   scripts/mailstack.sh wipe      stop + delete all generated state (mail, queue, config)
#
# It never touches /etc/dovecot or /etc/postfix, listens on 127.0.0.1 only, and refuses mail for any
# domain but $MAILSTACK_DOMAIN, so nothing ever leaves the machine.
#
# Mail flow: client --SMTP 127.0.0.1:$SMTP_PORT or :$SUBMISSION_PORT--> postfix --virtual(8)--> Maildir
#            $ROOT/mail/<domain>/<user>/ <-- dovecot IMAP 127.0.0.1:$IMAP_PORT (imaps $IMAPS_PORT)
set -euo pipefail

ROOT=${MAILSTACK_ROOT:-/tmp/rallyjudge-mailstack}
DOMAIN=${MAILSTACK_DOMAIN:-example.test}
IMAP_PORT=${MAILSTACK_IMAP_PORT:-1143}
IMAPS_PORT=${MAILSTACK_IMAPS_PORT:-1993}
SMTP_PORT=${MAILSTACK_SMTP_PORT:-2525}         # MX-like: no auth, STARTTLS optional, local recipients only
SUBMISSION_PORT=${MAILSTACK_SUBMISSION_PORT:-1587}  # STARTTLS required + AUTH PLAIN/LOGIN (same users)
# "user:password" pairs; login as user@$DOMAIN (or bare "user", auth_default_realm adds the domain)
# rjmail is reserved for the mail package's own tests, so they never touch the game mailboxes
USERS=${MAILSTACK_USERS:-"alice:alicepw bob:bobpw carol:carolpw orders:orderspw rjmail:rjmailpw"}
VMAIL_USER=${MAILSTACK_VMAIL_USER:-mail}     # Debian's stock "mail" user (uid 8); mail files are owned by it

ETC=$ROOT/etc; RUN=$ROOT/run; LOG=$ROOT/log; MAIL=$ROOT/mail
PIDFILE=$RUN/mailstack.pids

log() { echo "[mailstack] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# alive PID [COMM]: process exists, is not a zombie (containers whose PID 1 doesn't reap),
# and (if given) still has the expected command name, so a recycled PID is never killed
alive() {
  local st
  [ -n "${1:-}" ] && st=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  st=${st##*) }                                  # fields after "pid (comm) "; first is the state
  [ "${st:0:1}" != Z ] || return 1
  [ -z "${2:-}" ] || [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ]
}
comm_of() { case $1 in dovecot) echo dovecot ;; postfix) echo master ;; esac; }

wait_port() { # wait_port PORT SECONDS
  local i
  for ((i = 0; i < $2 * 10; i++)); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

recorded_pid() { [ -f "$PIDFILE" ] && awk -v n="$1" '$1 == n {print $2}' "$PIDFILE" || true; }

install_pkgs() {
  if command -v dovecot >/dev/null && command -v postfix >/dev/null; then return; fi
  local t0=$SECONDS
  log "installing dovecot-imapd + postfix (apt)"
  export DEBIAN_FRONTEND=noninteractive
  # keep postfix's postinst from writing /etc/postfix/main.cf; we use our own config dir
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends dovecot-imapd postfix openssl >/dev/null
  log "apt install took $((SECONDS - t0))s"
}

write_config() {
  local uid gid u p
  uid=$(id -u "$VMAIL_USER"); gid=$(id -g "$VMAIL_USER")
  mkdir -p "$ETC/dovecot" "$ETC/postfix" "$RUN" "$LOG" "$MAIL/$DOMAIN" "$ROOT/tls" \
           "$ROOT/state/dovecot" "$ROOT/spool/postfix" "$ROOT/lib/postfix"
  chmod 755 "$ROOT" "$ETC" "$ETC/dovecot" "$ETC/postfix" "$LOG" "$MAIL"

  # --- self-signed TLS cert for IMAPS / STARTTLS (CN=localhost, SAN localhost + 127.0.0.1)
  if [ ! -s "$ROOT/tls/cert.pem" ]; then
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=localhost" \
      -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
      -keyout "$ROOT/tls/key.pem" -out "$ROOT/tls/cert.pem" 2>/dev/null
    chmod 600 "$ROOT/tls/key.pem"; chmod 644 "$ROOT/tls/cert.pem"
  fi

  # --- users: dovecot passwd-file + postfix virtual mailbox map + Maildirs
  : >"$ETC/dovecot/users.tmp"; : >"$ETC/postfix/vmailbox.tmp"
  for u in $USERS; do
    p=${u#*:}; u=${u%%:*}
    echo "$u@$DOMAIN:{PLAIN}$p" >>"$ETC/dovecot/users.tmp"
    echo "$u@$DOMAIN $DOMAIN/$u/" >>"$ETC/postfix/vmailbox.tmp"
    mkdir -p "$MAIL/$DOMAIN/$u"/{cur,new,tmp}
  done
  mv "$ETC/dovecot/users.tmp" "$ETC/dovecot/users"; mv "$ETC/postfix/vmailbox.tmp" "$ETC/postfix/vmailbox"
  chown root:dovecot "$ETC/dovecot/users"; chmod 640 "$ETC/dovecot/users"   # auth runs as "dovecot"
  chown -R "$uid:$gid" "$MAIL"; chmod -R u+rwX,go-rwx "$MAIL/$DOMAIN"

  cat >"$ETC/dovecot/dovecot.conf" <<EOF
# standalone config; nothing from /etc/dovecot is included
instance_name = rallyjudge-mailstack
base_dir = $RUN/dovecot
state_dir = $ROOT/state/dovecot
protocols = imap
listen = 127.0.0.1
log_path = $LOG/dovecot.log
auth_verbose = yes
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_default_realm = $DOMAIN
ssl = yes
ssl_cert = <$ROOT/tls/cert.pem
ssl_key = <$ROOT/tls/key.pem
first_valid_uid = $uid
first_valid_gid = $gid
mail_location = maildir:$MAIL/%d/%n
mailbox_idle_check_interval = 5 secs
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $ETC/dovecot/users
}
userdb {
  driver = static
  args = uid=$uid gid=$gid home=$MAIL/%d/%n
}
namespace inbox {
  inbox = yes
  separator = /
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Archive {
    special_use = \\Archive
    auto = subscribe
  }
  mailbox Trash {
    special_use = \\Trash
    auto = subscribe
  }
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_PORT
    ssl = yes
  }
}
service auth {
  # postfix smtpd (user postfix, not chrooted) asks dovecot to check SMTP AUTH passwords
  unix_listener auth-postfix {   # relative to base_dir
    mode = 0660
    user = postfix
    group = postfix
  }
}
protocol imap {
  mail_max_userip_connections = 100
}
EOF

  cat >"$ETC/postfix/main.cf" <<EOF
compatibility_level = 3.6
queue_directory = $ROOT/spool/postfix
data_directory = $ROOT/lib/postfix
mail_owner = postfix
setgid_group = postdrop
maillog_file_prefixes = $LOG
maillog_file = $LOG/postfix.log
myhostname = mail.$DOMAIN
mydomain = $DOMAIN
myorigin = \$mydomain
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
smtpd_banner = \$myhostname ESMTP mailstack
biff = no
alias_maps =
alias_database =
local_recipient_maps =
local_transport = error:local delivery disabled
# never relay anywhere: mail for other domains bounces instead of leaving the box
default_transport = error:outbound mail disabled in mailstack
relay_transport = error:outbound mail disabled in mailstack
virtual_mailbox_domains = $DOMAIN
virtual_mailbox_base = $MAIL
virtual_mailbox_maps = texthash:$ETC/postfix/vmailbox
virtual_uid_maps = static:$uid
virtual_gid_maps = static:$gid
virtual_minimum_uid = $uid
smtpd_tls_cert_file = $ROOT/tls/cert.pem
smtpd_tls_key_file = $ROOT/tls/key.pem
smtpd_tls_security_level = may
smtpd_sasl_type = dovecot
smtpd_sasl_path = $RUN/dovecot/auth-postfix
smtpd_sasl_auth_enable = no
message_size_limit = 52428800
virtual_mailbox_limit = 0
EOF

  # minimal master.cf; chroot "n" everywhere (Debian's default chroots need /etc files copied in)
  cat >"$ETC/postfix/master.cf" <<EOF
127.0.0.1:$SMTP_PORT inet n - n - - smtpd
127.0.0.1:$SUBMISSION_PORT inet n - n - - smtpd
  -o syslog_name=postfix/submission
  -o smtpd_tls_security_level=encrypt
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_relay_restrictions=permit_sasl_authenticated,reject
pickup     unix  n - n 60 1 pickup
cleanup    unix  n - n -  0 cleanup
qmgr       unix  n - n 300 1 qmgr
rewrite    unix  - - n -  - trivial-rewrite
bounce     unix  - - n -  0 bounce
defer      unix  - - n -  0 bounce
trace      unix  - - n -  0 bounce
verify     unix  - - n -  1 verify
flush      unix  n - n 1000? 0 flush
proxymap   unix  - - n -  - proxymap
proxywrite unix  - - n -  1 proxymap
smtp       unix  - - n -  - smtp
relay      unix  - - n -  - smtp
showq      unix  n - n -  - showq
error      unix  - - n -  - error
retry      unix  - - n -  - error
discard    unix  - - n -  - discard
local      unix  - n n -  - local
virtual    unix  - n n -  - virtual
lmtp       unix  - - n -  - lmtp
tlsmgr     unix  - - n 1000? 1 tlsmgr
anvil      unix  - - n -  1 anvil
scache     unix  - - n -  1 scache
postlog    unix-dgram n - n - 1 postlogd
EOF
}

start_dovecot() {
  local pid
  pid=$(recorded_pid dovecot)
  if alive "$pid" dovecot; then log "dovecot already running (pid $pid)"; return; fi
  rm -f "$RUN/dovecot/master.pid"
  # daemons must not inherit our stdout/stderr, or "$0 | tee" / "$($0)" in CI never sees EOF
  dovecot -c "$ETC/dovecot/dovecot.conf" </dev/null >>"$LOG/dovecot-stderr.log" 2>&1 || die "dovecot failed to start; see $LOG/dovecot.log"
  wait_port "$IMAP_PORT" 15 || die "dovecot not listening on $IMAP_PORT; see $LOG/dovecot.log"
  # on a loaded machine dovecot may listen before it has written its pid file
  local i
  for ((i = 0; i < 100; i++)); do [ -s "$RUN/dovecot/master.pid" ] && break; sleep 0.1; done
  pid=$(cat "$RUN/dovecot/master.pid")
  echo "dovecot $pid" >>"$PIDFILE"
}

start_postfix() {
  local pid
  pid=$(recorded_pid postfix)
  if alive "$pid" master; then log "postfix already running (pid $pid)"; return; fi
  # a stale pid/master.pid from a SIGKILLed run is harmless: "postfix start" tests the lock, not the file
  postfix -c "$ETC/postfix" set-permissions >/dev/null 2>&1 || true  # creates queue dirs, fixes owners
  # postfix(1) prints errors only to a tty or to maillog_file; on failure look in $LOG/postfix.log
  postfix -c "$ETC/postfix" check </dev/null >>"$LOG/postfix-stderr.log" 2>&1 || die "postfix check failed; see $LOG/postfix.log"
  postfix -c "$ETC/postfix" start </dev/null >>"$LOG/postfix-stderr.log" 2>&1 || die "postfix failed to start; see $LOG/postfix*.log"
  wait_port "$SMTP_PORT" 15 && wait_port "$SUBMISSION_PORT" 5 || die "postfix not listening; see $LOG/postfix.log"
  pid=$(tr -d ' ' <"$ROOT/spool/postfix/pid/master.pid")
  echo "postfix $pid" >>"$PIDFILE"
}

stop_all() {
  local name pid i
  [ -f "$PIDFILE" ] || { log "nothing recorded in $PIDFILE"; return 0; }
  while read -r name pid; do
    if alive "$pid" "$(comm_of "$name")"; then
      log "stopping $name (pid $pid)"
      kill -TERM "$pid" 2>/dev/null || true      # both masters stop their children on SIGTERM
      for ((i = 0; i < 100; i++)); do alive "$pid" || break; sleep 0.1; done
      if alive "$pid"; then log "$name still alive, SIGKILL"; kill -KILL "$pid" 2>/dev/null || true; fi
    fi
  done <"$PIDFILE"
  rm -f "$PIDFILE"
}

status() {
  local name pid state
  echo "mailstack root: $ROOT   domain: $DOMAIN"
  echo "IMAP  127.0.0.1:$IMAP_PORT (plain login, STARTTLS offered)  IMAPS 127.0.0.1:$IMAPS_PORT (self-signed, $ROOT/tls/cert.pem)"
  echo "SMTP  127.0.0.1:$SMTP_PORT (no auth, STARTTLS optional; accepts mail for the users below only)"
  echo "SUBM  127.0.0.1:$SUBMISSION_PORT (STARTTLS required, AUTH PLAIN/LOGIN with the IMAP credentials)"
  echo "users (login = address, password):"
  for u in $USERS; do echo "  ${u%%:*}@$DOMAIN  ${u#*:}   maildir $MAIL/$DOMAIN/${u%%:*}/"; done
  if [ -f "$PIDFILE" ]; then
    while read -r name pid; do
      alive "$pid" "$(comm_of "$name")" && state=running || state=DEAD
      echo "$name pid $pid $state"
    done <"$PIDFILE"
  else
    echo "not running"
  fi
  echo "logs: $LOG/dovecot.log $LOG/postfix.log"
}

main() {
  [ "$(id -u)" = 0 ] || die "run as root"
  case "${1:-start}" in
    start)
      install_pkgs
      local running=1
      alive "$(recorded_pid dovecot)" dovecot && alive "$(recorded_pid postfix)" master || running=0
      if [ $running = 0 ]; then
        write_config
        # drop entries of dead processes, keep live ones (start_* skip those)
        if [ -f "$PIDFILE" ]; then
          while read -r n p; do alive "$p" "$(comm_of "$n")" && echo "$n $p"; done <"$PIDFILE" >"$PIDFILE.new" || true
          mv "$PIDFILE.new" "$PIDFILE"
        fi
        start_dovecot
        start_postfix
      else
        log "already running"
      fi
      status ;;
    stop) stop_all ;;
    restart) stop_all; main start ;;
    status) status ;;
    wipe) stop_all; rm -rf "$ETC" "$RUN" "$LOG" "$MAIL" "$ROOT/tls" "$ROOT/state" "$ROOT/spool" "$ROOT/lib"
          log "wiped" ;;
    *) die "usage: $0 [start|stop|status|restart|wipe]" ;;
  esac
}

main "$@"
