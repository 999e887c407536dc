# Two commands on a fresh clone: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
QUICKSTART := suites/quickstart

.PHONY: setup demo test lint bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,http,services]'
	touch $(STAMP)

# The flagship job: validate the quickstart suite, gate the honest trajectories
# (must pass), then gate each cheating set (every task must be caught: exit 1).
demo: setup
	$(BIN)/benchwright validate $(QUICKSTART)
	$(BIN)/benchwright gate --tasks $(QUICKSTART)/tasks --trajectory $(QUICKSTART)/trajectories/honest
	@for cheat in $(QUICKSTART)/trajectories/cheat-*; do \
		echo "== $$cheat: every task must FAIL"; \
		$(BIN)/benchwright gate --tasks $(QUICKSTART)/tasks --trajectory $$cheat; \
		rc=$$?; if [ $$rc -ne 1 ]; then echo "expected exit 1, got $$rc"; exit 1; fi; \
	done
	@echo "demo: honest work passed, every cheat was caught"

test: setup
	$(BIN)/ruff check .
	$(BIN)/pytest

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: setup
	$(BIN)/python benchmarks/gate_throughput.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build src/*.egg-info
