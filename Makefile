# The two commands a newcomer runs (see README.md): `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test specs clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "make: $(PYTHON) not found; run with PYTHON=/path/to/python3.11"; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

## run: install into .venv and replay every bundled trace against the reference (the conformance report)
run: $(STAMP)
	$(BIN)/refimpl replay traces/

## test: the full test suite (unit, property, Gherkin features, wrong builds)
test: $(STAMP)
	$(BIN)/python -m pytest

## specs: re-render the data tables inside specs/*.md from refimpl/games/data/
specs: $(STAMP)
	$(BIN)/python -m refimpl.tables

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
