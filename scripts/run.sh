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
exec .venv/bin/daphne -b 127.0.0.1 -p "${PORT:-8000}" \
  --websocket-max-frame-size 4096 --websocket-max-message-size 524288 config.asgi:application
