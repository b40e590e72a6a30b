"""Fixtures of every paper's page tests: nothing they run may overwrite the committed tables."""

import pandas as pd
import pytest


@pytest.fixture(autouse=True)
def _no_writes(tmp_path, monkeypatch):
    """``REPLICABILITY_REPRODUCED_DIR``: :meth:`Page.write` writes under the test's folder, not data/reproduced."""
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path / "reproduced"))


@pytest.fixture
def committed(repo_root, request):
    """A committed table of ``data/reproduced/<paper>`` (the test's folder names the paper), by name."""
    paper = request.path.parent.name
    return lambda name: pd.read_csv(repo_root / "data" / "reproduced" / paper / f"{name}.csv")


@pytest.fixture
def written(tmp_path, request):
    """A table that ``page.write()`` wrote to the temporary ``reproduced`` folder, by name (None if absent)."""
    paper = request.path.parent.name

    def read(name):
        path = tmp_path / "reproduced" / paper / f"{name}.csv"
        return pd.read_csv(path) if path.is_file() else None
    return read


@pytest.fixture
def committed_only(tmp_path, monkeypatch):
    """A clean cache that refuses to compute: a paper-scale result missing from ``data/results`` raises.

    A fresh clone has only the committed results; a builder that asks for a result under
    another key would compute it (minutes at paper scale). The fixture points the cache
    at an empty folder and makes a look-up that misses there raise at once, before
    anything is computed; the keys refused are in the returned list.
    """
    from replicability.engine import store

    cache = tmp_path / "cache"
    monkeypatch.setenv("REPLICABILITY_CACHE", str(cache))
    monkeypatch.delenv("REPLICABILITY_RECOMPUTE", raising=False)
    refused, load = [], store.ResultStore.load

    def load_or_refuse(self, config, *, versions=None):
        ds = load(self, config, versions=versions)
        if ds is None and self.path == cache:
            refused.append(config)
            raise RuntimeError(f"a committed result would be recomputed: {config}")
        return ds
    monkeypatch.setattr(store.ResultStore, "load", load_or_refuse)
    return refused
