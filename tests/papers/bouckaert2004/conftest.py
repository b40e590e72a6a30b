"""Fixtures of the Bouckaert (2004) tests: nothing here may overwrite the committed tables or the cache."""

import pandas as pd
import pytest


@pytest.fixture(autouse=True)
def _tmp_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path / "reproduced"))
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def committed(repo_root):
    """A committed table of ``data/reproduced/bouckaert2004``, by name."""
    return lambda name: pd.read_csv(repo_root / "data" / "reproduced" / "bouckaert2004" / f"{name}.csv")


@pytest.fixture
def written(tmp_path):
    """A table that ``page.write()`` wrote to the temporary ``reproduced`` folder, by name (None if absent)."""
    def read(name):
        path = tmp_path / "reproduced" / "bouckaert2004" / f"{name}.csv"
        return pd.read_csv(path) if path.is_file() else None
    return read
