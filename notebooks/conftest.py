"""nbval runs every notebook at its default (paper-scale) parameters on a clean cache that refuses to compute.

A fresh clone holds only the committed results (``data/results``): building the book
must read every result from there. While a notebook's cells run, its kernel sees an
empty ``REPLICABILITY_CACHE`` and ``REPLICABILITY_NO_COMPUTE=1``, so a
:func:`~replicability.engine.store.cached_result` call that would recompute anything
raises :class:`~replicability.engine.store.RecomputeRefusedError` in that cell and
nbval fails the notebook, naming the result. The variables are set only around the
notebooks' items (the kernel inherits them when nbval starts it), never for the unit
tests that share the worker.
"""

import os
import shutil
import tempfile

import pytest

_CLEAN_CACHE = pytest.StashKey[str]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item):
    if _CLEAN_CACHE not in item.config.stash:
        item.config.stash[_CLEAN_CACHE] = tempfile.mkdtemp(prefix="replicability-clean-cache-")
    saved = {name: os.environ.get(name) for name in ("REPLICABILITY_CACHE", "REPLICABILITY_NO_COMPUTE")}
    os.environ.update(REPLICABILITY_CACHE=item.config.stash[_CLEAN_CACHE], REPLICABILITY_NO_COMPUTE="1")
    try:
        return (yield)
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def pytest_unconfigure(config):
    if _CLEAN_CACHE in config.stash:
        shutil.rmtree(config.stash[_CLEAN_CACHE], ignore_errors=True)
