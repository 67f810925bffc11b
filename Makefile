# Scratch Bench Studio: `make run` starts the studio, `make test` runs the whole suite.
# Both first set up whatever is missing: system packages (as root), the venv, the Scratch GUI bundle.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
CONSTRAINTS := constraints.txt
UV_PIN := uv==0.13.9
# Compiled modules are kept. This machine's environment sets PYTHONDONTWRITEBYTECODE, so every
# Python process (each test worker, each `studio` subprocess, each Ray worker) compiled every
# module it imported from source again: collecting the tests took 17 s of CPU instead of 5.
# The cache is one folder of the checkout (.pycache/), not __pycache__ beside the sources.
export PYTHONDONTWRITEBYTECODE :=
export PYTHONPYCACHEPREFIX := $(CURDIR)/.pycache
GUI_VERSION := 15.1.1
GUI_DIR := resources/scratch-gui
GUI_STAMP := $(GUI_DIR)/.version-$(GUI_VERSION)
# The classic edition: the scratch-gui 5.x line the published ScratchWorld benchmark was built on
# (its playground page), with the React 16 UMD builds it takes from page globals.
CLASSIC_VERSION := 5.1.89
REACT_VERSION := 16.14.0
CLASSIC_DIR := resources/scratch-gui-classic
CLASSIC_STAMP := $(CLASSIC_DIR)/.version-$(CLASSIC_VERSION)-react-$(REACT_VERSION)
# The scratchblocks parser and renderer (block text <-> blocks; studio.services.core.blocktext).
SCRATCHBLOCKS_VERSION := 3.7.1
SCRATCHBLOCKS_DIR := resources/scratchblocks
SCRATCHBLOCKS_STAMP := $(SCRATCHBLOCKS_DIR)/.version-$(SCRATCHBLOCKS_VERSION)
TASKS ?= tasks
SYSTEM_PACKAGES := chromium xvfb xauth fonts-dejavu-core fonts-liberation libxcb-cursor0 libxcb-icccm4 \
	libxcb-keysyms1 libxcb-xinerama0 libxkbcommon-x11-0 libegl1 libgl1 libnss3 libasound2

.PHONY: run test lint setup system venv constraints bundle bundle-classic bundle-scratchblocks bench clean

run: setup
	@if [ -n "$$DISPLAY" ] || [ "$$QT_QPA_PLATFORM" = offscreen ]; then \
		$(PY) -m studio --library $(TASKS); \
	else \
		echo "No DISPLAY: starting the studio on a virtual X screen (xvfb-run)."; \
		xvfb-run -a -s "-screen 0 1600x1000x24" $(PY) -m studio --library $(TASKS); \
	fi

# Tests that hold a QApplication run in a process of their own: Qt objects left by a window
# must not meet the event processing pytest-qt does around every later test.
GUI_TESTS := tests/unit/views tests/e2e/test_gui_window.py tests/e2e/test_gui_authoring.py \
	tests/e2e/test_gui_live.py tests/e2e/test_gui_human.py tests/e2e/test_gui_labeling.py \
	tests/e2e/test_gui_classic.py tests/e2e/test_gui_campaign.py tests/e2e/test_gui_live_feedback.py \
	tests/e2e/test_gui_forge.py tests/e2e/test_gui_text_pane.py tests/e2e/test_paint_strokes.py

# The two halves run side by side: the window half waits on its window's page most of the time
# (about 100 s of CPU over 200 s alone), so it fills what the window-free half's two workers
# leave idle instead of adding its whole time after them. Its report follows the other's.
GUI_LOG := .pytest-window-half.log

test: setup
	@$(PY) -m pytest -q -p no:cacheprovider --durations=5 $(GUI_TESTS) > $(GUI_LOG) 2>&1 & gui=$$!; \
	$(PY) -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder --durations=15 \
		$(addprefix --ignore=,$(GUI_TESTS)); free=$$?; \
	wait $$gui; window=$$?; \
	echo "---- the window half (ran alongside, exit $$window):"; cat $(GUI_LOG); \
	test $$free -eq 0 -a $$window -eq 0

lint: venv
	$(VENV)/bin/ruff check studio tests bench tools
	$(VENV)/bin/ruff format --check studio tests bench tools
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

bench: setup
	$(PY) bench/bench_eval.py

setup: system venv bundle bundle-classic bundle-scratchblocks

system:
	@missing=""; \
	for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "Installing system packages:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
		else \
			echo "Missing system packages:$$missing"; \
			echo "Install them with: sudo apt-get install -y$$missing"; exit 1; \
		fi; \
	fi

venv: $(VENV)/.installed

# The venv holds exactly the versions constraints.txt pins (indirect dependencies included). It is
# made again from scratch when pyproject.toml or constraints.txt changes: installing over an old
# venv would keep what an earlier pin brought (such as a second OpenCV build beside ours).
# uv installs them (pip's resolver and unpacking took 50 s of a fresh clone's set-up, uv 9 s).
$(VENV)/.installed: pyproject.toml $(CONSTRAINTS)
	$(PYTHON) -m venv --clear $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check $(UV_PIN)
	$(VENV)/bin/uv pip install -q --python $(PY) -c $(CONSTRAINTS) -e '.[dev]'
	@touch $@

# After changing a dependency in pyproject.toml: install it and the rest, unconstrained, into a
# throw-away venv and pin what that gave (review the diff; `make test` then uses it).
constraints:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(PYTHON) -m venv "$$tmp/venv" && \
	"$$tmp/venv/bin/pip" install -q --disable-pip-version-check '.[dev]' && \
	{ echo "# Every package the studio's venv holds, pinned: make's venv step installs with -c $(CONSTRAINTS)."; \
	  echo "# Made by \`make constraints\` (pip freeze of a fresh venv with '.[dev]'; Python 3.11, Linux x86-64)."; \
	  "$$tmp/venv/bin/pip" freeze --exclude scratch-bench-studio; } > $(CONSTRAINTS)
	@echo "Wrote $(CONSTRAINTS); review it with git diff."

bundle: $(GUI_STAMP)

$(GUI_STAMP):
	@echo "Fetching @scratch/scratch-gui-standalone@$(GUI_VERSION) (about 150 MB) into $(GUI_DIR)"
	@rm -rf $(GUI_DIR) && mkdir -p $(GUI_DIR)/.pack
	cd $(GUI_DIR)/.pack && npm pack --silent @scratch/scratch-gui-standalone@$(GUI_VERSION) >/dev/null
	tar -xzf $(GUI_DIR)/.pack/*.tgz -C $(GUI_DIR)/.pack
	mv $(GUI_DIR)/.pack/package/dist $(GUI_DIR)/dist
	rm -rf $(GUI_DIR)/.pack $(GUI_DIR)/dist/*.map $(GUI_DIR)/dist/chunks/*.map
	@touch $@

bundle-classic: $(CLASSIC_STAMP)

$(CLASSIC_STAMP):
	@echo "Fetching scratch-gui@$(CLASSIC_VERSION) (about 70 MB) and React $(REACT_VERSION) into $(CLASSIC_DIR)"
	@rm -rf $(CLASSIC_DIR) && mkdir -p $(CLASSIC_DIR)/.pack
	cd $(CLASSIC_DIR)/.pack && npm pack --silent scratch-gui@$(CLASSIC_VERSION) react@$(REACT_VERSION) \
		react-dom@$(REACT_VERSION) >/dev/null
	cd $(CLASSIC_DIR)/.pack && for p in scratch-gui-$(CLASSIC_VERSION) react-$(REACT_VERSION) \
		react-dom-$(REACT_VERSION); do mkdir -p $$p && tar -xzf $$p.tgz -C $$p || exit 1; done
	mv $(CLASSIC_DIR)/.pack/scratch-gui-$(CLASSIC_VERSION)/package/dist $(CLASSIC_DIR)/dist
	mv $(CLASSIC_DIR)/.pack/react-$(REACT_VERSION)/package/umd/react.production.min.js $(CLASSIC_DIR)/dist/
	mv $(CLASSIC_DIR)/.pack/react-dom-$(REACT_VERSION)/package/umd/react-dom.production.min.js $(CLASSIC_DIR)/dist/
	rm -rf $(CLASSIC_DIR)/.pack $(CLASSIC_DIR)/dist/*.map $(CLASSIC_DIR)/dist/chunks/*.map
	@touch $@

bundle-scratchblocks: $(SCRATCHBLOCKS_STAMP)

$(SCRATCHBLOCKS_STAMP):
	@echo "Fetching scratchblocks@$(SCRATCHBLOCKS_VERSION) (about 1 MB) into $(SCRATCHBLOCKS_DIR)"
	@rm -rf $(SCRATCHBLOCKS_DIR) && mkdir -p $(SCRATCHBLOCKS_DIR)/.pack
	cd $(SCRATCHBLOCKS_DIR)/.pack && npm pack --silent scratchblocks@$(SCRATCHBLOCKS_VERSION) >/dev/null
	tar -xzf $(SCRATCHBLOCKS_DIR)/.pack/*.tgz -C $(SCRATCHBLOCKS_DIR)/.pack
	mv $(SCRATCHBLOCKS_DIR)/.pack/package/* $(SCRATCHBLOCKS_DIR)/
	rm -rf $(SCRATCHBLOCKS_DIR)/.pack $(SCRATCHBLOCKS_DIR)/build/*.map
	@touch $@

clean:
	rm -rf $(VENV) $(GUI_DIR) $(CLASSIC_DIR) $(SCRATCHBLOCKS_DIR) .pycache .pytest_cache .mypy_cache .ruff_cache
