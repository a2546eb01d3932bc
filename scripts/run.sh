#!/usr/bin/env bash
# Runs Ocho Loco at http://127.0.0.1:8000 on the embedded default: SQLite, in-memory channel
# layer, one daphne process, robots included.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh run
.venv/bin/python manage.py migrate --noinput >/dev/null
.venv/bin/python manage.py vapid_keys >/dev/null  # local Web Push keys, kept in var/
echo "Ocho Loco: http://127.0.0.1:${PORT:-8000}/"
# The table's socket only pushes to the page: a browser's frame over 4 KiB closes it, and no
# message either way may pass 512 KiB (the largest push, a whole table and its chat, is far less).
# After a restart every open page reconnects at once: the listen queue holds 4096 of them (the
# default, 50, dropped the rest) and a handshake may wait 60 s for its turn (5 s refused them).
exec .venv/bin/python -m config.serve -e "tcp:port=${PORT:-8000}:interface=127.0.0.1:backlog=4096" \
  --websocket_connect_timeout 60 \
  --websocket-max-frame-size 4096 --websocket-max-message-size 524288 config.asgi:application
