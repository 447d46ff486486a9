# Two commands do all set-up on a fresh Linux machine with Python 3.11+:
#   make run    set up and launch the app
#   make test   set up and run the whole test suite (what CI runs)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run test selftest setup system-deps bench bench-full package release startup clean

# setup.py builds the optional native Othello solver, pattern EVAL and compiled search (games/othello/_solver.c,
# _fast.c, _search.c), the checkers hot paths (games/checkers/_fast.c) and the compiled chess search
# (games/chess_game/_search.c) in place;
# without a C compiler the install still succeeds and the pure-Python code is used. Every C source and header is
# listed: a change to any of them rebuilds.
NATIVE_SOURCES := games/_native_search.h games/othello/_bitboard.h games/othello/_solver.c games/othello/_fast.c \
	games/othello/_fast.h games/othello/_search.c \
	games/checkers/_fast.h games/checkers/_fast.c games/checkers/_search.c games/chess_game/_search.c
$(STAMP): pyproject.toml setup.py $(NATIVE_SOURCES)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

setup: $(STAMP)

system-deps:
	bash .ci/qt-system-libs

# On a desktop (DISPLAY set) the app runs on X11, which needs the xcb libraries (installed
# when missing). With no display at all the app says so in one line and how to run offscreen.
run: setup system-deps
	@if [ -n "$${DISPLAY:-}" ]; then bash .ci/qt-system-libs --xcb; fi
	$(BIN)/plyground

# pytest exits 5 when it collected no tests: that is a broken suite, not a pass.
# PLYGROUND_EXPECT_NATIVE=1: setup built the C extensions, so the C/Python parity tests fail
# (never skip) if one is missing (tests/native_extensions.py).
test: setup system-deps
	PLYGROUND_EXPECT_NATIVE=1 QT_QPA_PLATFORM=offscreen timeout 1200 $(BIN)/python -m pytest -q; \
	status=$$?; if [ $$status -eq 5 ]; then echo "no tests were collected" >&2; exit 1; fi; exit $$status

# The app checks itself end to end (every game against the engine through the GUI's own
# session, bridge and worker pool): once offscreen, once on a real X server (Xvfb, xcb).
SELFTEST := $(BIN)/plyground --self-test --timeout 240
selftest: setup system-deps
	QT_QPA_PLATFORM=offscreen timeout 300 $(SELFTEST)
	bash .ci/qt-system-libs --xvfb
	QT_QPA_PLATFORM=xcb timeout 300 xvfb-run -a -s "-screen 0 1280x1024x24" $(SELFTEST)

# Quick numbers (a few minutes): move generators, search speed, node counts, stop latency, FFO #1-#19.
bench: setup
	$(BIN)/plyground bench
	$(BIN)/plyground bench --game chess --algorithm native --depth 14
	$(BIN)/python -m bench.perft_speed
	$(BIN)/python -m bench.node_counts
	$(BIN)/python -m bench.engine_speed
	$(BIN)/python -m bench.stop_latency
	$(BIN)/python -m bench.othello_ffo
	$(BIN)/python -m bench.backgammon_eval --games 400

# Strength against peers (about 25 minutes): WAC 300 at 1 s and Bratko-Kopec at 10 s.
bench-full: bench
	$(BIN)/python -m bench.chess_tactics --suite wac --seconds 1
	$(BIN)/python -m bench.chess_tactics --suite bk --seconds 10

# The standalone executable in dist/plyground/ (PyInstaller one-dir; ONEFILE=1: one file in
# dist/onefile/), checked: self-test with worker processes, bundled font, CLI, licences, size.
package: setup
	bash packaging/build.sh $(if $(filter 1,$(ONEFILE)),--onefile)

# package + dist/plyground-<version>-linux-<arch>.tar.gz and the source archive beside it.
release: setup
	bash packaging/build.sh --release

# Launch to first painted window, median of 5 warm runs (from source, and the build if made).
startup: setup
	$(BIN)/python -m bench.startup

clean:
	rm -rf $(VENV) build dist *.egg-info
