# Ocho Loco: `make run` plays, `make test` checks. Both set everything up on a fresh machine.
.PHONY: run test venv bench lock

VENV ?= .venv
PY := $(VENV)/bin/python

run:
	bash scripts/run.sh

test:
	bash scripts/test.sh

bench:
	bash scripts/setup.sh bench && $(PY) bench/engine_speed.py

# After editing requirements*.txt: recompiles requirements*.lock (uv, from the dev lock).
lock:
	bash scripts/lock.sh
