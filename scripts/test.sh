#!/usr/bin/env bash
# Checks the code (ruff, the import contracts) and runs every test. In CI (CI=true) the suite
# runs on PostgreSQL and Redis (the machine's services), then the tests that touch a database or
# a channel layer again on the embedded default (SQLite, in memory): not the browser's, and not
# tests/engine and tests/bots (the rules and the robots' choices: pure Python, no database; the
# robots' turns as tasks are tested in tests/tables, on both).
# Elsewhere it runs on whatever DATABASE_URL / REDIS_URL say (SQLite and memory if unset).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dev
export PYTHONDONTWRITEBYTECODE=1
.venv/bin/ruff check .
.venv/bin/lint-imports  # the import contracts in pyproject.toml: layers, a pure engine, no cycles
if [ "${CI:-}" = "true" ]; then
  export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/ocholoco}"
  export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"
  echo "== Whole suite on PostgreSQL + Redis"
  .venv/bin/pytest "$@"
  echo "== Services and realtime on the embedded default (SQLite + in-memory layer)"
  env -u DATABASE_URL -u REDIS_URL .venv/bin/pytest -m "not browser and not scale" \
    --ignore=tests/engine --ignore=tests/bots "$@"
else
  .venv/bin/pytest "$@"
fi
