#!/usr/bin/env bash
# A newcomer's rehearsal: a fresh clone of this repository's current commit (HEAD; changes not
# committed are not in it) in a temporary folder, and `make test` run there N times in a row
# while another process keeps one core busy (a person's machine is never idle). Prints each
# run's closing pytest line and how long the run took; exits non-zero if any run failed.
#
#   scripts/rehearse.sh 3
#
# The first run creates the clone's .venv and node_modules as a newcomer's does (pip and npm
# install from the package registries: minutes). REHEARSE_REUSE=/path/to/a/checkout links that
# checkout's .venv and node_modules instead (a quicker rehearsal of the tests alone).
# DATABASE_URL, REDIS_URL and CI are unset: a newcomer runs on SQLite and the in-memory layer.
# The logs stay in the printed folder; the clone is removed at the end.
set -euo pipefail
runs="${1:-3}"
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "usage: scripts/rehearse.sh N (runs of make test)" >&2; exit 2; }
repo="$(cd "$(dirname "$0")/.." && pwd)"
commit="$(git -C "$repo" rev-parse HEAD)"
work="$(mktemp -d -t ocholoco-rehearsal-XXXXXX)"
clone="$work/ocholoco"
busy=""

finish() {
  if [ -n "$busy" ]; then kill "$busy" 2>/dev/null || true; fi
  rm -rf "$clone"
}
trap finish EXIT

git clone --quiet --no-local "$repo" "$clone"
git -C "$clone" checkout --quiet --detach "$commit"
if [ -n "${REHEARSE_REUSE:-}" ]; then
  ln -s "$(cd "$REHEARSE_REUSE" && pwd -P)/.venv" "$clone/.venv"
  ln -s "$(cd "$REHEARSE_REUSE" && pwd -P)/node_modules" "$clone/node_modules"
fi

# One core kept busy for the whole rehearsal: Debian's stress-ng if it is installed, else a
# plain busy loop.
if command -v stress-ng >/dev/null; then
  stress-ng --cpu 1 --quiet &
  busy=$!
  load="stress-ng --cpu 1"
else
  bash -c 'while :; do :; done' &
  busy=$!
  load="a busy loop"
fi

echo "Rehearsal of $(git -C "$clone" log -1 --format='%h %s' | cut -c1-80)"
echo "in $clone, $runs run(s) of make test, one core kept busy by $load; logs in $work"
failed=0
for n in $(seq 1 "$runs"); do
  log="$work/run-$n.log"
  start=$(date +%s)
  status=0
  (cd "$clone" && env -u DATABASE_URL -u REDIS_URL -u CI make test) >"$log" 2>&1 || status=$?
  took=$(( $(date +%s) - start ))
  # One closing line per tier of the suite, joined.
  result="$(grep -E '^=* ?[0-9]+ (passed|failed|error)|no tests ran' "$log" | grep -E ' in [0-9.]+s' \
    | tr -d '=' | sed 's/^ *//; s/ *$//' | paste -sd '|' - || true)"
  [ -n "$result" ] || result="(no pytest result line; the log ends: $(tail -1 "$log"))"
  printf 'run %d: %s  [make test took %dm%02ds, exit %d]\n' \
    "$n" "$result" $((took / 60)) $((took % 60)) "$status"
  [ "$status" -eq 0 ] || failed=1
done
exit "$failed"
