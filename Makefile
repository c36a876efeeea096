# proflens: a Jupyter kernel for reading program profiles.
#   make demo      build, register the kernel, run notebooks/tour.ipynb into notebooks/tour.html
#   make notebook  open the classic Notebook on notebooks/
#   make test      every check: gofmt, go vet, go test, the protocol suites, the notebooks,
#                  the classic Notebook and JupyterLab's renderers in headless Chromium, the
#                  store tests against a real Pyroscope; it first installs what it needs
#                  (test-deps)
#   make bench     start-up and round trip against ipykernel
#   make lab       JupyterLab's own renderers on every notebook, in headless Chromium
#   make test-stores  the store tests against a real Pyroscope (PARCA=1: and Parca), built into .build/
#   make store-pyroscope | store-parca  a local store holding the fleet's profiles, to try load pyroscope://
#   make mutation [PKG="./phase ./compaction"]  mutation testing (gremlins) of the packages named

SHELL   := /bin/bash
GO      ?= go
PYTHON  ?= /usr/bin/python3
JUPYTER ?= /usr/bin/jupyter
BIN     := bin/proflens
BUILD   := .build
# A fresh kernelspec for the tests, found first through JUPYTER_PATH.
TESTPREFIX := $(abspath $(BUILD)/prefix)
TESTENV    := JUPYTER_PATH=$(TESTPREFIX)/share/jupyter PROFLENS_BIN=$(abspath $(BIN))

# Every package a fresh Debian machine needs, in one place (make test installs
# CI_PKGS through test-deps; make demo installs JUPYTER_PKGS when jupyter is
# missing). valgrind, gcc and g++ record the callgrind and cachegrind files the
# loaders' tests check against callgrind_annotate and cg_annotate; the JDK's
# jfr and binutils' c++filt are oracles of the JFR reader and the demangler.
JUPYTER_PKGS := jupyter-notebook jupyter-nbconvert jupyter-client python3-nbclient \
                python3-jupyter-kernel-test jupyter-console
CI_PKGS      := $(JUPYTER_PKGS) python3-ipykernel python3-zmq python3-jupyter-server chromium fonts-dejavu-core fonts-liberation make git ca-certificates \
                valgrind gcc g++ libc6-dev binutils openjdk-17-jdk-headless
# npm packages for browser tests, pinned, installed into $(BUILD)/node by
# make npm-install (make test, browser and lab run it). playwright-core brings no
# browser: the tests use Debian's chromium. tests/lab bundles JupyterLab's
# services, rendermime, outputarea and lumino widgets with esbuild, and takes
# its themes' CSS from the two theme extensions; its widget views run on the
# Jupyter widgets' manager (base, base-manager) and anywidget's front end.
NPM_PKGS     := playwright-core@1.65.1 esbuild@0.28.2 @jupyterlab/services@7.6.6 @jupyterlab/coreutils@6.6.6 \
                @jupyterlab/rendermime@4.6.6 @jupyterlab/outputarea@4.6.6 @lumino/widgets@2.10.0 \
                @jupyterlab/theme-light-extension@4.6.4 @jupyterlab/theme-dark-extension@4.6.4 \
                @jupyter-widgets/base@6.0.12 @jupyter-widgets/base-manager@1.0.13 anywidget@0.11.0
NODE_MODULES := $(abspath $(BUILD)/node/node_modules)

# The profile stores of the store tests (store/), built from the Go module
# proxy into $(BUILD) by tests/stores/build.sh, never committed: Pyroscope
# (about 4 minutes) whenever the store tests run, Parca (5-6 minutes, 4 GB
# of modules) only for make test-stores PARCA=1. STORE_NOTEBOOKS read a
# store: make notebooks leaves them out, make notebooks-stores runs them
# against a local Pyroscope holding the fleet's profiles (tests/stores/fleet).
PYROSCOPE_BIN   := $(BUILD)/pyroscope/pyroscope
PARCA_BIN       := $(BUILD)/parca/parca
STORE_NOTEBOOKS := notebooks/fleet.ipynb
NOTEBOOKS       ?= $(filter-out $(STORE_NOTEBOOKS),$(wildcard notebooks/*.ipynb))

.PHONY: mutation build demo notebook test test-deps gotest conformance notebooks notebooks-stores browser lab bench jupyter-check ci-packages npm-packages npm-install clean \
        pyroscope parca test-stores store-pyroscope store-parca

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

# test-deps puts on the machine what make test needs: the Debian packages of
# CI_PKGS (installed when we are root; otherwise it stops at once with the
# one command that would), the npm packages of the browser tests and the
# Pyroscope server of the store tests. Under make test every check runs
# with PROFLENS_STRICT=1: a check that cannot run fails, naming what
# installs what it lacks, rather than being skipped.
test-deps:
	@missing=$$(for p in $(CI_PKGS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done | tr '\n' ' '); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "== installing: $$missing"; \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing </dev/null || exit 1; \
	  else \
	    echo "make test needs Debian packages that are missing; install them with:"; \
	    echo "  sudo apt-get install -y $$missing"; exit 1; \
	  fi; \
	fi
	@$(MAKE) --no-print-directory npm-install pyroscope

test: export PROFLENS_STRICT := 1
test: build test-deps
	@echo "== gofmt"; out=$$(gofmt -l $$(git ls-files '*.go') 2>&1); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	@echo "== go vet"; $(GO) vet ./...
	@$(MAKE) --no-print-directory -k gotest conformance notebooks notebooks-stores browser lab

# gotest runs the store integration test (store/pyroscope_test.go) when the
# Pyroscope server is built (make test builds it first; without it the test
# is skipped when run by hand, and fails under make test).
# A package's tests may take up to 30 minutes (go test's own limit is 10):
# a bound on a hung test, with room for a loaded 2-core machine, where the
# race-instrumented command layer takes several times its quiet run.
gotest:
	@echo "== go test"; $(GO) test -timeout 30m ./...
	@echo "== go test -race (command layer and protocol layer)"; $(GO) test -race -count=1 -timeout 30m ./kernel/...

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
	@shopt -s nullglob; n=0; for nb in $(NOTEBOOKS); do n=$$((n+1)); \
	  echo "-- $$nb"; \
	  $(TESTENV) $(JUPYTER) nbconvert --to notebook --execute --ExecutePreprocessor.kernel_name=proflens \
	    --ExecutePreprocessor.timeout=300 --output-dir $(BUILD)/nb "$$nb" || exit 1; \
	  $(PYTHON) tests/check_notebook.py "$(BUILD)/nb/$$(basename $$nb)" || exit 1; \
	  GO=$(GO) $(PYTHON) tests/check_tables.py "$(BUILD)/nb/$$(basename $$nb)" notebooks || exit 1; \
	  $(TESTENV) $(JUPYTER) nbconvert --to notebook --execute --ExecutePreprocessor.kernel_name=proflens \
	    --ExecutePreprocessor.timeout=300 --output-dir $(BUILD)/nb2 "$$nb" 2>/dev/null || exit 1; \
	  $(PYTHON) tests/same_outputs.py "$(BUILD)/nb/$$(basename $$nb)" "$(BUILD)/nb2/$$(basename $$nb)" || exit 1; \
	done; echo "$$n notebooks executed twice, outputs identical"

# notebooks-stores runs STORE_NOTEBOOKS as notebooks does, against a local
# Pyroscope that tests/stores/fleet starts and fills, when the server is
# built; without it, SKIP (FAIL under make test).
notebooks-stores: build
	@echo "== notebooks that read a store ($(STORE_NOTEBOOKS))"
	@if ! [ -x $(PYROSCOPE_BIN) ]; then \
	  if [ "$$PROFLENS_STRICT" = 1 ]; then echo "FAIL $(STORE_NOTEBOOKS): no Pyroscope server at $(PYROSCOPE_BIN); make pyroscope builds it"; exit 1; fi; \
	  echo "SKIP $(STORE_NOTEBOOKS): no Pyroscope server at $(PYROSCOPE_BIN); make pyroscope builds it (about 4 minutes)"; exit 0; \
	fi; \
	$(GO) run ./tests/stores/fleet -pyroscope $(PYROSCOPE_BIN) -- $(MAKE) --no-print-directory notebooks NOTEBOOKS="$(STORE_NOTEBOOKS)"

# pyroscope and parca build the servers into $(BUILD) (once; make clean
# removes them).
pyroscope:
	@tests/stores/build.sh pyroscope $(BUILD)/pyroscope
parca:
	@tests/stores/build.sh parca $(BUILD)/parca

# test-stores runs the store tests alone against real servers: Pyroscope,
# and with PARCA=1 Parca too, then the store notebooks.
test-stores: build pyroscope $(if $(PARCA),parca)
	@echo "== store tests (Pyroscope$(if $(PARCA), and Parca))"
	$(if $(PARCA),PROFLENS_PARCA=$(abspath $(PARCA_BIN))) $(GO) test -count=1 -v -run 'TestPyroscope|TestParca' ./store/
	@$(MAKE) --no-print-directory notebooks-stores

# store-pyroscope and store-parca serve a local store holding the fleet's
# profiles (notebooks/fleet.ipynb) until Ctrl-C, to try load pyroscope://.
store-pyroscope: pyroscope
	$(GO) run ./tests/stores/fleet -pyroscope $(PYROSCOPE_BIN) -addr 127.0.0.1:4040
store-parca: parca
	$(GO) run ./tests/stores/fleet -parca $(PARCA_BIN) -addr 127.0.0.1:7070

# browser opens the classic Notebook in headless Chromium and works through a
# new proflens notebook and the tour like a person (tests/browser/notebook.js);
# screenshots land in $(BUILD)/browser. Without chromium it prints SKIP,
# and fails under make test.
browser: build npm-install
	@echo "== browser (classic Notebook in headless Chromium)"
	NODE_PATH="$(NODE_MODULES)" PROFLENS_BIN=$(abspath $(BIN)) JUPYTER=$(JUPYTER) node tests/browser/notebook.js

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

# mutation runs gremlins (mutation testing: it makes one-line changes to the
# code and counts those that no test notices) over each package PKG names,
# one at a time, and writes its results to $(BUILD)/mutation/. Not part of
# make test: on 2 cores a package takes minutes to an hour. Efficacy is the
# share of covered mutants the tests kill. Go's test cache is off
# (GOFLAGS=-count=1): gremlins times each mutant against its coverage run,
# and a cached one, taking a fraction of a second, would time every mutant
# out. Each run may address 16 GiB at most: a mutant that allocates
# without bound dies there instead of taking the machine. Gremlins counts
# a mutant that does not compile as killed. Gremlins runs the tests in a
# copy of the module without its symbolic links, where a test that reads a
# fixture through one fails, and every mutant would count as killed: each
# package's tests are first run in such a copy, and a failure stops here.
# The corpus sweeps read the shared corpus beside this checkout
# (PROFLENS_CORPUS), which the copy has not; absent, they skip.
GREMLINS := $(shell $(GO) env GOPATH)/bin/gremlins
PKG      ?= ./compaction ./phase ./live ./kernel/jupyter $(sort $(dir $(wildcard ./analysis/*/*.go)))
mutation:
	@[ -x $(GREMLINS) ] || $(GO) install github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0
	@set -o pipefail; mkdir -p $(BUILD)/mutation; for p in $(PKG); do \
	  out=$(BUILD)/mutation/$$(echo "$${p#./}" | tr '/' '_' | sed 's/_$$//').json; \
	  echo "== gremlins $$p -> $$out"; \
	  rm -rf $(BUILD)/mutation/nolinks; mkdir -p $(BUILD)/mutation/nolinks; \
	  git ls-files -s | awk '$$1 != "120000" { print $$4 }' | tar -c -T - | tar -x -C $(BUILD)/mutation/nolinks; \
	  (cd $(BUILD)/mutation/nolinks && $(GO) test -count=1 $$p >/dev/null) || { echo "$$p: its tests fail in a copy of the module without symbolic links (as gremlins runs them): read the fixtures at their homes" >&2; exit 1; }; \
	  (ulimit -v $$((16 << 20)); GOFLAGS=-count=1 PROFLENS_CORPUS=$${PROFLENS_CORPUS:-$(abspath ../shared/corpus)} $(GREMLINS) unleash --workers 1 --timeout-coefficient 10 -o $$out $$p) | tail -5 || exit 1; \
	done

clean:
	rm -rf bin $(BUILD) notebooks/tour.html

# readme-picture redraws the README's picture with the current kernel.
readme-picture: build
	$(BIN) run -c 'load plotting/testdata/conprof.pb.gz as conprof' -c 'level 2' -c 'show' -c 'export conprof docs/radial.svg' >/dev/null
