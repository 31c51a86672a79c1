# Two commands on a fresh machine: `make project` (set up, then `spacy project run all`)
# and `make test` (mypy, then pytest). `make setup` only builds the environment in .venv.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.spacy-negation-installed
PYTEST_ARGS ?=

.PHONY: setup project typecheck test test-fast bench clean

setup: $(STAMP)

$(STAMP): setup.py setup.cfg requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# torch first, the exact CPU build: a loose requirement would pull CUDA packages.
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -r requirements.txt -e .
	touch $(STAMP)

project: setup
	$(VENV)/bin/spacy project run all

# mypy with mypy.ini: the package's type hints.
typecheck: setup
	$(PY) -m mypy

test: typecheck
	$(PY) -m pytest $(PYTEST_ARGS)

test-fast: setup
	$(PY) -m pytest -m "not slow" $(PYTEST_ARGS)

bench: setup
	$(PY) bench/bench_metrics.py
	$(PY) bench/bench_pipeline.py

clean:
	rm -rf $(VENV) build *.egg-info
