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
