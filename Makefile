# The two commands of the README. Each one does all the set-up it needs, idempotently.
VENV := .venv
PYTHON := $(VENV)/bin/python

.PHONY: demo test setup setup-system setup-venv lint bench

demo: setup
	$(VENV)/bin/pcagent models install qwen2.5-coder-1.5b
	$(VENV)/bin/pcagent models install all-minilm-l6-v2
	$(VENV)/bin/pcagent demo

test: setup
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks
	$(VENV)/bin/pcagent models install smollm2-135m
	$(VENV)/bin/pcagent models install all-minilm-l6-v2
	$(PYTHON) -m pytest

setup: setup-system setup-venv

setup-system:
	bash scripts/install-system.sh

setup-venv:
	bash scripts/install-venv.sh

lint: setup-venv
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks

bench: setup
	$(PYTHON) benchmarks/observe.py --json
	$(PYTHON) benchmarks/perception.py --json
	$(PYTHON) benchmarks/input.py --json
