# bazar: `make run` starts the club server on http://127.0.0.1:8000/ (`make run PORT=8080
# HOST=0.0.0.0` elsewhere), `make play` a terminal game against bots, `make test` runs every
# test (the browser tests need Chromium: apt-get install chromium), `make messages` brings
# the catalogues up to date with the code, `make screenshots` photographs the club's pages
# into docs/screens/.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
LOCALE  = bazar/i18n/locale
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run play test lint bench peers messages screenshots clean

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
	$(BIN)/bazar serve --host $(HOST) --port $(PORT)

play: $(VENV)/.installed-cli
	$(BIN)/bazar play

test: $(VENV)/.installed-dev
	$(BIN)/python -m pytest

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check bazar tests benchmarks tools examples
	$(BIN)/ruff format --check bazar tests benchmarks tools examples
	$(BIN)/mypy

bench: $(VENV)/.installed-cli
	$(BIN)/bazar bench block

peers: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/peers.py

# the keys the code says (babel.cfg) into the template, new ones into each language's
# catalogue (to translate: an empty msgstr), then the compiled .mo the package reads
messages: $(VENV)/.installed-dev
	$(BIN)/pybabel extract -F babel.cfg --omit-header --no-location -o $(LOCALE)/bazar.pot .
	$(BIN)/pybabel update -i $(LOCALE)/bazar.pot -d $(LOCALE) -D bazar -w 100 --no-fuzzy-matching
	$(BIN)/pybabel compile -d $(LOCALE) -D bazar

# every family's table at mid-round and at a round's end and the club's other pages, in both
# languages, at 1280x800 and 360x740 (Playwright on /usr/bin/chromium), with an index
screenshots: $(VENV)/.installed-dev
	$(BIN)/python tools/screenshots.py --out docs/screens

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
