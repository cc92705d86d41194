# The two commands a newcomer runs (see README.md): `make run` and `make test`.
PYTHON ?= python3.11
# The kit starts many Python processes (builds, scenario runs, mutants): let them keep their bytecode.
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Optional extras to install with the test tools; .ci/run adds "browser" (the HTML report's browser tests)
# and "cluster" (campaigns on a local Dask cluster).
EXTRAS ?= test

.PHONY: run test docs bench mutants fuzz-power misreadings blind examples specs goldens clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "make: $(PYTHON) not found; run with PYTHON=/path/to/python3.11"; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	@touch $(STAMP)

## run: install into .venv and verify the reference through the real protocol path (the conformance report)
run: $(STAMP)
	$(BIN)/refimpl verify --impl "$(BIN)/refimpl serve"

## test: the full test suite (unit, property, Gherkin features, wrong builds)
test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadgroup

## docs: the documentation site (docs/, mkdocs.yml) built strictly into site/: a broken link, a page left out of
## the nav or a missing anchor fails it
docs: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

## bench: protocol benchmarks, as ratios against an echo build measured in the same run (bench/run.py)
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench,cluster]'
	$(BIN)/python bench/run.py

## mutants: the power meter on the sample of 400 (seed 1) docs/power.md reports; resumes from mutants-out/
mutants: $(STAMP)
	$(BIN)/refimpl mutants --sample 400 --seed 1 --jobs 2 --out mutants-out

## fuzz-power: the same sample judged by default-settings fuzz: how many it finds, how fast, how short the reproducers
fuzz-power: $(STAMP)
	$(BIN)/refimpl mutants --judge fuzz --skip-equivalent --sample 400 --seed 1 --jobs 2 --out mutants-out

## misreadings: the misreading catalogue through the protocol: verify and default fuzz against every misreading
## (tests/misreadings/meter.py; resumes from misreadings-out/)
misreadings: $(STAMP)
	$(BIN)/python -m tests.misreadings.meter --jobs 2 --out misreadings-out

## examples: the example builds' full campaign: verify with --perft 3 and --twice, both ways of chance, and
## default fuzz of every game with seeds 1, 2 and 3 (make test runs a small fixed sample of it)
NODE_BUILD := node examples/node-build/main.js
examples: $(STAMP)
	$(BIN)/refimpl verify --impl "$(NODE_BUILD)" --perft 3 --twice
	NODE_BUILD_OWN_RANDOM=1 $(BIN)/refimpl verify --impl "$(NODE_BUILD)" --game ludo --game black-fog
	for pair in beacon-lines:v0 beacon-lines:v1 lantern-quay:v0 lantern-quay:v1 ludo:v1 conquest-king:v1 black-fog:v1; do \
	    for seed in 1 2 3; do \
	        $(BIN)/refimpl fuzz --impl "$(NODE_BUILD)" --game $${pair%:*} --ruleset $${pair#*:} --seed $$seed \
	            --quiet --out fuzz-out || exit $$?; \
	    done; \
	done

## goldens: rewrite the golden perft files beside the traces from the reference (review the diff)
goldens: $(STAMP)
	$(BIN)/python -c "from refimpl.harness.perft import write_goldens; print(*write_goldens(), sep='\n')"

## specs: re-render the data tables inside specs/*.md from refimpl/games/data/
specs: $(STAMP)
	$(BIN)/python -m refimpl.rulebook.tables

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info site

## blind: the blind misreadings (tests/blind/, written without seeing the kit's checks) judged by verify, by verify
## without its exploration and by default fuzz: the catch rate on mistakes nobody listed (docs/power.md)
blind: $(STAMP)
	$(BIN)/python -m tests.blind.meter --jobs 2 --out blind-out
