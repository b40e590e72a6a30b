# Two commands do everything: `make book` and `make test` (see README.md).
# Each sets up its own virtual environment in .venv from the pinned lock file.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
NOTEBOOKS := $(sort $(wildcard notebooks/*/*.ipynb))

.PHONY: help venv system-deps book notebooks html test nbval-narrowed lint reproduce benchmark lock clean

help:
	@echo "make book       execute every notebook (default parameters) and build _build/html"
	@echo "make test       run unit tests, doctests, nbval, smoke runs and the browser check"
	@echo "make nbval-narrowed  nbval again with numpy's SIMD dispatch narrowed (portable outputs)"
	@echo "make lint       ruff on src, tests and benchmarks (rules in pyproject.toml)"
	@echo "make reproduce  recompute the experiment results at paper scale into data/results"
	@echo "make benchmark  run the performance benchmarks in benchmarks/"

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade "pip==26.3"
	$(VENV)/bin/pip install --quiet --constraint requirements.lock --editable ".[test,book,dask]"
	touch $(STAMP)

venv: $(STAMP)

# Debian's chromium drives the book check; real Weka 3.6 (with a JDK to compile the test
# driver) is the oracle of the Weka tier. Installed when missing and we are root, without
# recommended packages; otherwise the book check fails and the Weka tier is skipped.
system-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	{ command -v javac >/dev/null 2>&1 && [ -f /usr/share/java/weka.jar ]; } || missing="$$missing weka default-jdk-headless"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else echo "make test needs:$$missing (sudo apt-get install --no-install-recommends$$missing)" >&2; \
	    command -v chromium >/dev/null 2>&1 || exit 1; fi; fi

notebooks: venv
	$(VENV)/bin/replicability run $(NOTEBOOKS)

html: venv
	$(VENV)/bin/jupyter-book build . --warningiserror --nitpick --keep-going

book: notebooks html

# cffconvert 2.0.0 pins jsonschema<4, which conflicts with the lock: the test suite runs it
# in a venv of its own, installed offline from these wheels (tests/test_repository_metadata.py).
CFF_WHEELS := .cache/wheels/cffconvert
$(CFF_WHEELS)/.downloaded: | venv
	$(VENV)/bin/pip download --quiet --dest $(CFF_WHEELS) "cffconvert==2.0.0" setuptools wheel
	touch $@

test: venv system-deps $(CFF_WHEELS)/.downloaded
	REPLICABILITY_WHEELHOUSE=$(CFF_WHEELS) $(PY) -m pytest

# The stored notebook outputs must not depend on the CPU's vector units: run nbval again
# with numpy's dispatch narrowed to its baseline (every dispatch group this CPU has is
# disabled; OPENBLAS_CORETYPE is left alone, some processors need the value they are given).
nbval-narrowed: venv
	@features="$$($(PY) -c 'from numpy._core._multiarray_umath import __cpu_dispatch__ as d, __cpu_features__ as f; print(" ".join(x for x in d if f.get(x)))')"; \
	echo "NPY_DISABLE_CPU_FEATURES=\"$$features\""; \
	NPY_DISABLE_CPU_FEATURES="$$features" $(PY) -m pytest notebooks --junitxml=_build/nbval-narrowed.xml

lint: venv
	$(VENV)/bin/ruff check src tests benchmarks

reproduce: venv
	$(VENV)/bin/replicability reproduce

benchmark: venv
	$(PY) benchmarks/run_all.py

# Regenerate the lock file from the current environment (maintainers only).
lock: venv
	$(VENV)/bin/pip freeze --exclude-editable | grep -v '^replicability' > requirements.lock

clean:
	rm -rf _build .cache
