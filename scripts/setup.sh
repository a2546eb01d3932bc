#!/usr/bin/env bash
# Creates the virtual environment and installs the locked packages.
#   scripts/setup.sh         runtime packages: requirements.lock
#   scripts/setup.sh dev     + test tools: requirements-dev.lock (and Debian's Chromium for the
#                            browser tests)
#   scripts/setup.sh bench   + the benchmark's reference (OpenSpiel): requirements-bench.lock
# A lock (scripts/lock.sh, `make lock`, from requirements*.txt) pins the whole tree of its kind
# with the sha256 of each file: pip installs exactly its lines, checks every file's hash and
# resolves nothing. The venv's pip is the one `python3 -m venv` put there, left as it is.
# Every kind also installs the npm packages of package-lock.json (the card artwork's source,
# svg-cards, and svgo) into node_modules/: scripts/card_art.py derives static/cards/ from them;
# and the Nu HTML Checker (vnu-jar: its vnu.jar, run by Debian's Java in
# tests/tables/test_valid_html.py). No package's install script runs (--ignore-scripts): vnu-jar's
# would download a Java runtime of its own where none is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:-run}"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
case "$kind" in
  run) lock=requirements.lock ;;
  dev) lock=requirements-dev.lock ;;
  bench) lock=requirements-bench.lock ;;
  *) echo "unknown setup kind: $kind" >&2; exit 2 ;;
esac
stamp=".venv/.installed-$kind-$(cat requirements*.lock | sha1sum | cut -c1-12)"
if [ ! -f "$stamp" ]; then
  install=(.venv/bin/python -m pip install --quiet --disable-pip-version-check
    --require-hashes --no-deps --only-binary :all:)
  # Every package is installed from a wheel but http-ece (pywebpush's), published as a source
  # archive only. It is built without an isolated build environment (which pip would fill with
  # an unpinned setuptools) by the lock's own setuptools, installed first.
  sed -n '/^setuptools==/,/[^\\]$/p' "$lock" >.venv/build-tools.lock
  grep -q '^setuptools==' .venv/build-tools.lock || { echo "$lock pins no setuptools" >&2; exit 1; }
  "${install[@]}" -r .venv/build-tools.lock
  "${install[@]}" --no-binary http-ece --no-build-isolation -r "$lock"
  touch "$stamp"
fi
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
if ! command -v npm >/dev/null; then
  echo "Installing Debian's npm for the card artwork's packages..."
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm >/dev/null
fi
# The invitation preview's picture (tables/invitation/picture.py) is drawn in Debian's DejaVu fonts.
if [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ]; then
  echo "Installing Debian's DejaVu fonts for the invitation's preview picture..."
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq fonts-dejavu-core >/dev/null
fi
npm_stamp="node_modules/.installed-$(sha1sum package-lock.json | cut -c1-12)"
if [ ! -f "$npm_stamp" ]; then
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  touch "$npm_stamp"
fi
if [ "$kind" = dev ] && [ ! -x /usr/bin/chromium ]; then
  echo "Installing Debian's chromium for the browser tests..."
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
if [ "$kind" = dev ] && ! command -v java >/dev/null; then
  echo "Installing Debian's Java runtime for the HTML checker (vnu.jar)..."
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq default-jre-headless >/dev/null
fi
# The catalogs (locale/*/LC_MESSAGES/*.po; README, "Adding a language") are compiled here, not
# committed: GNU gettext's msgfmt, from Debian if it is missing.
if ! command -v msgfmt >/dev/null; then
  echo "Installing Debian's gettext to compile the catalogs..."
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq gettext >/dev/null
fi
.venv/bin/python manage.py compilemessages --ignore=.venv --ignore=node_modules -v0
