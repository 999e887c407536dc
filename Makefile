# Two commands on a fresh clone: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
QUICKSTART := suites/quickstart

.PHONY: setup demo demo-vendorsync demo-quickstart docs-vendorsync test lint bench bench-vspro clean

CHROMIUM := /usr/lib/chromium/chromium

# Debian's Chromium for the browser probe and bubblewrap for the sandbox, installed only
# when missing (CI runs as root on a clean machine); Playwright drives Chromium and never
# downloads a browser of its own.
setup: $(STAMP)
	@test -x $(CHROMIUM) && command -v bwrap >/dev/null || { \
		echo "setup: installing Debian's chromium and bubblewrap (log: $(VENV)/apt.log)"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			chromium bubblewrap; } >$(VENV)/apt.log 2>&1 || echo "setup: apt-get install failed" \
			"(root needed); browser tests and sandboxed runs will say so; see $(VENV)/apt.log"; }

$(STAMP): pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "setup: installing benchwright and its Python packages into $(VENV)" \
		"(a few minutes on a fresh machine; pip's log: $(VENV)/pip.log)"
	@$(BIN)/python -m pip install --disable-pip-version-check --progress-bar off \
		-e '.[test,http,services,browser,board,ray,model]' >$(VENV)/pip.log 2>&1 \
		|| { tail -n 20 $(VENV)/pip.log; echo "setup: pip install failed (log: $(VENV)/pip.log)"; exit 1; }
	@echo "setup: Python packages installed"
	touch $(STAMP)

# The flagship job: grade the golden vspro reference end to end. Nothing is started by
# hand: the grader boots the app on a fresh database and port beside a fresh Meridian
# mock (traps, stall, webhook script), then prints the scorecard (tiers, multipliers,
# attribution, flags, phase timings) and writes the JSON with its evidence next to it.
# --reference runs the freeze gate: on pass it writes suites/vspro/reference/
# sb6-reference-pass.json (git-ignored; not part of the tree's digest).
VSPRO_CARD := reports/vspro.json
demo: setup
	$(BIN)/benchwright grade suites/vspro --tree suites/vspro/reference --reference \
		--json $(VSPRO_CARD)
	@echo "demo: scorecard JSON $(VSPRO_CARD); evidence beside it:" \
		"$(basename $(VSPRO_CARD)).app.log, $(basename $(VSPRO_CARD)).vendor-trace.jsonl," \
		"$(basename $(VSPRO_CARD)).browser/ (screenshots, when the browser ran)"

# The sb-5.2 golden: grade the vendorsync reference end to end, as `demo` grades vspro's
# (a fresh Meridian v1 mock, a fresh database and port, the browser when Chromium is there).
# --reference runs the freeze gate, with the golden's scripted build phase (it reads the
# vendor docs, so vendor_read_docs is graded); on pass it writes
# suites/vendorsync/reference/sb5.2-reference-pass.json (git-ignored).
VENDORSYNC_CARD := reports/vendorsync.json
demo-vendorsync: setup
	$(BIN)/benchwright grade suites/vendorsync --tree suites/vendorsync/reference \
		--json $(VENDORSYNC_CARD) --reference
	@echo "demo-vendorsync: scorecard JSON $(VENDORSYNC_CARD); evidence beside it"

# docs/vendorsync.md's "Checks" chapter, rendered from scorers/sb52.yaml and
# suites/vendorsync/checks.yaml (tests/suites/vendorsync/test_docs_page.py holds it to them).
docs-vendorsync: setup
	$(BIN)/python -m benchwright.suites.vendorsync.docs_page --write docs/vendorsync.md

# docs/sb7.md's "Checks" chapter, rendered from scorers/sb7.yaml and suites/sb7/checks.yaml
# (tests/suites/sb7/test_sb7_registry_docs_page.py holds it to them).
.PHONY: docs-sb7
docs-sb7: setup
	$(BIN)/python -m benchwright.suites.sb7.docs_page --write docs/sb7.md

# The quickstart gate: validate the quickstart suite, gate the honest trajectories
# (must pass), then gate each cheating set (every task must be caught: exit 1).
# One line per task and trajectory set (gate --brief); tests/test_demo_quickstart.py runs
# these lines and holds them to 40.
demo-quickstart: setup
	@$(BIN)/benchwright validate $(QUICKSTART)
	@echo "== honest: every task must PASS"
	@$(BIN)/benchwright gate --brief --tasks $(QUICKSTART)/tasks \
		--trajectory $(QUICKSTART)/trajectories/honest
	@for cheat in $(QUICKSTART)/trajectories/cheat-*; do \
		echo "== $$(basename $$cheat): every task must FAIL"; \
		$(BIN)/benchwright gate --brief --tasks $(QUICKSTART)/tasks --trajectory $$cheat; \
		rc=$$?; if [ $$rc -ne 1 ]; then echo "expected exit 1, got $$rc"; exit 1; fi; \
	done
	@echo "demo-quickstart: honest work passed, every cheat was caught"

# TEST_WORKERS pytest-xdist processes (tests/worker_groups.py: tests sharing a module or a
# session fixture run together, the longest groups first). Timed work -- a test marked
# `alone`, a golden's grading -- has the host to itself while the other workers wait
# (tests/host_lease.py): another worker's CPU would turn its timed rows UNAVAILABLE.
# PYTEST_ARGS go to pytest as they are: `make test PYTEST_ARGS=--timeline` records every
# report in pytest-timeline.jsonl for benchmarks/lease_replay.py (tests/run_timeline.py).
TEST_WORKERS ?= 3
PYTEST_ARGS ?=
test: setup
	$(BIN)/ruff check .
	$(BIN)/pytest -n $(TEST_WORKERS) --durations=25 $(PYTEST_ARGS)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Figures, printed, never asserted. bench-vspro grades the golden app 5 times (~4 min), then
# 5 times alone and 6 times three at a time for the sd of its score (~7 min).
bench: setup
	$(BIN)/python benchmarks/gate_throughput.py
	$(BIN)/python benchmarks/trial_overhead.py
	$(BIN)/python benchmarks/sandbox_overhead.py
	$(BIN)/python benchmarks/meridian_walk.py
	$(BIN)/python benchmarks/relay_latency.py
	$(BIN)/python benchmarks/probe_clients.py

bench-vspro: setup
	$(BIN)/python benchmarks/grade_vspro.py
	$(BIN)/python benchmarks/grade_under_load.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build src/*.egg-info
