#!/usr/bin/env bash
# `npm test`: static checks, unit and integration tests on the real PostgreSQL and Redis of this
# machine, then the browser tests on Debian's Chromium. Starts what is missing, or says why it can't.
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

# Debian's packages that the tests run: Chromium (browser tests), HAProxy and PgBouncer (the cluster
# test, tests/cluster). Installed when missing, as root; otherwise the command to install them.
ensure_packages() {
  local missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
  [ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
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
step "Node.js $(node -p 'process.version + " (" + process.execPath + ")"')"

ensure_postgres
ensure_redis
ensure_packages

step "typecheck";   npx tsc --noEmit
step "lint";        npx eslint --max-warnings 0 .
step "unit, integration and cluster tests (vitest)"
npx vitest run
step "browser tests (Playwright on Debian's Chromium)"
npx playwright test
