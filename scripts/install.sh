#!/usr/bin/env bash
# Installs what bakeoff needs on a Debian/Ubuntu machine: system tools (bubblewrap for the
# sandbox, faketime and a C compiler for the admission checks, git, strace for --trace-network, chromium for the
# site's end-to-end tests)
# and the npm packages (which also builds).
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v bwrap >/dev/null || missing+=(bubblewrap)
command -v faketime >/dev/null || missing+=(faketime)
# a C compiler: the shifted-clock admission check builds a small shim for libfaketime (src/grade/shifted-clock.ts), and cargo links with it
command -v cc >/dev/null || missing+=(gcc)
command -v git >/dev/null || missing+=(git)
# strace: `bakeoff run --trace-network` records every address a model agent tries to reach.
command -v strace >/dev/null || missing+=(strace)
# Chromium (Debian's package, /usr/bin/chromium) runs the end-to-end tests of `bakeoff publish`'s site.
[ -x /usr/bin/chromium ] || missing+=(chromium)
# Redis (Debian's redis-server) carries `bakeoff run --queue` and `bakeoff worker` (BullMQ); the tests start their own.
command -v redis-server >/dev/null || missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} with apt-get" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# npm install, not npm ci: the registry here 404s an optional Windows-only package of vite
# (napi-windows-process-start-time) that a lock made here cannot list, and npm ci refuses that.
npm install --no-audit --no-fund
# The five agent CLIs at their pinned versions, each in its own npm prefix under
# /var/lib/bakeoff/harnesses (model agents and the real-agents tests drive them).
node bin/bakeoff.js agents install
