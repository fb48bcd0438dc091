# bazar: `make run` starts the club server, `make play` a terminal game against bots,
# `make test` runs every test.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin

.PHONY: run play test lint bench peers clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-cli: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[cli]'
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed-cli $(VENV)/.installed-server

$(VENV)/.installed-server: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[cli,server]'
	touch $@ $(VENV)/.installed-cli

run: $(VENV)/.installed-server
	$(BIN)/bazar serve

play: $(VENV)/.installed-cli
	$(BIN)/bazar play

test: $(VENV)/.installed-dev
	$(BIN)/python -m pytest

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check bazar tests benchmarks
	$(BIN)/ruff format --check bazar tests benchmarks
	$(BIN)/mypy

bench: $(VENV)/.installed-cli
	$(BIN)/bazar bench block

peers: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/peers.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
