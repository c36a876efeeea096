# proflens: a Jupyter kernel for reading program profiles.
#   make demo      build, register the kernel, run notebooks/tour.ipynb into notebooks/tour.html
#   make notebook  open the classic Notebook on notebooks/
#   make test      every check: gofmt, go vet, go test, the protocol suites, the notebooks,
#                  the classic Notebook and JupyterLab's renderers in headless Chromium
#   make bench     start-up and round trip against ipykernel
#   make lab       JupyterLab's own renderers on every notebook, in headless Chromium

SHELL   := /bin/bash
GO      ?= go
PYTHON  ?= /usr/bin/python3
JUPYTER ?= /usr/bin/jupyter
BIN     := bin/proflens
BUILD   := .build
# A fresh kernelspec for the tests, found first through JUPYTER_PATH.
TESTPREFIX := $(abspath $(BUILD)/prefix)
TESTENV    := JUPYTER_PATH=$(TESTPREFIX)/share/jupyter PROFLENS_BIN=$(abspath $(BIN))

# Every package a fresh Debian machine needs, in one place (.ci/run installs
# CI_PKGS; make demo installs JUPYTER_PKGS when jupyter is missing).
JUPYTER_PKGS := jupyter-notebook jupyter-nbconvert jupyter-client python3-nbclient \
                python3-jupyter-kernel-test jupyter-console
CI_PKGS      := $(JUPYTER_PKGS) python3-ipykernel python3-zmq python3-jupyter-server chromium fonts-dejavu-core fonts-liberation make git ca-certificates
# npm packages for browser tests, pinned, installed into $(BUILD)/node by
# make npm-install (.ci/run runs it and exports NODE_PATH; make browser
# installs them when playwright-core is missing). playwright-core brings no
# browser: the tests use Debian's chromium. tests/lab bundles JupyterLab's
# services, rendermime, outputarea and lumino widgets with esbuild, and takes
# its themes' CSS from the two theme extensions.
NPM_PKGS     := playwright-core@1.65.1 esbuild@0.28.2 @jupyterlab/services@7.6.6 @jupyterlab/coreutils@6.6.6 \
                @jupyterlab/rendermime@4.6.6 @jupyterlab/outputarea@4.6.6 @lumino/widgets@2.10.0 \
                @jupyterlab/theme-light-extension@4.6.4 @jupyterlab/theme-dark-extension@4.6.4
NODE_MODULES := $(abspath $(BUILD)/node/node_modules)

.PHONY: build demo notebook test gotest conformance notebooks browser lab bench jupyter-check ci-packages npm-packages npm-install clean

build:
	$(GO) build -o $(BIN) ./cmd/proflens

# jupyter-check installs Debian's Jupyter when it is missing and we are root;
# otherwise it prints the one command that would.
jupyter-check:
	@if ! [ -x "$(JUPYTER)" ] && ! command -v jupyter >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(JUPYTER_PKGS); \
	  else \
	    echo "jupyter is missing; install it with:"; \
	    echo "  sudo apt-get install -y $(JUPYTER_PKGS)"; exit 1; \
	  fi; \
	fi

demo: build jupyter-check
	$(BIN) install
	$(JUPYTER) nbconvert --to html --execute --ExecutePreprocessor.kernel_name=proflens \
	  --output tour.html notebooks/tour.ipynb
	@echo "wrote notebooks/tour.html"

notebook: build jupyter-check
	$(BIN) install
	$(JUPYTER) notebook --notebook-dir=notebooks $$( [ "$$(id -u)" = 0 ] && echo --allow-root )

test: build
	@echo "== gofmt"; out=$$(gofmt -l $$(git ls-files '*.go') 2>&1); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	@echo "== go vet"; $(GO) vet ./...
	@$(MAKE) --no-print-directory -k gotest conformance notebooks browser lab

gotest:
	@echo "== go test"; $(GO) test ./...
	@echo "== go test -race (command layer and protocol layer)"; $(GO) test -race -count=1 ./kernel/...

# conformance installs a fresh kernelspec and runs Jupyter's own suite plus
# ours: protocol behaviour and protocol attacks (each kernel under a watchdog).
conformance: build
	@echo "== jupyter_kernel_test and protocol tests"
	rm -rf $(TESTPREFIX) && $(BIN) install --prefix $(TESTPREFIX)
	$(TESTENV) $(PYTHON) -m unittest -v tests/test_conformance.py tests/test_protocol.py tests/test_attack.py

# notebooks executes every notebooks/*.ipynb against the fresh kernelspec and
# fails on any error output or on a top table that go tool pprof does not
# confirm (tests/check_tables.py); then executes it again and fails unless
# every output is identical (a notebook re-run gives the same bytes).
notebooks: build
	@echo "== notebooks"
	rm -rf $(TESTPREFIX) && $(BIN) install --prefix $(TESTPREFIX)
	@mkdir -p $(BUILD)/nb $(BUILD)/nb2
	@shopt -s nullglob; n=0; for nb in notebooks/*.ipynb; do n=$$((n+1)); \
	  echo "-- $$nb"; \
	  $(TESTENV) $(JUPYTER) nbconvert --to notebook --execute --ExecutePreprocessor.kernel_name=proflens \
	    --ExecutePreprocessor.timeout=300 --output-dir $(BUILD)/nb "$$nb" || exit 1; \
	  $(PYTHON) tests/check_notebook.py "$(BUILD)/nb/$$(basename $$nb)" || exit 1; \
	  GO=$(GO) $(PYTHON) tests/check_tables.py "$(BUILD)/nb/$$(basename $$nb)" notebooks || exit 1; \
	  $(TESTENV) $(JUPYTER) nbconvert --to notebook --execute --ExecutePreprocessor.kernel_name=proflens \
	    --ExecutePreprocessor.timeout=300 --output-dir $(BUILD)/nb2 "$$nb" 2>/dev/null || exit 1; \
	  $(PYTHON) tests/same_outputs.py "$(BUILD)/nb/$$(basename $$nb)" "$(BUILD)/nb2/$$(basename $$nb)" || exit 1; \
	done; echo "$$n notebooks executed twice, outputs identical"

# browser opens the classic Notebook in headless Chromium and works through a
# new proflens notebook and the tour like a person (tests/browser/notebook.js);
# screenshots land in $(BUILD)/browser. Without node or chromium it prints
# SKIP, unless CI=true.
browser: build
	@echo "== browser (classic Notebook in headless Chromium)"
	@if ! command -v node >/dev/null; then \
	  if [ "$$CI" = true ]; then echo "FAIL browser: node is missing (CI=true)"; exit 1; fi; \
	  echo "SKIP browser: node is missing"; exit 0; \
	fi; \
	export NODE_PATH="$(NODE_MODULES)$${NODE_PATH:+:$$NODE_PATH}"; \
	if [ -x "$${CHROMIUM:-/usr/bin/chromium}" ] && ! node -e 'require("playwright-core")' 2>/dev/null; then \
	  echo "installing $(NPM_PKGS) into $(BUILD)/node"; \
	  npm install --prefix $(BUILD)/node --no-audit --no-fund $(NPM_PKGS) </dev/null || exit 1; \
	fi; \
	PROFLENS_BIN=$(abspath $(BIN)) JUPYTER=$(JUPYTER) node tests/browser/notebook.js

# lab serves the kernel through Debian's jupyter-server and drives it from a
# page built with JupyterLab's own npm packages in headless Chromium
# (tests/lab/lab.js): every notebook run, its outputs rendered trusted and,
# from the saved file, untrusted, in Lab's light and dark themes; then
# nbconvert and the classic Notebook on the saved notebooks. Screenshots,
# saved notebooks and HTML land in $(BUILD)/lab.
lab: build npm-install
	@echo "== lab (JupyterLab's renderers in headless Chromium)"
	PROFLENS_BIN=$(abspath $(BIN)) JUPYTER=$(JUPYTER) PYTHON=$(PYTHON) NODE_MODULES=$(NODE_MODULES) node tests/lab/lab.js

# npm-install installs $(NPM_PKGS) into $(BUILD)/node unless that exact list
# is already there.
npm-install:
	@command -v npm >/dev/null || { echo "npm is missing (the machine's Node.js brings it)"; exit 1; }
	@if [ "$$(cat $(BUILD)/node/.packages 2>/dev/null)" != "$(NPM_PKGS)" ]; then \
	  echo "installing $(NPM_PKGS) into $(BUILD)/node"; \
	  mkdir -p $(BUILD)/node && \
	  npm install --prefix $(BUILD)/node --save-exact --no-audit --no-fund $(NPM_PKGS) </dev/null && \
	  echo "$(NPM_PKGS)" > $(BUILD)/node/.packages; \
	fi

bench: build
	rm -rf $(TESTPREFIX) && $(BIN) install --prefix $(TESTPREFIX)
	$(TESTENV) $(PYTHON) tests/bench_startup.py --starts 10 --trips 200

# For .ci/run: the package lists.
ci-packages:
	@echo $(CI_PKGS)
npm-packages:
	@echo $(NPM_PKGS)

clean:
	rm -rf bin $(BUILD) notebooks/tour.html

# readme-picture redraws the README's picture with the current kernel.
readme-picture: build
	$(BIN) run -c 'load plotting/testdata/conprof.pb.gz as conprof' -c 'level 2' -c 'show' -c 'export conprof docs/radial.svg' >/dev/null
