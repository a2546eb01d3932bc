#!/usr/bin/env bash
# The production shape on one machine: WEB web processes (config/server.py) and WORKERS task workers on
# PostgreSQL and Redis (the machine's services), DEBUG off. For trying it, the load benchmark
# and the scale tests; a real deployment runs the same commands under a process supervisor,
# behind a proxy that spreads connections over the web processes and forwards websockets.
#
#   WEB=2 WORKERS=2 PORT=8001 bash scripts/production.sh
#
# Web process i listens on PORT+i (8001, 8002, ...). Ctrl-C stops them all.
set -euo pipefail
cd "$(dirname "$0")/.."
WEB="${WEB:-2}"
WORKERS="${WORKERS:-2}"
PORT="${PORT:-8001}"
export DEBUG=0
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/ocholoco}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"
export SECRET_KEY="${SECRET_KEY:-$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')}"
export ALLOWED_HOSTS="${ALLOWED_HOSTS:-127.0.0.1,localhost}"
export SECURE_COOKIES="${SECURE_COOKIES:-0}"  # plain http on this machine
export TASK_WORKERS=0  # the web processes serve; the workers below do the background work
export DB_POOL_MAX="${DB_POOL_MAX:-8}"

bash scripts/setup.sh run
# The machine's services: start them if they stopped.
if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
fi
if ! (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
database="${DATABASE_URL##*/}"
psql "${DATABASE_URL%/*}/postgres" -tAc "SELECT 1 FROM pg_database WHERE datname='$database'" \
  | grep -q 1 || psql "${DATABASE_URL%/*}/postgres" -c "CREATE DATABASE \"$database\"" >/dev/null
.venv/bin/python manage.py migrate --noinput >/dev/null
.venv/bin/python manage.py collectstatic --noinput >/dev/null

pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait' EXIT INT TERM
for ((i = 0; i < WEB; i++)); do
  .venv/bin/python -m config.server --port "$((PORT + i))" &
  pids+=($!)
  echo "web $i: http://127.0.0.1:$((PORT + i))/"
done
for ((i = 0; i < WORKERS; i++)); do
  .venv/bin/python manage.py tasks_worker &
  pids+=($!)
done
echo "$WORKERS task workers; PostgreSQL $DATABASE_URL, Redis $REDIS_URL"
wait
