#!/usr/bin/env bash
# The rolling deploy: this checkout's code onto the processes scripts/production.sh started,
# one process at a time, while nginx keeps serving through the others.
#
#   bash scripts/deploy.sh        (or `make deploy`), with production.sh's settings (RUN_DIR,
#                                 WEB, PORT, WORKERS, ...: scripts/production-env.sh)
#
# First the packages, a backup (`manage.py backup --label deploy`: its name is printed; a
# failed backup stops the deploy), then the migrations and static files of the new code. Then, for each web process
# in turn: SIGTERM (it drains: not ready at once, new requests refused with 503, which nginx
# passes to another process, table pages closed with 1012 so they reconnect elsewhere), wait
# for it to exit (STOP_TIMEOUT, then SIGKILL with a warning), start the new one on the same
# port with the new RELEASE, wait for its /readyz 200 (READY_TIMEOUT; the deploy fails if it
# is not), then the next. Then each task worker
# the same way (SIGTERM: it finishes the task it holds). nginx stays up; it is reloaded only
# if its configuration changed.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/production-env.sh
source scripts/production-env.sh

begun=$SECONDS
step() {  # one line a step: seconds since the deploy began, what was done
  printf '%5s s  %s\n' "$((SECONDS - begun))" "$*"
}
now_ms() { date +%s%3N; }

if [ -z "$(pid_of "$RUN_DIR/nginx.pid")" ]; then
  echo "nginx is not running in $RUN_DIR: start with 'bash scripts/production.sh'" >&2
  exit 1
fi
step "release $RELEASE ($WEB web processes from port $PORT, $WORKERS workers, $RUN_DIR)"
bash scripts/setup.sh run
# The way back from a bad release: this copy and the previous release (docs/operating.md).
backup="$("$PYTHON" manage.py backup --label deploy)"
step "backup before migrating: $backup"
"$PYTHON" manage.py migrate --noinput >/dev/null
"$PYTHON" manage.py collectstatic --noinput >/dev/null
step "packages, migrations, static files"
step "nginx: $(nginx_reload)"

for ((i = 0; i < WEB; i++)); do
  port=$((PORT + i))
  old="$(pid_of "$RUN_DIR/web-$port.pid")"
  t0=$(now_ms)
  stop_pidfile "$RUN_DIR/web-$port.pid"
  t1=$(now_ms)
  web_start "$port"
  wait_ready "$port" || { step "web $port: NOT READY: deploy stopped" >&2; exit 1; }
  t2=$(now_ms)
  step "web $port: pid ${old:-none} stopped in $((t1 - t0)) ms," \
    "pid $(cat "$RUN_DIR/web-$port.pid") ready in $((t2 - t1)) ms"
done

for ((i = 0; i < WORKERS; i++)); do
  old="$(pid_of "$RUN_DIR/worker-$i.pid")"
  t0=$(now_ms)
  stop_pidfile "$RUN_DIR/worker-$i.pid"
  t1=$(now_ms)
  worker_start "$i"
  sleep 1  # a worker that cannot start (an import, its settings) exits within it
  if [ -z "$(pid_of "$RUN_DIR/worker-$i.pid")" ]; then
    step "worker $i: exited at start: deploy stopped" >&2
    tail -n 20 "$RUN_DIR/worker-$i.log" >&2
    exit 1
  fi
  step "worker $i: pid ${old:-none} stopped in $((t1 - t0)) ms," \
    "pid $(cat "$RUN_DIR/worker-$i.pid") started"
done
proxy_ready
step "deployed release $RELEASE"
