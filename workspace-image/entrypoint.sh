#!/usr/bin/env bash
# Container entry point (under tini, which forwards SIGTERM and SIGHUP to gloveboxd and reaps
# the orphans its desktop leaves): gloveboxd on all interfaces, with its own embedded desktop
# and everything it keeps under the one volume.
#
#   glovebox-entrypoint [FLAGS...]          gloveboxd with these extra flags (its --help)
#   glovebox-entrypoint token               print the workspace's first token (kubectl exec)
#   glovebox-entrypoint install-token FILE  copy FILE (one Secret key, in an init container)
#                                           to the state dir's token file, mode 0600
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

case "${1:-}" in
  token)
    if [ -n "${GLOVEBOX_TOKEN:-}" ]; then
      echo "glovebox-entrypoint: the token comes from \$GLOVEBOX_TOKEN (the Secret that set it)" >&2
      exit 1
    fi
    first_token "$STATE/token" || {
      echo "glovebox-entrypoint: no token in $STATE/token yet (the daemon makes it at start)" >&2
      exit 1
    }
    exit 0
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
    install -m 0600 "$src" "$STATE/token.new"
    mv -f "$STATE/token.new" "$STATE/token"
    exit 0
    ;;
esac
if [ "$#" -gt 0 ] && [ "${1#-}" = "$1" ]; then
  exec "$@"
fi
install -d -m 0700 "$STATE"
# The token file is the state dir's own (gloveboxd's default; $GLOVEBOX_TOKEN wins over it):
# made with a fresh token at first start, kept on the volume, reloaded on SIGHUP.
exec gloveboxd --desktop embedded --listen "0.0.0.0:$PORT" --state-dir "$STATE" "$@"
