"""Fixtures of the Bouckaert (2005) tests: results computed below paper scale stay out of the cache."""

import pytest

from replicability.papers.bouckaert2005.overlap import two_experiments_table


@pytest.fixture(autouse=True)
def _tmp_cache(tmp_path, monkeypatch):
    """``REPLICABILITY_CACHE``: results computed below paper scale go under the test's folder."""
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def h0():
    """The two-experiment model simulated under H0 (q = 1/2) at two sizes and two test fractions."""
    return two_experiments_table(0.5, sizes=(20_000, 200_000), test_sizes=(0.1, 0.5), n_sim=100_000)


@pytest.fixture(scope="module")
def worst():
    """The two-experiment model simulated at the Appendix's worst-case q."""
    return two_experiments_table("threshold", sizes=(20_000, 200_000), test_sizes=(0.1, 0.5), n_sim=50_000)
