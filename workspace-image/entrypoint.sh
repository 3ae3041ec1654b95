#!/usr/bin/env bash
# Container entry point: gloveboxd on all interfaces with its own embedded desktop.
# Extra arguments go to gloveboxd; any other first argument runs as a command instead
# (e.g. `docker run IMAGE cat /var/lib/glovebox/token`).
set -euo pipefail

STATE=/var/lib/glovebox
if [ "$#" -gt 0 ] && [ "${1#-}" = "$1" ]; then
  exec "$@"
fi
mkdir -p "$STATE"
exec gloveboxd --desktop embedded --listen 0.0.0.0:7788 \
  --token-file "$STATE/token" --state-dir "$STATE" "$@"
