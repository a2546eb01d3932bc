# Ocho Loco: `make run` plays, `make test` checks. Both set everything up on a fresh machine.
.PHONY: run test test-fast venv bench lock deploy

VENV ?= .venv
PY := $(VENV)/bin/python

run:
	bash scripts/run.sh

test:
	bash scripts/test.sh

# The engine and the robots alone: no Django, no browser (about 20 s).
test-fast:
	bash scripts/setup.sh dev && $(PY) -m pytest -p no:django -W ignore::pytest.PytestConfigWarning -n auto tests/engine tests/bots

bench:
	bash scripts/setup.sh bench && $(PY) bench/engine_speed.py

# After editing requirements*.txt: recompiles requirements*.lock (uv, from the dev lock).
lock:
	bash scripts/lock.sh

# The rolling deploy of this checkout onto the processes scripts/production.sh started.
deploy:
	bash scripts/deploy.sh
