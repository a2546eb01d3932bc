#!/usr/bin/env bash
# The production shape on one machine, by one command: nginx (deploy/nginx.conf) in front of
# WEB web processes (config/server.py) and WORKERS task workers, on the machine's PostgreSQL
# and Redis, DEBUG off. A real deployment is the same processes under a process supervisor.
#
#   bash scripts/production.sh           start everything, print the proxy's address, stay in
#                                        the foreground; Ctrl-C (or SIGTERM) stops everything
#   DETACH=1 bash scripts/production.sh  start everything and return once every web process
#                                        is ready and nginx answers
#   bash scripts/production.sh stop      stop everything (by the pid files in RUN_DIR)
#
# Settings (WEB=3, PORT=8001, WORKERS=1, PROXY_PORT=8000, RUN_DIR=var/run, RELEASE, ...), the
# pid and log files and how a process is started: scripts/production-env.sh. New code is
# started beside the running processes, then they are stopped, by scripts/deploy.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-start}"
case "$mode" in
  start | stop) ;;
  *) echo "usage: [DETACH=1] bash scripts/production.sh [start|stop]" >&2; exit 2 ;;
esac
# shellcheck source=scripts/production-env.sh
source scripts/production-env.sh

# Every web process and worker of RUN_DIR (this run's, or one a deploy started meanwhile) gets
# SIGTERM at once, and each is waited for (stop_pidfile); then nginx.
stop_all() {
  local file stoppers=() begun=$SECONDS
  for file in "$RUN_DIR"/web-*.pid "$RUN_DIR"/worker-*.pid; do
    [ -e "$file" ] || continue
    stop_pidfile "$file" &
    stoppers+=($!)
  done
  [ ${#stoppers[@]} -eq 0 ] || wait "${stoppers[@]}" || true
  nginx_stop
  echo "stopped ${#stoppers[@]} processes and nginx in $((SECONDS - begun)) s ($RUN_DIR)"
}

if [ "$mode" = stop ]; then
  stop_all
  exit 0
fi

for file in "$RUN_DIR"/*.pid; do
  if [ -e "$file" ] && [ -n "$(pid_of "$file")" ]; then
    echo "already running ($file): 'bash scripts/production.sh stop' stops it," \
      "'bash scripts/deploy.sh' rolls new code onto it" >&2
    exit 1
  fi
done

bash scripts/setup.sh run
nginx_install
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
"$PYTHON" manage.py migrate --noinput >/dev/null
"$PYTHON" manage.py collectstatic --noinput >/dev/null

started=""
trap '[ -n "$started" ] || stop_all' EXIT  # a start that failed half-way leaves nothing
rm -f "$RUN_DIR/web-ports"  # a fresh start serves from PORT (web_ports)
ports="$(web_ports)"
for port in ${ports//,/ }; do
  web_start "$port"
done
for ((i = 0; i < WORKERS; i++)); do
  worker_start "$i"
done
for port in ${ports//,/ }; do
  wait_ready "$port"
  echo "web $port: ready (pid $(cat "$RUN_DIR/web-$port.pid"))"
done
web_ports_set "$ports"
nginx_start
proxy_ready
started=1
echo "Ocho Loco: http://$PROXY_HOST:$PROXY_PORT/ (nginx, $WEB web processes from port $PORT," \
  "$WORKERS task workers; release $RELEASE; pids and logs in $RUN_DIR)"
echo "PostgreSQL $DATABASE_URL, Redis $REDIS_URL"

if [ "${DETACH:-0}" = 1 ]; then
  exit 0
fi
trap 'stop_all; exit 0' INT TERM
echo "Ctrl-C stops everything."
while true; do
  sleep 1 &
  wait $! || true
done
