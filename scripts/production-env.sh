# The production shape's environment and how each of its processes is started and stopped:
# sourced by scripts/production.sh and scripts/deploy.sh, so that both start a process the
# same way. Not a script of its own. Expects to be sourced from the repository's root.
#
# Settings (the environment; defaults):
#   WEB=3            web processes (config/server.py), on ports PORT, PORT+1, ... or, after
#                    a deploy, on the other set PORT+WEB, PORT+WEB+1, ... (scripts/deploy.sh
#                    starts the new release beside the old, then stops the old): the set that
#                    serves is written in RUN_DIR/web-ports
#   PORT=8001        the first web process's port
#   WORKERS=1        task workers (manage.py tasks_worker)
#   PROXY_PORT=8000  nginx, in front of the web processes (PROXY_HOST=127.0.0.1)
#   RUN_DIR=var/run  pid files, logs, nginx's configuration and files, the secret key
#   RELEASE          this release's name (settings.RELEASE): UTC time and commit, so that
#                    names sort in time order
#   DATABASE_URL, REDIS_URL: the machine's PostgreSQL and Redis
#   BACKUP_DIR, BACKUP_EVERY_HOURS=1: where the backups go (config/settings.py), how often
# Every other variable the caller set (CHANNEL_PREFIX, ROBOT_DELAY, RATE_*, ...) reaches the
# processes unchanged.
#
# In RUN_DIR: web-PORT.pid and web-PORT.log for each web process, worker-I.pid and
# worker-I.log for each task worker (I from 0), web-ports (the web processes' ports, as nginx
# is configured), nginx.conf, nginx.pid, nginx-error.log, nginx-access.log, secret_key.
#
# Functions: web_start PORT, worker_start I, wait_ready PORT [SECONDS], stop_pidfile FILE,
# pid_of FILE, web_ports, web_ports_other, web_ports_set PORTS, nginx_config FILE,
# nginx_start, nginx_reload, nginx_stop, proxy_ready [SECONDS].

ROOT="$(pwd)"
WEB="${WEB:-3}"
PORT="${PORT:-8001}"
WORKERS="${WORKERS:-1}"
PROXY_HOST="${PROXY_HOST:-127.0.0.1}"
PROXY_PORT="${PROXY_PORT:-8000}"
RUN_DIR="${RUN_DIR:-var/run}"
mkdir -p "$RUN_DIR"
RUN_DIR="$(cd "$RUN_DIR" && pwd)"
export STATIC_ROOT="${STATIC_ROOT:-$ROOT/staticfiles}"  # collectstatic's, served by nginx
PYTHON="$ROOT/.venv/bin/python"
# A process's SIGTERM to exit: DRAIN_NOTICE + GRACEFUL_SHUTDOWN (config/server.py), and some.
STOP_TIMEOUT="${STOP_TIMEOUT:-20}"
READY_TIMEOUT="${READY_TIMEOUT:-60}"

export RELEASE="${RELEASE:-$(date -u +%Y%m%dT%H%M%SZ)-$(git rev-parse --short HEAD 2>/dev/null || echo local)}"
export DEBUG=0
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/ocholoco}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"
# One key for every process, this run's and the next deploy's: sessions outlive a deploy.
if [ -z "${SECRET_KEY:-}" ]; then
  if [ ! -s "$RUN_DIR/secret_key" ]; then
    (umask 077 && python3 -c 'import secrets; print(secrets.token_urlsafe(50))' \
      >"$RUN_DIR/secret_key")
  fi
  SECRET_KEY="$(cat "$RUN_DIR/secret_key")"
fi
export SECRET_KEY
export ALLOWED_HOSTS="${ALLOWED_HOSTS:-127.0.0.1,localhost}"
export SECURE_COOKIES="${SECURE_COOKIES:-0}"  # plain http on this machine
export TASK_WORKERS=0  # the web processes serve; the task workers do the background work
export DB_POOL_MAX="${DB_POOL_MAX:-8}"
export TRUSTED_PROXIES="${TRUSTED_PROXIES:-127.0.0.1/32}"  # nginx: its X-Forwarded-For holds
export BACKUP_EVERY_HOURS="${BACKUP_EVERY_HOURS:-1}"  # a task worker takes a backup hourly

NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
nginx_args=(-p "$RUN_DIR" -e "$RUN_DIR/nginx-error.log" -c "$RUN_DIR/nginx.conf")

# The pid in FILE if that process still runs (a zombie counts as gone), else nothing.
pid_of() {
  local pid
  [ -s "$1" ] || return 0
  pid="$(cat "$1")"
  if kill -0 "$pid" 2>/dev/null && ! grep -q '^[^)]*) Z' "/proc/$pid/stat" 2>/dev/null; then
    echo "$pid"
  fi
}

# Start NAME's command detached (its own session: a Ctrl-C in the terminal reaches only the
# script, which stops everything in order), its pid in RUN_DIR/NAME.pid, its output appended
# to RUN_DIR/NAME.log.
_detached() {
  local name="$1"
  shift
  echo "== $(date -u +%FT%TZ) $name, release $RELEASE" >>"$RUN_DIR/$name.log"
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$RUN_DIR/$name.pid" "$@" \
    </dev/null >>"$RUN_DIR/$name.log" 2>&1 &
  local i
  for i in $(seq 50); do  # the pid file is written at once
    [ -s "$RUN_DIR/$name.pid" ] && return 0
    sleep 0.02
  done
}

web_start() {  # PORT
  rm -f "$RUN_DIR/web-$1.pid"
  METRICS_PORT=$(($1 + 1000)) _detached "web-$1" "$PYTHON" -m config.server --port "$1"
}

worker_start() {  # I (0, 1, ...)
  rm -f "$RUN_DIR/worker-$1.pid"
  METRICS_PORT=$((PORT + 2000 + $1)) _detached "worker-$1" "$PYTHON" manage.py tasks_worker
}

# Wait until the web process on PORT answers /readyz 200 (at most SECONDS); fail, with the end
# of its log, if it does not or if it exits.
wait_ready() {  # PORT [SECONDS]
  local port="$1" deadline=$((SECONDS + ${2:-$READY_TIMEOUT}))
  while [ "$SECONDS" -lt "$deadline" ]; do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 \
      "http://127.0.0.1:$port/readyz")" = 200 ]; then
      return 0
    fi
    if [ -z "$(pid_of "$RUN_DIR/web-$port.pid")" ]; then
      echo "web process on port $port exited; the end of $RUN_DIR/web-$port.log:" >&2
      tail -n 20 "$RUN_DIR/web-$port.log" >&2
      return 1
    fi
    sleep 0.2
  done
  echo "web process on port $port not ready after ${2:-$READY_TIMEOUT} s" >&2
  tail -n 20 "$RUN_DIR/web-$port.log" >&2
  return 1
}

# SIGTERM the process of pid FILE (a web process drains, a worker finishes its task) and wait
# until it exits, at most STOP_TIMEOUT s; then SIGKILL, with a warning.
stop_pidfile() {  # FILE
  local pid deadline=$((SECONDS + STOP_TIMEOUT))
  pid="$(pid_of "$1")"
  if [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    while [ -n "$(pid_of "$1")" ] && [ "$SECONDS" -lt "$deadline" ]; do
      sleep 0.1
    done
    if [ -n "$(pid_of "$1")" ]; then
      echo "warning: $(basename "$1" .pid) (pid $pid) still running ${STOP_TIMEOUT} s after" \
        "SIGTERM: SIGKILL" >&2
      kill -KILL "$pid" 2>/dev/null || true
      while [ -n "$(pid_of "$1")" ]; do sleep 0.1; done
    fi
  fi
  rm -f "$1"
}

_port_set() {  # FIRST: WEB ports from FIRST, comma-separated
  local i ports=()
  for ((i = 0; i < WEB; i++)); do ports+=("$(($1 + i))"); done
  (IFS=,; echo "${ports[*]}")
}

web_ports() {  # the ports of the web processes that serve (nginx's), comma-separated
  if [ -s "$RUN_DIR/web-ports" ]; then cat "$RUN_DIR/web-ports"; else _port_set "$PORT"; fi
}

web_ports_other() {  # the other set of ports: where a deploy starts the new release
  if [ "$(web_ports)" = "$(_port_set "$PORT")" ]; then
    _port_set "$((PORT + WEB))"
  else
    _port_set "$PORT"
  fi
}

web_ports_set() {  # PORTS: the web processes that serve from now on (nginx_reload's next)
  echo "$1" >"$RUN_DIR/web-ports"
}

# Write nginx's configuration for these settings to FILE, and check it (nginx -t).
nginx_config() {  # FILE
  python3 scripts/nginx_conf.py --web-ports "$(web_ports)" --proxy-host "$PROXY_HOST" \
    --proxy-port "$PROXY_PORT" --run-dir "$RUN_DIR" --static-root "$STATIC_ROOT" \
    --out "$1"
  mkdir -p "$RUN_DIR/nginx-temp"
  "$NGINX" -t -q -p "$RUN_DIR" -e "$RUN_DIR/nginx-error.log" -c "$1"
}

# Debian's nginx, installed if missing (as scripts/setup.sh installs Debian's packages).
nginx_install() {
  if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    echo "Installing Debian's nginx for the proxy..."
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nginx >/dev/null
    NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
  fi
}

nginx_start() {  # nginx puts itself in the background; its pid is RUN_DIR/nginx.pid
  nginx_config "$RUN_DIR/nginx.conf"
  "$NGINX" "${nginx_args[@]}"
}

# Reload nginx if its configuration for these settings differs from the one it runs; say
# which ("reloaded" or "unchanged").
nginx_reload() {
  nginx_config "$RUN_DIR/nginx.conf.new"
  if cmp -s "$RUN_DIR/nginx.conf.new" "$RUN_DIR/nginx.conf"; then
    rm -f "$RUN_DIR/nginx.conf.new"
    echo unchanged
    return 0
  fi
  mv "$RUN_DIR/nginx.conf.new" "$RUN_DIR/nginx.conf"
  "$NGINX" "${nginx_args[@]}" -s reload
  echo reloaded
}

nginx_stop() {  # nginx's graceful stop (SIGQUIT): the requests it carries finish
  local pid
  pid="$(pid_of "$RUN_DIR/nginx.pid")"
  [ -n "$pid" ] || return 0
  kill -QUIT "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && kill -TERM "$pid" 2>/dev/null
  rm -f "$RUN_DIR/nginx.pid"
}

# Wait until /readyz through the proxy answers 200 (at most SECONDS).
proxy_ready() {  # [SECONDS]
  local deadline=$((SECONDS + ${1:-$READY_TIMEOUT}))
  while [ "$SECONDS" -lt "$deadline" ]; do
    [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 \
      "http://$PROXY_HOST:$PROXY_PORT/readyz")" = 200 ] && return 0
    sleep 0.2
  done
  echo "nginx on $PROXY_HOST:$PROXY_PORT does not answer /readyz 200" >&2
  tail -n 20 "$RUN_DIR/nginx-error.log" >&2
  return 1
}
