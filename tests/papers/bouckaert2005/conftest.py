"""Fixtures of the Bouckaert (2005) tests: nothing here may overwrite the committed tables or the cache."""

import pandas as pd
import pytest

from replicability.papers.bouckaert2005.overlap import two_experiments_table


@pytest.fixture(autouse=True)
def _tmp_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path / "reproduced"))
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def committed(repo_root):
    """A committed table of ``data/reproduced/bouckaert2005``, by name."""
    return lambda name: pd.read_csv(repo_root / "data" / "reproduced" / "bouckaert2005" / f"{name}.csv")


@pytest.fixture
def written(tmp_path):
    """A table that ``page.write()`` wrote to the temporary ``reproduced`` folder, by name (None if absent)."""
    def read(name):
        path = tmp_path / "reproduced" / "bouckaert2005" / f"{name}.csv"
        return pd.read_csv(path) if path.is_file() else None
    return read


@pytest.fixture(scope="module")
def h0():
    """The two-experiment model simulated under H0 (q = 1/2) at two sizes and two test fractions."""
    return two_experiments_table(0.5, sizes=(20_000, 200_000), test_sizes=(0.1, 0.5), n_sim=100_000)


@pytest.fixture(scope="module")
def worst():
    """The two-experiment model simulated at the Appendix's worst-case q."""
    return two_experiments_table("threshold", sizes=(20_000, 200_000), test_sizes=(0.1, 0.5), n_sim=50_000)
