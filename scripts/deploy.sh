#!/usr/bin/env bash
# The deploy: this checkout's code onto the processes scripts/production.sh started, while
# nginx keeps serving and every table page is moved once.
#
#   bash scripts/deploy.sh        (or `make deploy`), with production.sh's settings (RUN_DIR,
#                                 WEB, PORT, WORKERS, ...: scripts/production-env.sh)
#
# First the packages, a backup (`manage.py backup --label deploy`: its name is printed; a
# failed backup stops the deploy), then the migrations and static files of the new code. Then
# the new release's web processes start beside the running ones, on the other set of ports
# (web_ports_other), one at a time, each waited for until its /readyz answers 200
# (READY_TIMEOUT; if one is not ready, the new ones stop and the old ones serve on: the deploy
# fails, nothing changed). Then nginx is pointed at the new processes (a graceful reload: new
# requests and sockets go there) and the old ones get SIGTERM, one at a time: each drains (not
# ready at once, new requests refused with 503, which nginx passes on; table pages closed with
# 1012), so its pages reconnect to a new process, once, on the new release (STOP_TIMEOUT, then
# SIGKILL with a warning). Then each task worker the same way as a web process used to be:
# SIGTERM (it finishes the task it holds), then the new one.
#
# Why beside, not in place: restarted in place, one at a time, a page whose process stopped
# reconnected to another old one, which stopped next: a page was moved two or three times a
# deploy, each time greeted again (docs/performance.md, "A rolling deploy").
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

live="$(web_ports)"
next="$(web_ports_other)"
started=()
# A new process that is not ready stops the deploy: the new ones go, the old ones serve on.
abandon() {
  local port
  for port in "${started[@]}"; do stop_pidfile "$RUN_DIR/web-$port.pid"; done
  step "deploy stopped: release $RELEASE not started; the running processes serve on" >&2
  exit 1
}
for port in ${next//,/ }; do
  t0=$(now_ms)
  web_start "$port"
  started+=("$port")
  wait_ready "$port" || abandon
  step "web $port: pid $(cat "$RUN_DIR/web-$port.pid") ready in $(($(now_ms) - t0)) ms"
done
web_ports_set "$next"
if ! reloaded="$(nginx_reload)"; then
  web_ports_set "$live"
  abandon
fi
step "nginx: $reloaded, to ports $next"
for port in ${live//,/ }; do
  old="$(pid_of "$RUN_DIR/web-$port.pid")"
  t0=$(now_ms)
  stop_pidfile "$RUN_DIR/web-$port.pid"
  step "web $port: pid ${old:-none} stopped in $(($(now_ms) - t0)) ms (its pages moved)"
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
