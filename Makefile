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

.PHONY: run play test build lint bench peers messages screenshots clean

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

run: $(VENV)/.compiled
	$(BIN)/bazar serve --host $(HOST) --port $(PORT)

play: $(VENV)/.installed-cli
	$(BIN)/bazar play

# the hot path (bazar/hotpath.py) compiled again where its sources changed since the install
HOT = $(shell sed -n 's/^ *"\(bazar\.[a-z_.]*\)",$$/\1/p' bazar/hotpath.py | tr . / | sed 's/$$/.py/')

# (the install compiles it: this compiles again only where it is not compiled and current,
# with the build's own tools)
$(VENV)/.compiled: $(VENV)/.installed-server setup.py $(HOT)
	$(BIN)/python -c "import sys, bazar.hotpath as h; sys.exit(h.compiled() != h.MODULES)" \
	  2>/dev/null || { $(BIN)/python -m pip install --quiet 'mypy>=1.18' 'setuptools>=77' \
	  && $(BIN)/python setup.py -q build_ext --inplace; }
	touch $@

build: $(VENV)/.compiled

# the tests of the engine, the bots and the research environments: run a second time on the
# pure Python of the hot path (BAZAR_PURE=1), the fallback where nothing could be compiled
PURE_TESTS = tests bazar/core bazar/games bazar/bots $(foreach t,web_ server cli_serve cli_db \
	cli_tables cli_tournament tournament_play benchmark_load setup messages arena_ray,\
	--ignore-glob='tests/test_$(t)*')

test: $(VENV)/.installed-dev $(VENV)/.compiled
	$(BIN)/python -m pytest
	BAZAR_PURE=1 $(BIN)/python -m pytest $(PURE_TESTS)

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
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
	rm -f *.so; find bazar -name '*.so' -delete
