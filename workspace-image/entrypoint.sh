#!/usr/bin/env bash
# Container entry point (under tini, which forwards SIGTERM and SIGHUP to gloveboxd and reaps
# the orphans its desktop leaves): gloveboxd on all interfaces, with its own embedded desktop
# and everything it keeps under the one volume.
#
#   glovebox-entrypoint [FLAGS...]          gloveboxd with these extra flags (its --help)
#   glovebox-entrypoint token               mint a fresh actor token for the running daemon
#                                           and print it once (kubectl exec, at a claim)
#   glovebox-entrypoint install-token FILE  install FILE (one Secret key, in an init container)
#                                           as the state dir's token file, mode 0600, keeping
#                                           only each token's hash
#   glovebox-entrypoint COMMAND [ARGS...]   run any other command instead (sh, cat, ...)
#
# Probes: GET /healthz (alive) and /readyz (ready) on $PORT with `Host: localhost`: the daemon
# answers them only for loopback names and --allow-host ones, and a kubelet sends the pod's IP.
set -euo pipefail

VOLUME=/var/lib/glovebox
# gloveboxd --state-dir: token, chromium-profile/, browser-tab-marks.json, downloads/, files/,
# desktop/. A directory inside the volume rather than its root: the daemon makes its state dir
# 0700, and a mounted volume's root belongs to root (the pod's fsGroup only lets us write it).
STATE=$VOLUME/state
PORT=7788

first_token() {
  local line
  while read -r line; do
    case "$line" in '' | '#'*) continue ;; esac
    printf '%s\n' "${line%%[[:space:]]*}"
    return 0
  done <"$1"
  return 1
}

# The HTTP status /rpc answers a plain GET with token $1: 401 while the daemon does not
# hold the token, 426 (a WebSocket is needed) once it does.
rpc_status() {
  local line
  exec 3<>"/dev/tcp/127.0.0.1/$PORT" || return 1
  printf 'GET /rpc HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer %s\r\nConnection: close\r\n\r\n' "$1" >&3
  read -r line <&3 || true
  exec 3<&-
  line=${line#* }
  printf '%s\n' "${line%% *}"
}

# The token file's lines with every plain token replaced by its hash (what gloveboxd keeps).
hashed() {
  local line token rest
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in '' | '#'* | sha256:*) printf '%s\n' "$line"; continue ;; esac
    token=${line%%[[:space:]]*}
    rest=${line#"$token"}
    printf 'sha256:%s%s\n' "$(printf '%s' "$token" | sha256sum | cut -d' ' -f1)" "$rest"
  done <"$1"
}

case "${1:-}" in
  token)
    # The workspace keeps no token it could hand out (its file holds hashes, so the desktop
    # the agent drives reads nothing that authenticates): each claim mints its own, which
    # the running daemon takes at once (SIGHUP reloads the token file).
    if [ -n "${GLOVEBOX_TOKEN:-}" ]; then
      echo "glovebox-entrypoint: the token comes from \$GLOVEBOX_TOKEN (the Secret that set it)" >&2
      exit 1
    fi
    pid=$(cat "$STATE/gloveboxd.pid" 2>/dev/null || true)
    if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
      echo "glovebox-entrypoint: gloveboxd is not running here; a token is minted for a running workspace" >&2
      exit 1
    fi
    token=$(gloveboxd token add --role actor --state-dir "$STATE" 2>/dev/null)
    kill -HUP "$pid"
    for _ in $(seq 50); do
      if [ "$(rpc_status "$token" 2>/dev/null)" = 426 ]; then
        printf '%s\n' "$token"
        exit 0
      fi
      sleep 0.1
    done
    echo "glovebox-entrypoint: the daemon did not take the new token within 5 s" >&2
    exit 1
    ;;
  install-token)
    src=${2:?install-token FILE: the token file to install}
    if [ ! -s "$src" ]; then
      echo "glovebox-entrypoint: no token at $src; the Secret needs one key per pod, named" \
        "after the pod (deploy/kubernetes/README.md)" >&2
      exit 1
    fi
    token=$(first_token "$src" || true)
    if [ "${#token}" -lt 32 ]; then
      echo "glovebox-entrypoint: $src holds no token of 32 characters or more; put one in" \
        "(openssl rand -hex 32)" >&2
      exit 1
    fi
    install -d -m 0700 "$STATE"
    (umask 077 && hashed "$src" >"$STATE/token.new")
    mv -f "$STATE/token.new" "$STATE/token"
    exit 0
    ;;
esac
if [ "$#" -gt 0 ] && [ "${1#-}" = "$1" ]; then
  exec "$@"
fi
install -d -m 0700 "$STATE"
# The token file is the state dir's own (gloveboxd's default; $GLOVEBOX_TOKEN wins over it):
# made at first start, kept on the volume, reloaded on SIGHUP. The pid is gloveboxd's own
# after the exec: `token` signals it.
echo $$ >"$STATE/gloveboxd.pid"
exec gloveboxd --desktop embedded --listen "0.0.0.0:$PORT" --state-dir "$STATE" "$@"
