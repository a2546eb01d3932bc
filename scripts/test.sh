#!/usr/bin/env bash
# Checks the code (ruff, the import contracts) and runs every test, tier by tier. In CI (CI=true) the suite
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

# The tiers in order (tests/conftest.py): the engine and the robots with no Django and no
# browser, on every core; the server; the browser. Arguments (a path, -k): one run of pytest.
tiers() {
  echo "== The engine and the robots (no Django, no browser)"
  .venv/bin/pytest -p no:django -W ignore::pytest.PytestConfigWarning -n auto tests/engine tests/bots
  echo "== The server"
  # On two workers too (pytest-xdist): much of this tier also waits (a server process's or a
  # manage.py's start, a backup, a restore), which the other worker fills. Each worker has a
  # test database of its own (pytest-django's _gw0, _gw1); tests.live's servers a database, a
  # channel and cache prefix and ports of their own, and static files of their own where they
  # collect them: no test shares anything with one running beside it. (pytest-xdist's
  # xdist_group cannot keep tests together here: with pytest 9 it is silently ignored.)
  .venv/bin/pytest -m "not browser" --ignore=tests/engine --ignore=tests/bots -n 2 --dist load
  echo "== The browser"
  # On two workers (pytest-xdist), each with its own Chromium and server: much of the
  # tier is waiting (a server's start, a robot's delay, an animation, a page's reconnection),
  # which the other worker fills.
  .venv/bin/pytest -m browser -n 2 --dist load
}
if [ "${CI:-}" = "true" ]; then
  export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/ocholoco}"
  export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"
  echo "== Whole suite on PostgreSQL + Redis"
  if [ $# -gt 0 ]; then .venv/bin/pytest "$@"; else tiers; fi
  echo "== Services and realtime on the embedded default (SQLite + in-memory layer)"
  # On two workers, as the server tier (above).
  env -u DATABASE_URL -u REDIS_URL .venv/bin/pytest -m "not browser and not scale" \
    --ignore=tests/engine --ignore=tests/bots -n 2 --dist load "$@"
elif [ $# -gt 0 ]; then
  .venv/bin/pytest "$@"
else
  tiers
fi
