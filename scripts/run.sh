#!/usr/bin/env bash
# Runs Ocho Loco at http://127.0.0.1:8000 on the embedded default: SQLite, in-memory channel
# layer, one server process (config/server.py), robots included.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh run
.venv/bin/python manage.py migrate --noinput >/dev/null
.venv/bin/python manage.py vapid_keys >/dev/null  # local Web Push keys, kept in var/
echo "Ocho Loco: http://127.0.0.1:${PORT:-8000}/"
exec .venv/bin/python -m config.server --port "${PORT:-8000}"  # the server and its limits
