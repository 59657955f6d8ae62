#!/usr/bin/env bash
# `npm test`: static checks, unit, integration and cluster tests on the real PostgreSQL and Redis of
# this machine, and the browser tests on Debian's Chromium. Starts what is missing, or says why it can't.
# `npm run test:quick` (`--quick`): the static checks and the unit tests only, for the inner loop.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

ensure_postgres() {
  if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then return; fi
  step "PostgreSQL is not answering on 127.0.0.1:5432: starting it"
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
  fi
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && return; sleep 1; done
  echo "PostgreSQL is needed on 127.0.0.1:5432 (user postgres, trust auth) and could not be started." >&2
  exit 1
}

ensure_redis() {
  if redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then return; fi
  step "Redis is not answering on 127.0.0.1:6379: starting it"
  if command -v redis-server >/dev/null; then
    mkdir -p /var/lib/redis /var/log/redis
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
  fi
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && return; sleep 1; done
  echo "Redis is needed on 127.0.0.1:6379 and could not be started." >&2
  exit 1
}

# Debian's packages that the tests run: Chromium's headless shell (browser tests), HAProxy, PgBouncer and Prometheus
# (the cluster test, tests/cluster). Installed when missing, as root; otherwise the command to install them.
ensure_packages() {
  local missing=()
  [ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
  [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
  [ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
  [ -x /usr/bin/prometheus ] || missing+=(prometheus)
  if [ ${#missing[@]} -eq 0 ]; then return; fi
  step "installing Debian's ${missing[*]} for the tests"
  if [ "$(id -u)" -ne 0 ]; then
    echo "The tests need ${missing[*]}: run 'apt-get install -y ${missing[*]}' as root." >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The project's own Node.js (the npm package `node`, docs/operations.md#runtime) before the machine's, as
# npm's scripts and npx have it, so that `bash tests/run.sh` runs on the same one as `npm test`.
export PATH="$PWD/node_modules/.bin:$PATH"
# Node.js keeps the code it compiles here and reuses it in every later process: the tests start some
# forty servers, test workers and command-line programs, and each starts with a third less CPU.
export NODE_COMPILE_CACHE="$PWD/node_modules/.cache/node-compile"
step "Node.js $(node -p 'process.version + " (" + process.execPath + ")"')"

# Runs each "name: command" side by side (two cores are busier with several jobs than with one),
# every line of its output prefixed with its name as it comes; then says how each ended and after how
# long. Fails when any failed, after all have ended.
side_by_side() {
  local pids=() names=()
  for job in "$@"; do
    local name=${job%%:*} command=${job#*: }
    (
      set +e
      started=$SECONDS
      bash -c "set -o pipefail; $command" 2>&1 | sed -u "s/^/[$name] /"
      status=${PIPESTATUS[0]}
      echo "-- $name: $([ "$status" -eq 0 ] && echo passed || echo "FAILED (status $status)") in $((SECONDS - started)) s"
      exit "$status"
    ) &
    pids+=($!)
    names+=("$name")
  done
  local failed=()
  for i in "${!pids[@]}"; do wait "${pids[$i]}" || failed+=("${names[$i]}"); done
  if [ ${#failed[@]} -gt 0 ]; then
    echo "failed: ${failed[*]}" >&2
    return 1
  fi
}

started=$SECONDS
if [ "${1:-}" = "--quick" ]; then
  # ESLint's cache (node_modules/.cache) and tsc's (tsconfig.tsbuildinfo, tsconfig's `incremental`) make a
  # repeated run check only what changed.
  side_by_side \
    "typecheck: npx tsc --noEmit" \
    "lint: npx eslint --max-warnings 0 --cache --cache-location node_modules/.cache/eslint/ ." \
    "unit: npx vitest run --project unit"
  step "npm run test:quick passed in $((SECONDS - started)) s"
  exit 0
fi

ensure_postgres
ensure_redis
ensure_packages

# What needs no build runs beside it. (The type check leaves out the route types the tests' build writes,
# tsconfig.json: read while being written they could fail it.)
step "the tests' production build (.next-test, shared by every suite that serves the app), beside the type check, the lint and the unit tests"
side_by_side "build: npx tsx tests/build.ts" "typecheck: npx tsc --noEmit" "lint: npx eslint --max-warnings 0 ." "unit: npx vitest run --project unit"
# Each test runner keeps both cores busy by itself (several workers, each waiting part of its time); run
# side by side they would only slow each other, and tests that time answers would fail.
step "vitest: integration and cluster tests"
side_by_side "vitest: npx vitest run --project integration --project cluster"
step "browser tests (Playwright on Debian's Chromium headless shell)"
side_by_side "browser: npx playwright test"
step "npm test passed in $((SECONDS - started)) s"
