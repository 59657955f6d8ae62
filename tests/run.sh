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

ensure_chromium() {
  if [ -x /usr/bin/chromium ]; then return; fi
  step "installing Debian's Chromium for the browser tests"
  if [ "$(id -u)" -ne 0 ]; then
    echo "The browser tests need /usr/bin/chromium: run 'apt-get install -y chromium' as root." >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
}

# The tests of the app behind a transaction-mode pooler start PgBouncer (tests/support/pgbouncer.ts).
ensure_pgbouncer() {
  if command -v pgbouncer >/dev/null; then return; fi
  step "installing Debian's PgBouncer for the connection-pooler tests"
  if [ "$(id -u)" -ne 0 ]; then
    echo "The pooler tests need pgbouncer: run 'apt-get install -y pgbouncer' as root." >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null
}

ensure_postgres
ensure_redis
ensure_chromium
ensure_pgbouncer

step "typecheck";   npx tsc --noEmit
step "lint";        npx eslint --max-warnings 0 .
step "unit and integration tests (vitest)"
npx vitest run
step "browser tests (Playwright on Debian's Chromium)"
npx playwright test
