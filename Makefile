# Inference Atlas: everything a user or CI runs goes through these targets.
# Only python3 (>= 3.11) and make are needed: the first target that needs the
# environment creates .venv from requirements-lock.txt (exact versions).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
ARTIFACTS ?= $(CURDIR)/artifacts
export DAGSTER_HOME := $(CURDIR)/.dagster_home
# The CLI's own notices that `dg` commands supersede these (our commands are the documented ones).
export PYTHONWARNINGS := ignore:Function `asset_materialize_command` is superseded,ignore:Function `dev_command` is superseded

.PHONY: leaderboard test lint typecheck dev bench lock clean

leaderboard: $(VENV)/.installed $(DAGSTER_HOME)/dagster.yaml ## materialize the leaderboard on the embedded defaults (RUN_CONFIG=extra.yaml merges more run config)
	DAGSTER_MODULE_NAME=atlas_assets $(BIN)/dagster asset materialize --select leaderboard -c deploy/leaderboard.run.yaml $(addprefix -c ,$(RUN_CONFIG))
	@echo "leaderboard.json written to $${ATLAS_ARTIFACTS:-$(ARTIFACTS)}/leaderboard.json"

test: lint typecheck ## the linters, then the whole test suite
	$(BIN)/python -m pytest -n 2 -q

lint: $(VENV)/.installed ## ruff: lint + import order, and the formatting check ([tool.ruff] in pyproject.toml)
	$(BIN)/python -m ruff check .
	$(BIN)/python -m ruff format --check .

typecheck: $(VENV)/.installed ## mypy with the [tool.mypy] config of pyproject.toml (strict on the domain packages and autobench)
	$(BIN)/python -m mypy

dev: $(VENV)/.installed $(DAGSTER_HOME)/dagster.yaml ## the Dagster UI on http://127.0.0.1:3000
	$(BIN)/python -m atlas_assets.orchestration.record_inputs
	cd $(DAGSTER_HOME) && $(CURDIR)/$(BIN)/dagster dev -w $(CURDIR)/workspace.yaml -h 127.0.0.1 -p 3000

bench: $(VENV)/.installed ## leaderboard benchmark (100k, 1M, 5M votes) against arena-rank
	$(BIN)/python bench/leaderboard_bench.py

$(VENV)/.installed: requirements-lock.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-lock.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

# A link, not a copy: the instance always reads the checked-in dagster.yaml. `make dev` runs
# from $(DAGSTER_HOME) so Dagster does not warn that ./dagster.yaml "will not be used".
$(DAGSTER_HOME)/dagster.yaml: dagster.yaml
	mkdir -p $(DAGSTER_HOME)
	ln -sf ../dagster.yaml $@

lock: ## re-resolve requirements-lock.txt from pyproject.toml in a fresh venv
	rm -rf .venv-lock
	$(PYTHON) -m venv .venv-lock
	.venv-lock/bin/python -m pip install --quiet -e '.[test,dev]'
	{ sed -n '1,3p' requirements-lock.txt; .venv-lock/bin/python -m pip freeze --exclude-editable; } > requirements-lock.txt.new
	mv requirements-lock.txt.new requirements-lock.txt
	rm -rf .venv-lock

clean:
	rm -rf $(VENV) $(DAGSTER_HOME) artifacts
